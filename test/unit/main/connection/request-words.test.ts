/**
 * A request the agent left unanswered, in words: the sentence says what Airlock asked for, and
 * only Details names the protocol method.
 */
import { describe, expect, it } from 'vitest';
import { noAnswer } from '../../../../main/core/request-words.js';

describe('noAnswer', () => {
  it.each([
    ['initialize', 'Demo did not finish starting within 30 s'],
    ['authenticate', 'Demo did not finish signing in within 30 s'],
    ['session/new', 'Demo did not start a session within 30 s'],
    ['session/load', 'Demo did not reopen the session within 30 s'],
    ['session/resume', 'Demo did not resume the session within 30 s'],
    ['session/list', 'Demo did not list its sessions within 30 s'],
    ['session/close', 'Demo did not close the session within 30 s'],
    ['session/set_mode', 'Demo did not change the mode within 30 s'],
    ['session/set_config_option', 'Demo did not change the option within 30 s'],
    ['_vendor/thing', 'Demo did not answer within 30 s'],
  ])('says what %s asked for, and names the method only under Details', (method, message) => {
    expect(noAnswer('Demo', method, 30_000)).toEqual({
      message,
      detail: `No answer to ${method} within 30 s`,
    });
  });

  it('counts in seconds, fractions kept', () => {
    expect(noAnswer('Demo', 'session/new', 1_500).message).toBe(
      'Demo did not start a session within 1.5 s',
    );
  });
});
