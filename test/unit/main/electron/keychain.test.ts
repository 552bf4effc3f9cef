import './use-fake-electron.js';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resetFakeElectron, safeStorage } from './fake-electron.js';
import { keychainSecretStore } from '../../../../main/electron/keychain.js';

afterEach(() => {
  resetFakeElectron();
  safeStorage.isEncryptionAvailable.mockImplementation(() => true);
  safeStorage.getSelectedStorageBackend.mockImplementation(() => 'gnome_libsecret');
});

const secretsPath = async () =>
  join(await mkdtemp(join(tmpdir(), 'airlock-keychain-')), 'secrets.json');

describe('sign-in secrets on the desktop', () => {
  it('are encrypted with safeStorage and read back through it', async () => {
    const path = await secretsPath();
    const store = keychainSecretStore(path);
    expect(store.available).toBe(true);
    expect(store.description).toBe('the system keychain');
    await store.set('Codex', { OPENAI_API_KEY: 'sk-live' });
    expect(safeStorage.encryptString).toHaveBeenCalledWith('sk-live');
    expect(await readFile(path, 'utf8')).not.toContain('sk-live');
    expect(await store.get('Codex')).toEqual({ OPENAI_API_KEY: 'sk-live' });
    expect(safeStorage.decryptString).toHaveBeenCalledTimes(1);
  });

  it('are not kept when the OS offers no encryption', async () => {
    safeStorage.isEncryptionAvailable.mockImplementation(() => false);
    const store = keychainSecretStore(await secretsPath());
    expect(store.available).toBe(false);
    expect(store.description).toContain('No system keychain');
    await expect(store.set('Codex', { A: '1' })).rejects.toThrow();
    expect(safeStorage.encryptString).not.toHaveBeenCalled();
  });

  it.runIf(process.platform === 'linux')(
    'are not kept on Linux when safeStorage falls back to its hard-coded key',
    async () => {
      safeStorage.getSelectedStorageBackend.mockImplementation(() => 'basic_text');
      const store = keychainSecretStore(await secretsPath());
      expect(store.available).toBe(false);
    },
  );
});
