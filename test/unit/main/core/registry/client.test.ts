import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSnapshot, SNAPSHOT_FILE, SPEC_DIR } from '../../../../../build/registry-snapshot.js';
import {
  DEFAULT_REGISTRY_URL,
  RegistryClient,
  type RegistryState,
  registryUrl,
} from '../../../../../main/core/registry/client.js';
import { type RegistryAgent } from '../../../../../main/core/registry/format.js';
import snapshot from '../../../../../main/core/registry/snapshot.json';
import { startLocalServer, useLocalServer } from '../../../../helpers/local-registry.js';
import { tempFolder } from '../../../../helpers/temp-folder.js';

/** The eleven sample entries, as the published file has them. */
const SAMPLES = snapshot as { version: string; agents: Record<string, unknown>[] };
const SAMPLE_IDS = SAMPLES.agents.map((agent) => agent.id);

const server = useLocalServer({ '/registry.json': { body: SAMPLES, headers: { etag: '"v1"' } } });

/** A client of the local server's `path`, with its own cache folder unless given one. */
function clientOf(
  path = '/registry.json',
  options: { cacheDir?: string; timeoutMs?: number; maxBytes?: number } = {},
): RegistryClient {
  return new RegistryClient({
    url: () => server().url(path),
    cacheDir: options.cacheDir ?? tempFolder('airlock-registry-'),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
  });
}

/** An entry like the samples', with `change` applied. */
function agentEntry(id: string, change: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: `Agent ${id}`,
    version: '1.0.0',
    description: 'An agent',
    distribution: { npx: { package: `${id}-acp` } },
    ...change,
  };
}

const ids = (state: RegistryState) => state.registry.agents.map((agent) => agent.id);

/** A problem line as a person reads it: one sentence, no codes, stacks or JSON. */
function expectWords(problem: string | undefined): void {
  expect(problem).toMatch(/^[A-Z][^\n]*\.$/);
  expect(problem).not.toMatch(/\bE[A-Z]{3,}\b|\bat .*:\d+|[{}]|[a-z]Error\b|Error:|undefined/);
}

describe('registryUrl', () => {
  it('takes AIRLOCK_REGISTRY_URL first, then the setting, then the published address', () => {
    expect(registryUrl({ AIRLOCK_REGISTRY_URL: 'https://a.test/r.json' }, 'https://b.test')).toBe(
      'https://a.test/r.json',
    );
    expect(registryUrl({}, 'https://b.test/r.json')).toBe('https://b.test/r.json');
    expect(registryUrl({ AIRLOCK_REGISTRY_URL: '  ' }, '')).toBe(DEFAULT_REGISTRY_URL);
  });
});

describe('RegistryClient.refresh', () => {
  it('reads the eleven sample agents from the network and keeps them for current()', async () => {
    const cacheDir = tempFolder('airlock-registry-');
    const state = await clientOf('/registry.json', { cacheDir }).refresh();
    expect(state.source).toBe('network');
    expect(state.problem).toBe(undefined);
    expect(ids(state)).toEqual(SAMPLE_IDS);
    expect(ids(state)).toHaveLength(11);
    expect(state.registry.skipped).toEqual([]);
    expect(server().requests[0]?.headers['if-none-match']).toBe(undefined);

    const later = await clientOf('/missing', { cacheDir }).current();
    expect(later.source).toBe('cache');
    expect(later.fetchedAt).toBe(state.fetchedAt);
    expect(ids(later)).toEqual(SAMPLE_IDS);
  });

  it('sends the cached ETag and uses the cached copy on 304 Not Modified', async () => {
    const cacheDir = tempFolder('airlock-registry-');
    const client = clientOf('/registry.json', { cacheDir });
    const first = await client.refresh();
    server().route('/registry.json', { status: 304 });
    const second = await client.refresh();
    expect(server().requests[1]?.headers['if-none-match']).toBe('"v1"');
    expect(second.source).toBe('network');
    expect(second.problem).toBe(undefined);
    expect(second.registry).toEqual(first.registry);
  });

  it('sends no ETag to a registry at another address than the cached copy’s', async () => {
    const cacheDir = tempFolder('airlock-registry-');
    await clientOf('/registry.json', { cacheDir }).refresh();
    server().route('/mirror.json', { body: SAMPLES });
    const state = await clientOf('/mirror.json', { cacheDir }).refresh();
    expect(state.source).toBe('network');
    expect(server().requests.map((request) => request.headers['if-none-match'])).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('says a server that is down cannot be reached, and shows the bundled copy', async () => {
    const down = await startLocalServer();
    await down.close();
    const client = new RegistryClient({
      url: () => down.url('/registry.json'),
      cacheDir: tempFolder('airlock-registry-'),
    });
    const state = await client.refresh();
    expect(state.source).toBe('snapshot');
    expect(ids(state)).toEqual(SAMPLE_IDS);
    expect(state.problem).toBe(
      'Could not reach the agent registry (the server refused the connection); showing the copy that came with Airlock.',
    );
  });

  it('gives up on a server that never answers after the timeout', async () => {
    server().route('/registry.json', 'hang');
    const state = await clientOf('/registry.json', { timeoutMs: 200 }).refresh();
    expect(state.source).toBe('snapshot');
    expect(state.problem).toBe(
      'Could not reach the agent registry (timed out after 200 ms); showing the copy that came with Airlock.',
    );
  });

  it('gives up on an answer that starts but never ends after the timeout', async () => {
    server().route('/registry.json', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"version":');
    });
    const state = await clientOf('/registry.json', { timeoutMs: 300 }).refresh();
    expect(state.problem).toBe(
      'Could not reach the agent registry (timed out after 300 ms); showing the copy that came with Airlock.',
    );
  });

  it('keeps the last good copy when its address cannot even be worked out', async () => {
    const client = new RegistryClient({
      url: () => {
        throw new Error('settings unreadable');
      },
      cacheDir: tempFolder('airlock-registry-'),
    });
    const state = await client.refresh();
    expect(state.source).toBe('snapshot');
    expect(state.problem).toBe(
      'Could not read the agent registry; showing the copy that came with Airlock.',
    );
  });

  it('keeps the cached copy, and says from when, when the registry is offline', async () => {
    const cacheDir = tempFolder('airlock-registry-');
    const good = await clientOf('/registry.json', { cacheDir }).refresh();
    server().route('/registry.json', { status: 503, body: 'down for maintenance' });
    const state = await clientOf('/registry.json', { cacheDir }).refresh();
    expect(state.source).toBe('cache');
    expect(state.fetchedAt).toBe(good.fetchedAt);
    expect(state.registry).toEqual(good.registry);
    const day = new Date(good.fetchedAt!).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
    });
    expect(state.problem).toBe(
      `Could not read the agent registry (the server answered 503 Service Unavailable); showing the copy from ${day}.`,
    );
  });

  it('refuses an answer that is not JSON', async () => {
    server().route('/registry.json', { body: '<html>Welcome to the hotel wifi</html>' });
    const state = await clientOf().refresh();
    expect(state.source).toBe('snapshot');
    expect(state.problem).toBe(
      'The agent registry sent something that is not JSON; showing the copy that came with Airlock.',
    );
  });

  it('refuses JSON that is not a registry', async () => {
    server().route('/registry.json', { body: { version: 1, agents: 'all of them' } });
    const state = await clientOf().refresh();
    expect(state.problem).toBe(
      'The agent registry sent something that is not in the registry format; showing the copy that came with Airlock.',
    );
  });

  it('stops reading an answer that never ends once past the size cap', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    let sent = 0;
    server().route('/registry.json', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(16 * 1024, ' ');
      const pump = () => {
        while (!response.destroyed) {
          sent += chunk.length;
          if (!response.write(chunk)) {
            return;
          }
        }
      };
      response.on('drain', pump);
      response.on('close', closed);
      pump();
    });
    const state = await clientOf('/registry.json', { maxBytes: 256 * 1024 }).refresh();
    expect(state.problem).toBe(
      'The agent registry sent more than 256 KB, more than a registry should be; showing the copy that came with Airlock.',
    );
    await connectionClosed;
    expect(sent).toBeGreaterThan(256 * 1024);
  });

  it('refuses an answer whose declared length is past the cap, at the default of 4 MB', async () => {
    server().route('/registry.json', (_request, response) => {
      response.writeHead(200, { 'content-length': String(5 * 1024 * 1024) });
      response.write('{');
    });
    const state = await clientOf().refresh();
    expect(state.problem).toMatch(/^The agent registry sent more than 4 MB, /);
  });

  it('refuses JSON nested too deeply, whether or not the parser copes', async () => {
    const deep = `{"version":"1","agents":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`;
    server().route('/registry.json', { body: deep });
    const state = await clientOf().refresh();
    expect(state.problem).toBe(
      'The agent registry sent JSON nested too deeply to read; showing the copy that came with Airlock.',
    );

    let nested: unknown = 'deep';
    for (let depth = 0; depth < 70; depth += 1) {
      nested = { more: nested };
    }
    server().route('/registry.json', {
      body: { version: '1', agents: [agentEntry('a', { extra: nested })] },
    });
    expect((await clientOf().refresh()).problem).toMatch(/nested too deeply/);
  });

  it('reads past __proto__ keys without taking them as prototypes', async () => {
    const text = `{"version":"1","__proto__":{"polluted":true},"agents":[
      ${JSON.stringify(agentEntry('plain')).replace(/^\{/, '{"__proto__":{"license":"EVIL","polluted":true},')},
      ${JSON.stringify(agentEntry('envy', { distribution: { npx: { package: 'envy', env: {} } } })).replace('"env":{}', '"env":{"__proto__":"x"}')}
    ]}`;
    server().route('/registry.json', { body: text });
    const state = await clientOf().refresh();
    expect(state.problem).toBe(undefined);
    expect(ids(state)).toEqual(['plain']);
    expect(state.registry.agents[0]?.license).toBe(undefined);
    expect(state.registry.skipped).toEqual([
      { index: 1, id: 'envy', reason: expect.stringMatching(/__proto__/) },
    ]);
    expect(({} as { polluted?: boolean }).polluted).toBe(undefined);
  });

  it('leaves out entries with bad ids and keeps the others', async () => {
    server().route('/registry.json', {
      body: {
        version: '1',
        agents: [
          agentEntry('good'),
          agentEntry('Bad_Id'),
          agentEntry('../escape'),
          agentEntry(''),
          agentEntry('good'),
        ],
      },
    });
    const state = await clientOf().refresh();
    expect(state.problem).toBe(undefined);
    expect(ids(state)).toEqual(['good']);
    expect(state.registry.skipped.map((entry) => entry.index)).toEqual([1, 2, 3, 4]);
  });

  it('leaves out an entry whose archive is not https and keeps the others', async () => {
    const binary = (archive: string) => ({
      distribution: { binary: { 'linux-x86_64': { archive, cmd: './agent' } } },
    });
    server().route('/registry.json', {
      body: {
        version: '1',
        agents: [
          agentEntry('safe', binary('https://example.com/agent.tar.gz')),
          agentEntry('plain-http', binary('http://example.com/agent.tar.gz')),
          agentEntry('other'),
        ],
      },
    });
    const state = await clientOf().refresh();
    expect(ids(state)).toEqual(['safe', 'other']);
    expect(state.registry.skipped).toEqual([
      { index: 1, id: 'plain-http', reason: expect.stringMatching(/https/) },
    ]);
  });

  it('follows a redirect on this machine but refuses one to an address that is not https', async () => {
    server().route('/moved', { status: 301, headers: { location: '/registry.json' } });
    expect((await clientOf('/moved').refresh()).source).toBe('network');

    server().route('/moved', {
      status: 302,
      headers: { location: 'http://example.com/registry.json' },
    });
    const state = await clientOf('/moved').refresh();
    expect(state.problem).toBe(
      'Could not read the agent registry (it redirected to an address that is not https, which Airlock does not follow); showing the copy that came with Airlock.',
    );
  });

  it('gives up after three redirects', async () => {
    for (const [from, to] of [
      ['/r1', '/r2'],
      ['/r2', '/r3'],
      ['/r3', '/r4'],
      ['/r4', '/registry.json'],
    ]) {
      server().route(from!, { status: 307, headers: { location: to! } });
    }
    expect((await clientOf('/r2').refresh()).source).toBe('network');
    expect((await clientOf('/r1').refresh()).problem).toMatch(/redirected too many times/);
  });

  it('refuses an address that is not https without asking it', async () => {
    const client = new RegistryClient({
      url: () => 'http://example.com/registry.json',
      cacheDir: tempFolder('airlock-registry-'),
    });
    const state = await client.refresh();
    expect(state.source).toBe('snapshot');
    expectWords(state.problem);
    expect(state.problem).toMatch(/not https/);
  });

  it('shares one fetch between calls made while it runs', async () => {
    let release!: () => void;
    server().route('/registry.json', {
      body: SAMPLES,
      after: new Promise<void>((resolve) => (release = resolve)),
    });
    const client = clientOf();
    const first = client.refresh();
    const second = client.refresh();
    await server().waitForRequest('/registry.json');
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect(server().requests).toHaveLength(1);
    await client.refresh();
    expect(server().requests).toHaveLength(2);
  });

  it('puts every problem in words', async () => {
    const answers = [
      { status: 500 },
      { status: 404 },
      { body: 'nope' },
      { body: [] },
      { status: 302 },
      { status: 304 },
    ];
    for (const answer of answers) {
      server().route('/registry.json', answer);
      expectWords((await clientOf().refresh()).problem);
    }
  });

  it('never throws for any JSON answer and always gives the last good copy', async () => {
    const client = clientOf();
    let lastGood = (await client.refresh()).registry;
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        server().route('/registry.json', { body: JSON.stringify(value) });
        const state = await client.refresh();
        if (state.problem === undefined) {
          expect(state.source).toBe('network');
          lastGood = state.registry;
        } else {
          expectWords(state.problem);
          expect(state.registry).toEqual(lastGood);
        }
      }),
      { numRuns: 50 },
    );
  });
});

describe('RegistryClient.current', () => {
  it('is the bundled copy, icons inlined, before anything was fetched', async () => {
    const state = await clientOf().current();
    expect(state.source).toBe('snapshot');
    expect(state.problem).toBe(undefined);
    expect(ids(state)).toEqual(SAMPLE_IDS);
    for (const agent of state.registry.agents) {
      expect(agent.icon).toMatch(/^data:image\/svg\+xml;base64,/);
    }
    expect(server().requests).toEqual([]);
  });

  it('is the bundled copy when the cache on disk is damaged', async () => {
    const cacheDir = tempFolder('airlock-registry-');
    await clientOf('/registry.json', { cacheDir }).refresh();
    await writeFile(join(cacheDir, 'registry-cache.json'), '{"url":');
    expect((await clientOf('/registry.json', { cacheDir }).current()).source).toBe('snapshot');
  });
});

describe('RegistryClient.icon', () => {
  const SVG =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M0 0h16v16z"/></svg>';
  const agent = (icon: string | undefined, version = '1.0.0') =>
    ({ ...agentEntry('iconic'), version, icon }) as RegistryAgent;

  it('gives the bundled copy’s data: icon as it is', async () => {
    const { registry } = await clientOf().current();
    const first = registry.agents[0]!;
    expect(await clientOf().icon(first)).toBe(first.icon);
  });

  it('fetches an icon once and keeps it on disk by agent and version', async () => {
    server().route('/icon.svg', {
      body: `<?xml version="1.0"?>\n<!-- made by hand -->\n${SVG}`,
      headers: { 'content-type': 'text/plain' },
    });
    const cacheDir = tempFolder('airlock-registry-');
    const icon = await clientOf('/registry.json', { cacheDir }).icon(
      agent(server().url('/icon.svg')),
    );
    expect(icon).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(icon!.split(',')[1]!, 'base64').toString()).toContain(SVG);

    const again = await clientOf('/registry.json', { cacheDir }).icon(
      agent(server().url('/icon.svg')),
    );
    expect(again).toBe(icon);
    expect(server().requests).toHaveLength(1);

    await clientOf('/registry.json', { cacheDir }).icon(agent(server().url('/icon.svg'), '2.0.0'));
    expect(server().requests).toHaveLength(2);
  });

  it('asks once for an icon wanted twice at the same time, and not again soon after a failure', async () => {
    let release!: () => void;
    server().route('/icon.svg', {
      body: SVG,
      after: new Promise<void>((resolve) => (release = resolve)),
    });
    server().route('/broken.svg', { status: 500 });
    const client = clientOf();
    const both = Promise.all([
      client.icon(agent(server().url('/icon.svg'))),
      client.icon(agent(server().url('/icon.svg'))),
    ]);
    await server().waitForRequest('/icon.svg');
    release();
    const [first, second] = await both;
    expect(first).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(second).toBe(first);

    expect(await client.icon(agent(server().url('/broken.svg')))).toBe(undefined);
    expect(await client.icon(agent(server().url('/broken.svg')))).toBe(undefined);
    expect(server().requests.map((request) => request.path)).toEqual(['/icon.svg', '/broken.svg']);
  });

  it('takes an SVG served as image/svg+xml even when it does not start with <svg', async () => {
    server().route('/typed.svg', {
      body: `<!DOCTYPE svg [<!ENTITY a "b">]>${SVG}`,
      headers: { 'content-type': 'image/svg+xml; charset=utf-8' },
    });
    server().route('/untyped.svg', { body: `<!DOCTYPE svg [<!ENTITY a "b">]>${SVG}` });
    const client = clientOf();
    expect(await client.icon(agent(server().url('/typed.svg')))).toMatch(/^data:image\/svg/);
    expect(await client.icon(agent(server().url('/untyped.svg')))).toBe(undefined);
  });

  it('gives no icon for what is not an SVG, too big, not https, or fails', async () => {
    server().route('/page.svg', { body: '<html><script>alert(1)</script></html>' });
    server().route('/big.svg', { body: `${SVG}${' '.repeat(65 * 1024)}` });
    server().route('/gone.svg', { status: 404 });
    const client = clientOf();
    expect(await client.icon(agent(server().url('/page.svg')))).toBe(undefined);
    expect(await client.icon(agent(server().url('/big.svg')))).toBe(undefined);
    expect(await client.icon(agent(server().url('/gone.svg')))).toBe(undefined);
    expect(await client.icon(agent('http://example.com/icon.svg'))).toBe(undefined);
    expect(await client.icon(agent('data:text/html;base64,PHNjcmlwdD4='))).toBe(undefined);
    expect(await client.icon(agent('javascript:alert(1)'))).toBe(undefined);
    expect(await client.icon(agent(undefined))).toBe(undefined);
    expect(server().requests.map((request) => request.path)).toEqual([
      '/page.svg',
      '/big.svg',
      '/gone.svg',
    ]);
  });
});

describe('the bundled snapshot', () => {
  it.skipIf(!existsSync(SPEC_DIR))('is what the generator makes from the samples now', async () => {
    expect(await buildSnapshot()).toBe(await readFile(SNAPSHOT_FILE, 'utf8'));
  });
});
