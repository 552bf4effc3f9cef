/**
 * The core as the Electron host runs it: the user's settings and logs, the system folder
 * picker, the demo agent in a utility process, and consented URLs opened in the isolated
 * window or the system browser.
 */
import { BrowserWindow, dialog, type OpenDialogOptions } from 'electron';
import { homedir } from 'node:os';
import { AirlockCore } from '../core/core.js';
import { DEMO_AGENT_NAME, logsDir, settingsPath } from '../core/settings/catalog.js';
import type { AgentSpec } from '../core/agents/spec.js';
import { applyLoginShellPath } from '../core/shell-env.js';
import { keychainSecretStore } from './keychain.js';
import { openUrl } from './url-opener.js';
import { forkUtilityAgent } from './utility-agent.js';

/** The demo agent, started from its built script with `utilityProcess.fork`. */
export function demoAgentSpec(scriptPath: string): AgentSpec {
  return {
    name: DEMO_AGENT_NAME,
    command: scriptPath,
    args: [],
    env: {},
    builtIn: true,
    launch: forkUtilityAgent,
  };
}

/** Shows the system folder picker, over the focused window when there is one. */
export async function pickFolder(): Promise<string | null> {
  const options: OpenDialogOptions = {
    title: 'Choose a working folder',
    properties: ['openDirectory', 'createDirectory'],
  };
  const parent = BrowserWindow.getFocusedWindow();
  const result = parent
    ? await dialog.showOpenDialog(parent, options)
    : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

/**
 * Creates the core and loads the settings file, and meanwhile takes the user's login-shell
 * `PATH` for the agents (see main/core/shell-env.ts). The window does not wait for the shell
 * (a slow one takes seconds); agents do: none, nor the settings view's Test, starts with the
 * launcher's short `PATH`.
 */
export async function startCore(demoAgentScript: string): Promise<AirlockCore> {
  const shellPath = applyLoginShellPath(process.env, {
    platform: process.platform,
    fromTerminal: Boolean(process.stdin.isTTY || process.stdout.isTTY),
  })
    .then((kept) => {
      if (kept) {
        console.warn(`airlock: ${kept}`);
      }
    })
    .catch((error: unknown) => console.warn('airlock: kept the PATH as it is:', error));
  const core = new AirlockCore({
    settingsPath: settingsPath(),
    logsDir: logsDir(),
    demoAgent: demoAgentSpec(demoAgentScript),
    defaultCwd: process.env.AIRLOCK_CWD ?? homedir(),
    pickFolder,
    // safeStorage can be asked only once the app is ready, which it is by now.
    secrets: keychainSecretStore(),
    // Consented URLs open in the isolated window (set up in index.ts) or the system browser.
    openUrl,
    agentsReady: shellPath,
  });
  await core.init();
  return core;
}
