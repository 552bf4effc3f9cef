/** Launch specs for the agents tests talk to: the demo agent and the scripted fixtures. */
import { fileURLToPath } from 'node:url';
import type { AgentSpec } from '../../main/core/agents/spec.js';
import type { TranscriptEvent } from '../../preload/shared/contract.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** tsx's loader by absolute URL: agents start in their session's folder, where a bare `tsx` would not resolve. */
export const TSX_LOADER = import.meta.resolve('tsx');

/** Runs a TypeScript entry point with Node through tsx, as its own process. */
function tsxSpec(name: string, entry: string, args: string[] = [], builtIn = false): AgentSpec {
  return {
    name,
    command: process.execPath,
    args: ['--import', TSX_LOADER, `${root}${entry}`, ...args],
    env: {},
    builtIn,
  };
}

/** The demo agent, from source. */
export function demoAgentSpec(): AgentSpec {
  return tsxSpec('Demo Agent', 'main/demo-agent/index.ts', [], true);
}

/** A scripted fixture agent from test/fixtures/agents, playing `scenario`. */
export function fixtureSpec(scenario: string, name = `fixture-${scenario}`): AgentSpec {
  return tsxSpec(name, 'test/fixtures/agents/scripted-agent.ts', [scenario]);
}

/**
 * The agent whose sign-in runs in a terminal (test/fixtures/agents/terminal-login-agent.ts), as
 * a program of its own: its `--login` method replaces its `--acp`. It keeps its token in
 * `tokenFile`.
 */
export function terminalLoginSpec(tokenFile: string, name = 'Terminal Login'): AgentSpec {
  return {
    name,
    command: `${root}test/fixtures/agents/terminal-login-agent.sh`,
    args: ['--acp'],
    env: {
      AIRLOCK_TEST_NODE: process.execPath,
      AIRLOCK_TEST_TSX: TSX_LOADER,
      AIRLOCK_TEST_TOKEN_FILE: tokenFile,
    },
    builtIn: false,
  };
}

/** A plain turn with a scripted agent in its tab's transcript: the prompt `text`, its reply, its end. */
export function scriptedTurn(text: string): TranscriptEvent[] {
  return [
    { type: 'prompt', text },
    { type: 'chunk', role: 'agent', text: 'Hello from the scripted agent.' },
    { type: 'turn_end', stopReason: 'end_turn' },
  ];
}
