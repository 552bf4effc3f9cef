import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EncryptedSecretFile, NO_SECRET_STORE } from '../../../../main/core/secrets.js';

/** Reversible, and never the value itself on disk. */
const cipher = {
  encrypt: (plain: string) => Buffer.from(`x${[...plain].reverse().join('')}`, 'utf8'),
  decrypt: (encrypted: Buffer) => {
    const text = encrypted.toString('utf8');
    if (!text.startsWith('x')) {
      throw new Error('cannot decrypt');
    }
    return [...text.slice(1)].reverse().join('');
  },
};

async function store() {
  const path = join(await mkdtemp(join(tmpdir(), 'airlock-secrets-')), 'nested', 'secrets.json');
  return { path, secrets: new EncryptedSecretFile(path, cipher) };
}

describe('the encrypted secret file', () => {
  it('keeps values per agent, encrypted, in a file only the user can read', async () => {
    const { path, secrets } = await store();
    expect(await secrets.get('Codex')).toEqual({});
    await secrets.set('Codex', { OPENAI_API_KEY: 'sk-one' });
    await secrets.set('Codex', { OPENAI_ORG: 'org-two' });
    await secrets.set('Claude', { ANTHROPIC_API_KEY: 'sk-three' });
    expect(await secrets.get('Codex')).toEqual({ OPENAI_API_KEY: 'sk-one', OPENAI_ORG: 'org-two' });
    expect(await secrets.get('Claude')).toEqual({ ANTHROPIC_API_KEY: 'sk-three' });
    const raw = await readFile(path, 'utf8');
    expect(raw).toContain('OPENAI_API_KEY');
    for (const value of ['sk-one', 'org-two', 'sk-three']) {
      expect(raw).not.toContain(value);
    }
    if (process.platform !== 'win32') {
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    }
  });

  it('replaces a value of the same name and forgets an agent whole', async () => {
    const { secrets } = await store();
    await secrets.set('Codex', { OPENAI_API_KEY: 'old', OPENAI_ORG: 'org' });
    await secrets.set('Codex', { OPENAI_API_KEY: 'new' });
    expect(await secrets.get('Codex')).toEqual({ OPENAI_API_KEY: 'new', OPENAI_ORG: 'org' });
    await secrets.set('Claude', { ANTHROPIC_API_KEY: 'kept' });
    await secrets.forget('Codex');
    await secrets.forget('Never stored');
    expect(await secrets.get('Codex')).toEqual({});
    expect(await secrets.get('Claude')).toEqual({ ANTHROPIC_API_KEY: 'kept' });
  });

  it('drops a value the keychain can no longer decrypt, keeping the others', async () => {
    const { path, secrets } = await store();
    await secrets.set('Codex', { GOOD: 'fine' });
    const data = JSON.parse(await readFile(path, 'utf8')) as {
      agents: Record<string, Record<string, string>>;
    };
    data.agents.Codex!.BAD = Buffer.from('garbage').toString('base64');
    await writeFile(path, JSON.stringify(data));
    expect(await secrets.get('Codex')).toEqual({ GOOD: 'fine' });
  });

  it('never overwrites a damaged file, and says what to do', async () => {
    const { path, secrets } = await store();
    await secrets.set('Codex', { A: '1' });
    await writeFile(path, '{ not json');
    await expect(secrets.set('Codex', { B: '2' })).rejects.toThrow(
      `${path} is damaged, so nothing was saved to it. Move it aside to start afresh.`,
    );
    await expect(secrets.forget('Codex')).rejects.toThrow('is damaged');
    expect(await readFile(path, 'utf8')).toBe('{ not json');
    // Reading a damaged file finds nothing rather than failing the agent's start.
    expect(await secrets.get('Codex')).toEqual({});
  });
});

describe('the encrypted secret file, when it cannot be used', () => {
  it('creates no file to forget an agent never stored', async () => {
    const { path, secrets } = await store();
    await secrets.forget('Codex');
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });

  it('says it cannot read the file, and why, when the file is not one', async () => {
    const { path, secrets } = await store();
    await mkdir(path, { recursive: true });
    await expect(secrets.set('Codex', { A: '1' })).rejects.toThrow(
      `Could not read ${path}: EISDIR`,
    );
    expect(await secrets.get('Codex')).toEqual({});
  });

  it('takes a file of another version as damaged', async () => {
    const { path, secrets } = await store();
    await secrets.set('Codex', { A: '1' });
    const data = JSON.parse(await readFile(path, 'utf8')) as object;
    await writeFile(path, JSON.stringify({ ...data, version: 2 }));
    await expect(secrets.set('Codex', { B: '2' })).rejects.toThrow('is damaged');
  });

  it('keeps every change made at once, each on top of the one before', async () => {
    const { secrets } = await store();
    await secrets.set('Gone', { G: '0' });
    await Promise.all([
      secrets.set('Codex', { A: '1' }),
      secrets.set('Claude', { B: '2' }),
      secrets.forget('Gone'),
      secrets.set('Codex', { C: '3' }),
    ]);
    expect(await secrets.get('Codex')).toEqual({ A: '1', C: '3' });
    expect(await secrets.get('Claude')).toEqual({ B: '2' });
    expect(await secrets.get('Gone')).toEqual({});
  });

  it('goes on with the next change after one that failed', async () => {
    const { path, secrets } = await store();
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, 'damaged');
    const failed = secrets.set('Codex', { A: '1' });
    const next = secrets.forget('Codex');
    await expect(failed).rejects.toThrow('is damaged');
    await expect(next).rejects.toThrow('is damaged');
    await writeFile(path, JSON.stringify({ version: 1, agents: {} }));
    await secrets.set('Codex', { A: '1' });
    expect(await secrets.get('Codex')).toEqual({ A: '1' });
  });

  it('keeps the file readable by the user alone even over a temporary file left readable by others', async () => {
    const { path, secrets } = await store();
    await mkdir(dirname(path), { recursive: true });
    // A write that stopped before its rename, with a wider mode.
    await writeFile(`${path}.${process.pid}.tmp`, 'left over', { mode: 0o644 });
    await secrets.set('Codex', { A: '1' });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await secrets.get('Codex')).toEqual({ A: '1' });
  });
});

describe('a host without a keychain', () => {
  it('keeps nothing, and refuses to save with a message that points at the settings file', async () => {
    expect(NO_SECRET_STORE.available).toBe(false);
    await expect(NO_SECRET_STORE.set('Codex', { A: '1' })).rejects.toThrow('settings file');
    expect(await NO_SECRET_STORE.get('Codex')).toEqual({});
    await expect(NO_SECRET_STORE.forget('Codex')).resolves.toBeUndefined();
  });
});
