/**
 * Values the user enters for an agent's `env_var` sign-in (an API key, say), kept encrypted.
 *
 * The core never keeps such a value in the settings file or a log: it goes to a
 * {@link SecretStore} that the host provides. The Electron host encrypts with the OS keychain
 * (`safeStorage`) through {@link EncryptedSecretFile}; the web host has no keychain and offers
 * none ({@link NO_SECRET_STORE}), so the user sets the variable in the settings file instead.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { UserFacingError } from './errors.js';

/** Where an agent's sign-in values are kept, per agent name. */
export type SecretStore = {
  /** Whether values can be kept; when false, `description` says why and what to do instead. */
  readonly available: boolean;
  /** Where values go ("the system keychain"), or why there is nowhere. */
  readonly description: string;
  /** The values kept for an agent (variable name to value); empty when none. */
  get(agentName: string): Promise<Record<string, string>>;
  /** Keeps values for an agent, replacing those of the same names. */
  set(agentName: string, values: Record<string, string>): Promise<void>;
  /** Forgets every value kept for an agent. */
  forget(agentName: string): Promise<void>;
};

/** The store of a host without a keychain: it keeps nothing and says so. */
export const NO_SECRET_STORE: SecretStore = {
  available: false,
  description:
    'This host has no keychain to keep secrets in. Set the variable in the agent\u2019s "env" in the settings file instead.',
  get: async () => ({}),
  set: async () => {
    throw new UserFacingError(NO_SECRET_STORE.description);
  },
  forget: async () => undefined,
};

/** Encrypts and decrypts with a key the OS keeps (Electron's `safeStorage`). */
export type SecretCipher = {
  encrypt(plain: string): Buffer;
  decrypt(encrypted: Buffer): string;
};

const secretFile = z.object({
  version: z.literal(1),
  agents: z.record(z.string(), z.record(z.string(), z.string())),
});
type SecretFileData = z.infer<typeof secretFile>;

/**
 * A {@link SecretStore} in one file, each value encrypted with `cipher`.
 *
 * The file holds agent and variable names in clear and only ciphertext for values. It is
 * written whole to a temporary file and renamed, readable by the user alone. A file that cannot
 * be read or decrypted is treated as empty for reading and never silently overwritten.
 */
export class EncryptedSecretFile implements SecretStore {
  readonly available = true;

  constructor(
    private readonly path: string,
    private readonly cipher: SecretCipher,
    readonly description = 'the system keychain',
  ) {}

  async get(agentName: string): Promise<Record<string, string>> {
    const data = await this.read().catch(() => undefined);
    const stored = data?.agents[agentName];
    if (!stored) {
      return {};
    }
    const values: Record<string, string> = {};
    for (const [name, encrypted] of Object.entries(stored)) {
      try {
        values[name] = this.cipher.decrypt(Buffer.from(encrypted, 'base64'));
      } catch {
        // A value the keychain can no longer decrypt (another user, a reset keychain) is as if
        // it were never kept: the user is asked again.
      }
    }
    return values;
  }

  set(agentName: string, values: Record<string, string>): Promise<void> {
    return this.change(async () => {
      const data = await this.read();
      const stored = { ...data.agents[agentName] };
      for (const [name, value] of Object.entries(values)) {
        stored[name] = this.cipher.encrypt(value).toString('base64');
      }
      await this.write({ ...data, agents: { ...data.agents, [agentName]: stored } });
    });
  }

  forget(agentName: string): Promise<void> {
    return this.change(async () => {
      const data = await this.read();
      if (!(agentName in data.agents)) {
        return;
      }
      const { [agentName]: _forgotten, ...rest } = data.agents;
      await this.write({ ...data, agents: rest });
    });
  }

  /** The last change: the next waits for it, failed or not. */
  private changes: Promise<unknown> = Promise.resolve();

  /**
   * Runs changes one after another, each reading what the one before wrote: two sign-ins at
   * once would otherwise both read the file as it was, and the second write lose the first.
   */
  private change(run: () => Promise<void>): Promise<void> {
    const next = this.changes.then(run);
    this.changes = next.catch(() => undefined);
    return next;
  }

  private async read(): Promise<SecretFileData> {
    let raw: string;
    try {
      raw = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return { version: 1, agents: {} };
      }
      throw new UserFacingError(`Could not read ${this.path}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    const parsed = secretFile.safeParse(json);
    if (!parsed.success) {
      throw new UserFacingError(
        `${this.path} is damaged, so nothing was saved to it. Move it aside to start afresh.`,
      );
    }
    return parsed.data;
  }

  private async write(data: SecretFileData): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, this.path);
  }
}
