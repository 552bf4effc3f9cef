/**
 * The protocol check of `elicitation/create` on its own (main/core/elicitation/request.ts): every
 * refusal word for word, and exactly what a well-formed request becomes. protocol.test.ts and
 * corpus.test.ts send such requests through a real agent; this names each rule and its limit.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_ELICITATION_ID_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_SCOPE_ID_CHARS,
} from '../../../../main/core/elicitation/limits.js';
import {
  readElicitationRequest,
  type AdvertisedModes,
} from '../../../../main/core/elicitation/request.js';

const both: AdvertisedModes = { form: true, url: true };
const schema = { type: 'object', properties: {} };
const form = { mode: 'form', sessionId: 's', message: 'm', requestedSchema: schema };
const url = { mode: 'url', sessionId: 's', message: 'm', elicitationId: 'e', url: 'https://x/' };

/** The reason a request is refused, or a failure naming what it became. */
function reason(raw: unknown, advertised: AdvertisedModes = both): string {
  const read = readElicitationRequest(raw, advertised);
  if (read.ok) {
    throw new Error(`accepted: ${JSON.stringify(read.request)}`);
  }
  return read.reason;
}

describe('readElicitationRequest: the params and the mode', () => {
  it('refuses params that are not an object', () => {
    for (const raw of [null, undefined, 'form', 5, [form]]) {
      expect(reason(raw), JSON.stringify(raw)).toBe('the params must be an object.');
    }
  });

  it('requires a mode, and names an unknown one cut to 40 characters', () => {
    expect(reason({ ...form, mode: undefined })).toBe('"mode" is required ("form" or "url").');
    expect(reason({ ...form, mode: null })).toBe('"mode" is required ("form" or "url").');
    expect(reason({ ...form, mode: 'x'.repeat(100) })).toBe(
      `unknown mode "${'x'.repeat(40)}"; the modes are "form" and "url".`,
    );
    expect(reason({ ...form, mode: 5 })).toBe('"mode" must be "form" or "url".');
  });

  it('refuses a mode Airlock did not advertise on the connection', () => {
    expect(reason(form, { form: false, url: true })).toBe(
      'Airlock did not advertise form mode on this connection.',
    );
    expect(reason(url, { form: true, url: false })).toBe(
      'Airlock did not advertise url mode on this connection.',
    );
    expect(readElicitationRequest(url, { form: false, url: true }).ok).toBe(true);
  });
});

describe('readElicitationRequest: the scope', () => {
  it('takes exactly one of sessionId and requestId; null counts as absent', () => {
    expect(reason({ ...form, requestId: 1 })).toBe(
      'give either "sessionId" or "requestId", not both.',
    );
    expect(reason({ ...form, sessionId: undefined })).toBe(
      'a scope is required: "sessionId" or "requestId".',
    );
    expect(reason({ ...form, sessionId: null, requestId: null })).toBe(
      'a scope is required: "sessionId" or "requestId".',
    );
    expect(readElicitationRequest({ ...form, requestId: null }, both)).toMatchObject({
      ok: true,
      request: { scope: { kind: 'session', sessionId: 's' } },
    });
    expect(readElicitationRequest({ ...form, sessionId: null, requestId: 7 }, both)).toMatchObject({
      ok: true,
      request: { scope: { kind: 'request', requestId: 7 } },
    });
  });

  it('takes a request id that is a finite number or a string of up to the limit', () => {
    const request = (requestId: unknown) => ({ ...form, sessionId: undefined, requestId });
    const scope = (requestId: unknown) => {
      const read = readElicitationRequest(request(requestId), both);
      return read.ok ? read.request.scope : read.reason;
    };
    expect(scope(0)).toEqual({ kind: 'request', requestId: 0 });
    expect(scope('r')).toEqual({ kind: 'request', requestId: 'r' });
    const longest = 'r'.repeat(MAX_SCOPE_ID_CHARS);
    expect(scope(longest)).toEqual({ kind: 'request', requestId: longest });
    expect(scope(`${longest}r`)).toBe(
      `"requestId" is longer than ${MAX_SCOPE_ID_CHARS} characters.`,
    );
    for (const wrong of [Number.NaN, Number.POSITIVE_INFINITY, true, {}, ['r']]) {
      expect(scope(wrong), String(wrong)).toBe('"requestId" must be a string or a number.');
    }
  });

  it('refuses a tool call id with a request id; null counts as absent', () => {
    const request = { ...form, sessionId: undefined, requestId: 'r' };
    expect(reason({ ...request, toolCallId: 't' })).toBe(
      '"toolCallId" goes with "sessionId", not "requestId".',
    );
    expect(readElicitationRequest({ ...request, toolCallId: null }, both)).toMatchObject({
      ok: true,
      request: { scope: { kind: 'request', requestId: 'r' } },
    });
  });

  it('takes a session id that is a non-empty string of up to the limit', () => {
    const longest = 's'.repeat(MAX_SCOPE_ID_CHARS);
    expect(readElicitationRequest({ ...form, sessionId: longest }, both)).toMatchObject({
      ok: true,
      request: { scope: { kind: 'session', sessionId: longest } },
    });
    expect(reason({ ...form, sessionId: `${longest}s` })).toBe(
      `"sessionId" is longer than ${MAX_SCOPE_ID_CHARS} characters.`,
    );
    for (const wrong of ['', 5, {}]) {
      expect(reason({ ...form, sessionId: wrong }), String(wrong)).toBe(
        '"sessionId" must be a non-empty string.',
      );
    }
  });

  it('takes a tool call id that is a non-empty string of up to the limit, with the session', () => {
    const longest = 't'.repeat(MAX_SCOPE_ID_CHARS);
    const read = readElicitationRequest({ ...form, toolCallId: longest }, both);
    expect(read.ok && read.request.scope).toEqual({
      kind: 'session',
      sessionId: 's',
      toolCallId: longest,
    });
    const bare = readElicitationRequest({ ...form, toolCallId: null }, both);
    expect(bare.ok && bare.request.scope).toEqual({ kind: 'session', sessionId: 's' });
    expect(reason({ ...form, toolCallId: `${longest}t` })).toBe(
      `"toolCallId" is longer than ${MAX_SCOPE_ID_CHARS} characters.`,
    );
    for (const wrong of ['', 5]) {
      expect(reason({ ...form, toolCallId: wrong }), String(wrong)).toBe(
        '"toolCallId" must be a non-empty string.',
      );
    }
  });
});

describe('readElicitationRequest: the message and what each mode needs', () => {
  it('takes a message of up to the limit', () => {
    const longest = 'm'.repeat(MAX_MESSAGE_CHARS);
    expect(readElicitationRequest({ ...form, message: longest }, both)).toMatchObject({
      ok: true,
      request: { message: longest },
    });
    expect(reason({ ...form, message: `${longest}m` })).toBe(
      `"message" is longer than ${MAX_MESSAGE_CHARS} characters.`,
    );
    expect(reason({ ...form, message: undefined })).toBe('"message" must be a string.');
    expect(reason({ ...form, message: 5 })).toBe('"message" must be a string.');
  });

  it('gives a form its schema as sent, and needs one', () => {
    expect(readElicitationRequest(form, both)).toEqual({
      ok: true,
      request: {
        mode: 'form',
        scope: { kind: 'session', sessionId: 's' },
        message: 'm',
        requestedSchema: schema,
      },
    });
    const { requestedSchema: _left, ...without } = form;
    expect(reason(without)).toBe('a form elicitation needs "requestedSchema".');
    expect(reason({ ...form, requestedSchema: undefined })).toBe(
      'a form elicitation needs "requestedSchema".',
    );
    // Anything else is the schema check's to refuse, with its own reason.
    expect(readElicitationRequest({ ...form, requestedSchema: null }, both)).toMatchObject({
      ok: true,
      request: { requestedSchema: null },
    });
  });

  it('gives a URL elicitation its id and URL, each required', () => {
    expect(readElicitationRequest(url, both)).toEqual({
      ok: true,
      request: {
        mode: 'url',
        scope: { kind: 'session', sessionId: 's' },
        message: 'm',
        elicitationId: 'e',
        url: 'https://x/',
      },
    });
    for (const wrong of [undefined, '', 5]) {
      expect(reason({ ...url, elicitationId: wrong }), String(wrong)).toBe(
        'a URL elicitation needs a non-empty "elicitationId" string.',
      );
    }
    const longest = 'e'.repeat(MAX_ELICITATION_ID_CHARS);
    expect(readElicitationRequest({ ...url, elicitationId: longest }, both)).toMatchObject({
      ok: true,
      request: { elicitationId: longest },
    });
    expect(reason({ ...url, elicitationId: `${longest}e` })).toBe(
      `"elicitationId" is longer than ${MAX_ELICITATION_ID_CHARS} characters.`,
    );
    for (const wrong of [undefined, 5, { href: 'https://x/' }]) {
      expect(reason({ ...url, url: wrong }), String(wrong)).toBe(
        'a URL elicitation needs a "url" string.',
      );
    }
  });
});
