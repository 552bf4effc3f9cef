/**
 * What Airlock asked an agent to do, in words a person reads: the sentence says "did not start
 * a session", never `session/new`; the method name goes under Details with the rest.
 */

/** What each request asks the agent to do, after "did not". */
const DOING: Record<string, string> = {
  initialize: 'finish starting',
  authenticate: 'finish signing in',
  'session/new': 'start a session',
  'session/load': 'reopen the session',
  'session/resume': 'resume the session',
  'session/list': 'list its sessions',
  'session/close': 'close the session',
  'session/set_mode': 'change the mode',
  'session/set_config_option': 'change the option',
};

/**
 * The sentence and the detail of a request the agent left unanswered for `ms`: "Demo did not
 * start a session within 30 s", with "No answer to session/new within 30 s" for Details.
 */
export function noAnswer(
  agentName: string,
  method: string,
  ms: number,
): { message: string; detail: string } {
  const within = `within ${ms / 1000} s`;
  return {
    message: `${agentName} did not ${DOING[method] ?? 'answer'} ${within}`,
    detail: `No answer to ${method} ${within}`,
  };
}
