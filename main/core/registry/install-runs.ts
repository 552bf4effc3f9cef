/**
 * The installs of registry agents under way: one per agent at a time (the catalogue's Install and
 * a session starting the agent share it), each cancellable, its progress sent to the UI at most
 * every {@link PROGRESS_EVERY_MS} (the latest always in the end) and to whoever waits on it.
 */
import type { RegistryProgress } from '../../../preload/shared/registry-view.js';
import { UserFacingError } from '../errors.js';
import type { RegistryAgent } from './format.js';
import type { AgentInstaller, InstalledAgent } from './install/installer.js';

/** The least time between two progress events of one install, in ms. */
const PROGRESS_EVERY_MS = 100;

/** Who follows an install: bytes received, of `total` when the server says. */
export type ProgressListener = (progress: { received: number; total?: number }) => void;

/** One install under way: its cancel, who follows its progress, and its end. */
type Running = {
  abort: AbortController;
  listeners: Set<ProgressListener>;
  done: Promise<InstalledAgent>;
};

/** The installs under way. One per registry service. */
export class InstallRuns {
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly installer: AgentInstaller,
    private readonly progress: (progress: RegistryProgress) => void,
  ) {}

  /**
   * Installs the agent's archive, or joins the install of it under way; progress goes to the UI
   * (at most every {@link PROGRESS_EVERY_MS}) and to `onProgress`.
   */
  run(agent: RegistryAgent, onProgress?: ProgressListener): Promise<InstalledAgent> {
    let running = this.running.get(agent.id);
    if (!running) {
      const abort = new AbortController();
      const listeners = new Set<ProgressListener>();
      let last = 0;
      let received = 0;
      let total: number | undefined;
      let trailing: NodeJS.Timeout | undefined;
      // At most one report each PROGRESS_EVERY_MS, and the latest always reported in the end.
      const send = () => {
        clearTimeout(trailing);
        trailing = undefined;
        last = Date.now();
        const progress = { received, ...(total === undefined ? {} : { total }) };
        this.progress({ id: agent.id, ...progress });
        for (const listener of listeners) {
          listener(progress);
        }
      };
      const done = this.installer
        .install(agent, {
          signal: abort.signal,
          onProgress: (progress) => {
            received = progress.received;
            total = progress.total;
            const wait = last + PROGRESS_EVERY_MS - Date.now();
            if (wait <= 0) {
              send();
            } else {
              trailing ??= setTimeout(send, wait);
            }
          },
        })
        .finally(() => clearTimeout(trailing))
        .then(
          (installed) => {
            this.progress({ id: agent.id, received, total, done: true });
            return installed;
          },
          (error: unknown) => {
            const message = abort.signal.aborted
              ? `The install of ${agent.name} was cancelled.`
              : error instanceof UserFacingError
                ? error.message
                : `${agent.name} could not be installed.`;
            this.progress({ id: agent.id, received, total, error: message });
            throw new UserFacingError(message);
          },
        )
        .finally(() => this.running.delete(agent.id));
      running = { abort, listeners, done };
      this.running.set(agent.id, running);
    }
    if (onProgress) {
      running.listeners.add(onProgress);
    }
    return running.done;
  }

  /** Cancels the install of agent `id`, if one is under way. */
  cancel(id: string): void {
    this.running.get(id)?.abort.abort();
  }

  /** Cancels every install under way. */
  dispose(): void {
    for (const { abort } of this.running.values()) {
      abort.abort();
    }
  }
}
