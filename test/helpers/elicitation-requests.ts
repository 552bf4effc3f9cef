/**
 * Raw `elicitation/create` params for the core's elicitation tests: the scripted agent sends
 * them as given, with `$SESSION` replaced by its session id.
 */

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
