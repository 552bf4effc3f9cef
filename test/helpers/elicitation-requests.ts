/**
 * Raw `elicitation/create` params for the core's elicitation tests: the scripted agent sends
 * them as given, with `$SESSION` replaced by its session id.
 */
import type { AirlockCore } from '../../main/core/core.js';
import type { TranscriptEvent } from '../../preload/shared/contract.js';

/** A card the core shows for an agent's question: a form or a URL request. */
export type Card = Extract<TranscriptEvent, { type: 'elicitation' | 'url_elicitation' }>;

/** Sends raw `elicitation/create` params through the scripted agent's prompt (`elicit`). */
export function ask(core: AirlockCore, key: string, ...params: unknown[]) {
  return core.invoke('session:prompt', { key, text: JSON.stringify(params) });
}

/** A form request saying `message`, with these fields (none unless told). */
export const form = (message: string, properties: Record<string, unknown> = {}) => ({
  sessionId: '$SESSION',
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties },
});

/** A form asking for a branch, one optional string field. */
export const branchForm = {
  sessionId: '$SESSION',
  mode: 'form',
  message: 'Which branch?',
  requestedSchema: { type: 'object', properties: { branch: { type: 'string' } } },
};

/** A URL request to sign in at `url` (a GitHub authorisation page unless told). */
export const signIn = (
  elicitationId: string,
  url = 'https://github.com/login/oauth/authorize?x=1',
) => ({
  sessionId: '$SESSION',
  mode: 'url',
  elicitationId,
  url,
  message: 'Please sign in.',
});
