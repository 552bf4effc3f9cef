/**
 * Sign-in secrets kept with the OS keychain through Electron's `safeStorage`.
 *
 * The values are encrypted with a key the OS keeps (Keychain on macOS, DPAPI on Windows, the
 * Secret Service or KWallet on Linux) and stored, encrypted, in a file of their own beside the
 * settings, never in the settings file. On Linux without a keyring `safeStorage` falls back to
 * a hard-coded key (`basic_text`), which protects nothing: Airlock then offers no keychain and
 * says so, as the web host does.
 */
import { safeStorage } from 'electron';
import { join } from 'node:path';
import { EncryptedSecretFile, NO_SECRET_STORE, type SecretStore } from '../core/secrets.js';
import { configDir } from '../core/settings/catalog.js';

/** The store for this machine: the keychain when it really encrypts, else none. */
export function keychainSecretStore(path = join(configDir(), 'secrets.json')): SecretStore {
  const basicText =
    process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text';
  if (!safeStorage.isEncryptionAvailable() || basicText) {
    return {
      ...NO_SECRET_STORE,
      description:
        'No system keychain is available to keep secrets in. Set the variable in the agent\u2019s "env" in the settings file instead.',
    };
  }
  return new EncryptedSecretFile(
    path,
    {
      encrypt: (plain) => safeStorage.encryptString(plain),
      decrypt: (encrypted) => safeStorage.decryptString(encrypted),
    },
    'the system keychain',
  );
}
