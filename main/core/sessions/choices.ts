/**
 * The user's choices in a tab: the agent's mode and its config options, set when the user picks
 * them and set again on the agent's new session after a restart.
 */
import type { ConfigOptionView } from '../../../preload/shared/contract.js';
import type { AgentConnection } from '../agent-connection.js';
import { UserFacingError } from '../errors.js';
import type { Handlers } from '../handlers.js';
import type { Choice, Session } from '../session.js';
import { configViews } from '../updates.js';

/** A tab with its agent connection and ACP session id. */
export type RunningTab = { session: Session; connection: AgentConnection; acpSessionId: string };

/** The calls that set a mode or an option (`session:setMode`, `session:setConfigOption`). */
export function choiceHandlers(
  runningTab: (key: string) => RunningTab,
): Handlers<'session:setMode' | 'session:setConfigOption'> {
  return {
    'session:setMode': async ({ key, modeId }) => {
      const { session, connection, acpSessionId } = runningTab(key);
      await connection.request('session/set_mode', { sessionId: acpSessionId, modeId });
      session.update({ currentModeId: modeId });
      const mode = session.offeredModes.find((candidate) => candidate.id === modeId);
      session.choices.mode = { name: 'Mode', value: modeId, valueName: mode?.name ?? modeId };
      return {};
    },
    'session:setConfigOption': async ({ key, configId, value }) => {
      const { session, connection, acpSessionId } = runningTab(key);
      const option = session.summary.configOptions.find((candidate) => candidate.id === configId);
      if (!option) {
        throw new UserFacingError(`The agent offers no option "${configId}"`);
      }
      if (typeof value !== typeof option.currentValue) {
        throw new UserFacingError(
          `"${option.name}" takes ${typeof option.currentValue === 'boolean' ? 'on or off' : 'one of its choices'}`,
        );
      }
      await setConfigOption(session, connection, acpSessionId, configId, value);
      session.choices.options.set(configId, {
        name: option.name,
        value,
        valueName: valueName(option, value),
      });
      return {};
    },
  };
}

/**
 * Sets the mode and options the user had chosen on the session's new ACP session (after a
 * restart). Each one the agent no longer offers, or refuses, gets a line in the transcript and
 * is forgotten if it cannot come back. Returns what is as the user chose, for the restart line.
 */
export async function reapplyChoices(
  session: Session,
  connection: AgentConnection,
): Promise<string[]> {
  const applied: string[] = [];
  const sessionId = session.acpSessionId;
  if (sessionId === undefined) {
    return applied;
  }
  const said = (choice: Choice) => `${choice.name}: ${choice.valueName}`;
  const couldNot = (choice: Choice, why: string) =>
    session.append({
      type: 'system',
      text: `Could not set ${choice.name} back to ${choice.valueName}: ${why}`.slice(0, 10_000),
    });
  const mode = session.choices.mode;
  if (mode && typeof mode.value === 'string') {
    if (session.summary.currentModeId === mode.value) {
      applied.push(said(mode));
    } else if (!session.offeredModes.some((offered) => offered.id === mode.value)) {
      couldNot(mode, `${session.summary.agentName} no longer offers it.`);
      session.choices.mode = undefined;
    } else {
      try {
        await connection.request('session/set_mode', { sessionId, modeId: mode.value });
        session.update({ currentModeId: mode.value });
        applied.push(said(mode));
      } catch (error) {
        couldNot(mode, (error as Error).message);
      }
    }
  }
  for (const [configId, choice] of session.choices.options) {
    const option = session.summary.configOptions.find((candidate) => candidate.id === configId);
    if (!option) {
      couldNot(choice, `${session.summary.agentName} no longer offers this option.`);
      session.choices.options.delete(configId);
      continue;
    }
    if (option.currentValue === choice.value) {
      applied.push(said(choice));
      continue;
    }
    const value = choice.value;
    const fits =
      typeof value === 'boolean'
        ? typeof option.currentValue === 'boolean'
        : typeof option.currentValue === 'string' &&
          option.choices.some((offered) => offered.value === value);
    if (!fits) {
      couldNot(choice, `${session.summary.agentName} no longer offers that value.`);
      session.choices.options.delete(configId);
      continue;
    }
    try {
      await setConfigOption(session, connection, sessionId, configId, value);
      applied.push(said(choice));
    } catch (error) {
      couldNot(choice, (error as Error).message);
    }
  }
  return applied;
}

/**
 * `session/set_config_option`, a boolean value sent with its type. The answer holds every
 * option's state (setting one may change others): the tab shows them all.
 */
async function setConfigOption(
  session: Session,
  connection: AgentConnection,
  sessionId: string,
  configId: string,
  value: string | boolean,
): Promise<void> {
  const { configOptions } = await connection.request(
    'session/set_config_option',
    typeof value === 'boolean'
      ? { sessionId, configId, type: 'boolean', value }
      : { sessionId, configId, value },
  );
  session.update({ configOptions: configViews(configOptions) });
}

/** How a value of `option` reads to the user: its choice's name, or on and off. */
function valueName(option: ConfigOptionView, value: string | boolean): string {
  if (typeof value === 'boolean') {
    return value ? 'on' : 'off';
  }
  return option.choices.find((choice) => choice.value === value)?.name ?? value;
}
