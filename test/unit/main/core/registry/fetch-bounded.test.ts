import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  durationInWords,
  fetchBounded,
  FetchProblem,
  sizeInWords,
} from '../../../../../main/core/registry/fetch-bounded.js';
import { useLocalServer } from '../../../../helpers/local-registry.js';

const server = useLocalServer({ '/registry.json': { body: { version: '1', agents: [] } } });
const OPTIONS = { timeoutMs: 5_000, maxBytes: 1024 * 1024 };

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A fetch that answers addresses off this machine with `answer`, and others for real. */
function stubRemote(answer: (url: string) => Response): void {
  const real = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) =>
    input.startsWith('https://registry.test/') ? Promise.resolve(answer(input)) : real(input, init),
  );
}

describe('fetchBounded', () => {
  it('refuses a redirect from elsewhere to this computer, without asking it', async () => {
    stubRemote(
      () =>
        new Response(null, { status: 302, headers: { location: server().url('/registry.json') } }),
    );
    await expect(fetchBounded('https://registry.test/registry.json', OPTIONS)).rejects.toThrow(
      'it redirected to this computer, which Airlock does not follow',
    );
    expect(server().requests).toEqual([]);
  });

  it('follows a redirect from elsewhere to another https address', async () => {
    stubRemote((url) =>
      url.endsWith('/old.json')
        ? new Response(null, { status: 301, headers: { location: '/new.json' } })
        : new Response('{"moved":true}', { status: 200 }),
    );
    const response = await fetchBounded('https://registry.test/old.json', OPTIONS);
    expect(response.url).toBe('https://registry.test/new.json');
    expect(response.body.toString()).toBe('{"moved":true}');
  });

  it("says a port the fetch standard blocks, as a mail server's, in words", async () => {
    await expect(fetchBounded('http://127.0.0.1:25/registry.json', OPTIONS)).rejects.toThrow(
      new FetchProblem('it is on a port Airlock does not fetch from', true),
    );
  });

  it('says a failure that names no cause as the network failing, not as a refusal', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('fetch failed')));
    await expect(fetchBounded('https://registry.test/registry.json', OPTIONS)).rejects.toThrow(
      new FetchProblem('the network failed', true),
    );
  });

  it('reads a body on this machine whole', async () => {
    const response = await fetchBounded(server().url('/registry.json'), OPTIONS);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString())).toEqual({ version: '1', agents: [] });
  });
});

describe('words', () => {
  it('says durations and sizes as a person would', () => {
    expect(durationInWords(15_000)).toBe('15 s');
    expect(durationInWords(1_500)).toBe('1.5 s');
    expect(durationInWords(200)).toBe('200 ms');
    expect(sizeInWords(4 * 1024 * 1024)).toBe('4 MB');
    expect(sizeInWords(64 * 1024)).toBe('64 KB');
    expect(sizeInWords(10)).toBe('10 bytes');
  });
});
