/**
 * The protocol check of an agent's `elicitation/create`: mode, scope, message and the fields
 * each mode needs, read from the raw params (the SDK does not gate modes, and its parse would
 * strip the keys Airlock must refuse).
 *
 * What is wrong becomes a JSON-RPC -32602 whose message says so.
 */
import { MAX_ELICITATION_ID_CHARS, MAX_MESSAGE_CHARS, MAX_SCOPE_ID_CHARS } from './limits.js';

/** The modes Airlock advertised on this connection. */
export type AdvertisedModes = { form: boolean; url: boolean };

/** What the elicitation is about: a session (maybe one of its tool calls), or one of Airlock's requests. */
export type ElicitationScope =
  | { kind: 'session'; sessionId: string; toolCallId?: string }
  | { kind: 'request'; requestId: string | number };

/** A well-formed `elicitation/create`, not yet checked against its schema or URL. */
export type ElicitationRequest =
  | {
      mode: 'form';
      scope: ElicitationScope;
      message: string;
      requestedSchema: unknown;
      /** The request's `_meta` as it came: hints on how to show the form, never checked rules. */
      meta?: unknown;
    }
  | { mode: 'url'; scope: ElicitationScope; message: string; elicitationId: string; url: string };

/** The outcome of {@link readElicitationRequest}. */
export type ReadResult = { ok: true; request: ElicitationRequest } | { ok: false; reason: string };

type Json = Record<string, unknown>;

/** Checks the raw params of `elicitation/create` against the advertised modes. */
export function readElicitationRequest(raw: unknown, advertised: AdvertisedModes): ReadResult {
  if (!isObject(raw)) {
    return refuse('the params must be an object.');
  }
  const mode = raw.mode;
  if (mode === undefined || mode === null) {
    return refuse('"mode" is required ("form" or "url").');
  }
  if (mode !== 'form' && mode !== 'url') {
    return refuse(
      typeof mode === 'string'
        ? `unknown mode "${mode.slice(0, 40)}"; the modes are "form" and "url".`
        : '"mode" must be "form" or "url".',
    );
  }
  if (!advertised[mode]) {
    return refuse(`Airlock did not advertise ${mode} mode on this connection.`);
  }
  const scope = readScope(raw);
  if (typeof scope === 'string') {
    return refuse(scope);
  }
  const message = raw.message;
  if (typeof message !== 'string') {
    return refuse('"message" must be a string.');
  }
  if (message.length > MAX_MESSAGE_CHARS) {
    return refuse(`"message" is longer than ${MAX_MESSAGE_CHARS} characters.`);
  }
  if (mode === 'form') {
    if (!('requestedSchema' in raw) || raw.requestedSchema === undefined) {
      return refuse('a form elicitation needs "requestedSchema".');
    }
    return {
      ok: true,
      request: {
        mode,
        scope,
        message,
        requestedSchema: raw.requestedSchema,
        ...(raw._meta === undefined || raw._meta === null ? {} : { meta: raw._meta }),
      },
    };
  }
  const { elicitationId, url } = raw;
  if (typeof elicitationId !== 'string' || elicitationId.length === 0) {
    return refuse('a URL elicitation needs a non-empty "elicitationId" string.');
  }
  if (elicitationId.length > MAX_ELICITATION_ID_CHARS) {
    return refuse(`"elicitationId" is longer than ${MAX_ELICITATION_ID_CHARS} characters.`);
  }
  if (typeof url !== 'string') {
    return refuse('a URL elicitation needs a "url" string.');
  }
  return { ok: true, request: { mode, scope, message, elicitationId, url } };
}

function readScope(raw: Json): ElicitationScope | string {
  const hasSession = raw.sessionId !== undefined && raw.sessionId !== null;
  const hasRequest = raw.requestId !== undefined && raw.requestId !== null;
  if (hasSession === hasRequest) {
    return hasSession
      ? 'give either "sessionId" or "requestId", not both.'
      : 'a scope is required: "sessionId" or "requestId".';
  }
  const toolCallId = raw.toolCallId;
  if (hasRequest) {
    if (toolCallId !== undefined && toolCallId !== null) {
      return '"toolCallId" goes with "sessionId", not "requestId".';
    }
    const requestId = raw.requestId;
    if (typeof requestId === 'number' && Number.isFinite(requestId)) {
      return { kind: 'request', requestId };
    }
    if (typeof requestId !== 'string') {
      return '"requestId" must be a string or a number.';
    }
    if (requestId.length > MAX_SCOPE_ID_CHARS) {
      return `"requestId" is longer than ${MAX_SCOPE_ID_CHARS} characters.`;
    }
    return { kind: 'request', requestId };
  }
  const sessionId = raw.sessionId;
  if (typeof sessionId !== 'string' || sessionId.length === 0) {
    return '"sessionId" must be a non-empty string.';
  }
  if (sessionId.length > MAX_SCOPE_ID_CHARS) {
    return `"sessionId" is longer than ${MAX_SCOPE_ID_CHARS} characters.`;
  }
  if (toolCallId === undefined || toolCallId === null) {
    return { kind: 'session', sessionId };
  }
  if (typeof toolCallId !== 'string' || toolCallId.length === 0) {
    return '"toolCallId" must be a non-empty string.';
  }
  if (toolCallId.length > MAX_SCOPE_ID_CHARS) {
    return `"toolCallId" is longer than ${MAX_SCOPE_ID_CHARS} characters.`;
  }
  return { kind: 'session', sessionId, toolCallId };
}

function refuse(reason: string): ReadResult {
  return { ok: false, reason };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
