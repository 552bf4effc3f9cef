/**
 * What the transcript's record of a URL request says once the agent sends
 * `elicitation/complete`: that the agent marked the step done, whether it came at once after
 * the page was opened (as codex-acp sends it) or later, and never that the page is finished,
 * which would read as if the user had finished something.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../preload/shared/contract.js';
import { UrlElicitationRowView } from '../../../renderer/src/components/url-elicitation-row.js';
import {
  applyEvents,
  emptyTranscript,
  type UrlElicitationRow,
} from '../../../renderer/src/state/transcript.js';

const CARD = 'e1';
const asked: TranscriptEvent = {
  type: 'url_elicitation',
  cardKey: CARD,
  agent: { configName: 'Codex', protocolVersion: 1, commandLine: 'codex-acp' },
  scope: 'session',
  message: 'Connect the service',
  url: {
    href: 'https://auth.example.com/device',
    original: 'https://auth.example.com/device',
    normalised: false,
    scheme: 'https',
    host: 'auth.example.com',
    hostUnicode: 'auth.example.com',
    registrableDomain: 'example.com',
    registrableDomainUnicode: 'example.com',
    port: null,
    path: '/device',
    highlight: { start: 13, end: 24 },
    warnings: [],
    level: null,
    headline: null,
  },
};
const resolved = (action: 'accept' | 'cancel'): TranscriptEvent => ({
  type: 'elicitation_resolved',
  cardKey: CARD,
  action,
});
const completed: TranscriptEvent = {
  type: 'url_elicitation_done',
  cardKey: CARD,
  how: 'completed',
};

/** The record's outcome line after these events. */
function outcome(events: TranscriptEvent[]): string {
  const row = applyEvents(emptyTranscript(), [asked, ...events]).rows[0] as UrlElicitationRow;
  const html = renderToStaticMarkup(createElement(UrlElicitationRowView, { row }));
  return /<p class="elicitation-outcome[^"]*">([^<]*)<\/p>/.exec(html)?.[1] ?? html;
}

describe('the record of a URL request the agent completed', () => {
  it('says the agent marked the step done, once the page was opened', () => {
    expect(outcome([resolved('accept'), completed])).toBe('The agent marked this step done');
  });

  it('says the agent marked it done before the user opened the page, when it did', () => {
    // The card closes, answered `cancel`, as the broker does for a completion before consent.
    expect(outcome([resolved('cancel'), completed])).toBe(
      'Closed: the agent marked this step done before you opened it',
    );
  });
});
