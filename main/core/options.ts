/**
 * What a host gives the core when it makes one (see core.ts): where the settings and logs
 * are, the built-in agent, and the host's own abilities (a folder picker, a URL opener, a
 * secret store), each optional where a host may have none.
 */
import type { ConnectionTimeouts } from './agent-connection.js';
import type { ReadPace } from './agents/read-pace.js';
import type { AgentSpec, PrepareAgent } from './agents/spec.js';
import type { SecretStore } from './secrets.js';

/** What a host provides to the core. */
export type CoreOptions = {
  settingsPath: string;
  logsDir: string;
  demoAgent: AgentSpec;
  defaultCwd: string;
  /** Shows a folder picker; absent on hosts that have none. */
  pickFolder?: () => Promise<string | null>;
  timeouts?: ConnectionTimeouts;
  /** The largest single message accepted from an agent (tests use a small one). */
  maxMessageBytes?: number;
  /** Where sign-in values the user enters are kept; none by default (the web host). */
  secrets?: SecretStore;
  /**
   * Opens a URL the user consented to, in the isolated window or the system browser (the
   * desktop app). Without it, the page opens URL elicitations in a new browser tab.
   */
  openUrl?: (url: string, where: 'window' | 'browser') => Promise<void>;
  /** How long the settings view's "Test" of an agent may take; a minute by default. */
  testDeadlineMs?: number;
  /**
   * How long a process started for no tab (to list an agent's history) waits for one before it
   * stops; a minute by default.
   */
  idleAgentMs?: number;
  /**
   * Settles once agents may start: the desktop app takes the login shell's `PATH` meanwhile
   * (shell-env.ts), so that no agent starts with a desktop launcher's shorter one. The window
   * opens without waiting for it.
   */
  agentsReady?: Promise<unknown>;
  /**
   * Whether an agent that stops by itself is restarted for its tabs (see agents/recovery.ts);
   * on unless a test of what an exit leaves behind turns it off.
   */
  restartCrashed?: boolean;
  /**
   * Works out how to run an agent from the ACP registry before a session or a Test starts it
   * (see {@link PrepareAgent}). Tests give a stand-in; the core's registry service gives the real
   * one. Without either, such an agent's tabs say it cannot run.
   */
  prepareAgent?: PrepareAgent;
  /**
   * The pace the agents' output is read at, the shown tab's agent first (agents/read-pace.ts):
   * a new one on the machine's clock unless a test gives its own.
   */
  readPace?: ReadPace;
};
