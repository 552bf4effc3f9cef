/**
 * The session pane renders only for its own changes: the app renders at every change of its
 * state (another tab's stream included), and the pane's props then compare the same.
 */
import type { ComponentProps } from 'react';
import { describe, expect, it } from 'vitest';
import type { AirlockApi, SessionSummary } from '../../../preload/shared/contract.js';
import {
  sameSessionProps,
  type SessionView,
} from '../../../renderer/src/components/session-view.js';
import { applyEvents, emptyTranscript } from '../../../renderer/src/state/transcript.js';

type Props = ComponentProps<typeof SessionView>;

const session = { key: 's1', status: 'ready' } as SessionSummary;
const transcript = applyEvents(emptyTranscript(), [{ type: 'prompt', text: 'Hello' }]);

function props(): Props {
  return {
    api: {} as AirlockApi,
    session,
    transcript,
    signIn: {
      secretStorage: { available: true, description: 'Keychain' },
      settingsPath: '/s.json',
    },
    urlElicitation: { default: 'isolated_window', opener: 'page' },
    disconnected: false,
  };
}

describe('sameSessionProps', () => {
  it('holds when the app renders again with the same state (its sign-in host made afresh)', () => {
    const before = props();
    const after = { ...before, signIn: { ...before.signIn } };
    expect(sameSessionProps(before, after)).toBe(true);
  });

  it("holds when another tab's transcript changed: the pane's own is the same object", () => {
    const before = props();
    // The store replaces only the transcripts that changed.
    const others = { s1: transcript, s2: emptyTranscript() };
    const next = { ...others, s2: applyEvents(others.s2, [{ type: 'prompt', text: 'Hi' }]) };
    expect(sameSessionProps(before, { ...before, transcript: next.s1 })).toBe(true);
  });

  it('fails when its own transcript, session, link or sign-in host changed', () => {
    const before = props();
    const grown = applyEvents(transcript, [{ type: 'chunk', role: 'agent', text: 'Hi' }]);
    expect(sameSessionProps(before, { ...before, transcript: grown })).toBe(false);
    expect(sameSessionProps(before, { ...before, session: { ...session } })).toBe(false);
    expect(sameSessionProps(before, { ...before, disconnected: true })).toBe(false);
    expect(
      sameSessionProps(before, {
        ...before,
        signIn: { ...before.signIn, settingsPath: '/other.json' },
      }),
    ).toBe(false);
    expect(
      sameSessionProps(before, {
        ...before,
        urlElicitation: { default: 'system_browser', opener: 'page' },
      }),
    ).toBe(false);
  });
});
