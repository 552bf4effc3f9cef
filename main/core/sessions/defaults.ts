/**
 * The mode and model the settings ask for on each new session of an agent (`default_mode`,
 * `default_model`, as Zed writes them), set right after `session/new` the way the pickers set
 * them. A session picked up again (resumed, loaded, reopened) keeps its own.
 */
import type { ConfigOptionView } from '../../../preload/shared/contract.js';
import type { AgentConnection } from '../agent-connection.js';
import type { AgentSpec } from '../agents/spec.js';
import type { Session } from '../session.js';
import { configViews } from '../updates.js';

/** Whether `spec` asks for a mode or a model on its new sessions. */
export function hasDefaults(spec: AgentSpec | undefined): boolean {
  return spec?.defaultMode !== undefined || spec?.defaultModel !== undefined;
}

/**
 * Sets the spec's default mode and model on the tab's new session, unless the user's own choice
 * (carried over a restart) stands in their place. One the agent does not offer, or refuses,
 * gets a line in the tab saying so; the session keeps the agent's default.
 */
export async function applyDefaults(
  session: Session,
  connection: AgentConnection,
  spec: AgentSpec,
): Promise<void> {
  const sessionId = session.acpSessionId;
  if (sessionId === undefined) {
    return;
  }
  const who = connection.identity.title ?? connection.identity.name ?? spec.name;
  const say = (text: string) => session.append({ type: 'system', text: text.slice(0, 10_000) });
  const setOption = async (option: ConfigOptionView, value: string) => {
    const { configOptions } = await connection.request('session/set_config_option', {
      sessionId,
      configId: option.id,
      value,
    });
    session.update({ configOptions: configViews(configOptions) });
  };
  const wanted = spec.defaultMode;
  if (wanted !== undefined && session.choices.mode === undefined) {
    const modeOption = session.summary.configOptions.find((option) => option.category === 'mode');
    const choice = modeOption && pick(modeOption.choices, wanted);
    const mode = pick(
      session.offeredModes.map((offered) => ({ value: offered.id, name: offered.name })),
      wanted,
    );
    try {
      if (modeOption && choice) {
        if (modeOption.currentValue !== choice) {
          await setOption(modeOption, choice);
        }
      } else if (mode) {
        if (session.summary.currentModeId !== mode) {
          await connection.request('session/set_mode', { sessionId, modeId: mode });
          session.update({ currentModeId: mode });
        }
      } else {
        say(`${who} has no mode “${wanted}”; the session uses its default mode.`);
      }
    } catch (error) {
      say(`Could not set the mode “${wanted}”: ${(error as Error).message}`);
    }
  }
  const model = spec.defaultModel;
  if (model !== undefined) {
    const option = session.summary.configOptions.find(
      (candidate) => candidate.category === 'model' || candidate.id === 'model',
    );
    if (option && session.choices.options.has(option.id)) {
      return;
    }
    const choice = option && typeof option.currentValue === 'string' && pick(option.choices, model);
    try {
      if (option && choice) {
        if (option.currentValue !== choice) {
          await setOption(option, choice);
        }
      } else {
        say(`${who} has no model “${model}”; the session uses its default model.`);
      }
    } catch (error) {
      say(`Could not set the model “${model}”: ${(error as Error).message}`);
    }
  }
}

/** The value of the choice `wanted` names: by its value, else by its name (any case). */
function pick(choices: { value: string; name: string }[], wanted: string): string | undefined {
  const lower = wanted.toLowerCase();
  return (
    choices.find((choice) => choice.value === wanted)?.value ??
    choices.find((choice) => choice.name.toLowerCase() === lower)?.value
  );
}
