/**
 * Permission requests beside elicitations in the session's dock: which cards wait and in what
 * order, and what the transcript's record of a permission says about how it ended.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PermissionOptionView, TranscriptEvent } from '../../../preload/shared/contract.js';
import { dockCards, dockKey } from '../../../renderer/src/components/elicitation-dock.js';
import type { PermissionRow } from '../../../renderer/src/components/permission-card.js';
import {
  permissionOutcome,
  PermissionRowView,
} from '../../../renderer/src/components/permission-row.js';
import { applyEvents, emptyTranscript } from '../../../renderer/src/state/transcript.js';

const OPTIONS: PermissionOptionView[] = [
  { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
  { optionId: 'never', name: 'Never', kind: 'reject_always' },
];

const permission = (promptKey: string): TranscriptEvent => ({
  type: 'permission',
  promptKey,
  agent: { configName: 'Demo', protocolVersion: 1, commandLine: 'demo' },
  toolCallId: `call-${promptKey}`,
  title: `Edit ${promptKey}.md`,
  options: OPTIONS,
  tool: { title: `Edit ${promptKey}.md`, kind: 'edit' },
});

const form = (cardKey: string): TranscriptEvent => ({
  type: 'elicitation',
  cardKey,
  agent: { configName: 'Demo', protocolVersion: 1, commandLine: 'demo' },
  scope: 'session',
  message: 'Which?',
  mode: 'form',
  form: { fields: [], required: [] } as never,
});

describe('dockCards', () => {
  it('lists permissions and questions together, oldest first, the ended apart', () => {
    const t = applyEvents(emptyTranscript(), [
      permission('p1'),
      form('e1'),
      { type: 'prompt', text: 'meanwhile' },
      permission('p2'),
      form('e2'),
      { type: 'permission_resolved', promptKey: 'p1', outcome: { outcome: 'cancelled' } },
      { type: 'elicitation_resolved', cardKey: 'e2', action: 'decline' },
    ]);
    const { open, ended } = dockCards(t);
    expect(open.map(dockKey)).toEqual(['e1', 'p2']);
    expect(ended.map(dockKey)).toEqual(['p1', 'e2']);
  });

  it('shows nothing for a session with no transcript yet', () => {
    expect(dockCards(undefined)).toEqual({ open: [], ended: [] });
  });
});

/** The permission row after `events`. */
function recordAfter(...events: TranscriptEvent[]): PermissionRow {
  return applyEvents(emptyTranscript(), [permission('p1'), ...events]).rows[0] as PermissionRow;
}
const chose = (optionId: string): TranscriptEvent => ({
  type: 'permission_resolved',
  promptKey: 'p1',
  outcome: { outcome: 'selected', optionId },
});

describe('the transcript record of a permission request', () => {
  it.each([
    ['once', 'Allowed once: you chose “Allow once”', 'allowed'],
    ['always', 'Always allowed: you chose “Always allow”', 'allowed'],
    ['no', 'Rejected: you chose “Reject”', 'rejected'],
    ['never', 'Always rejected: you chose “Never”', 'rejected'],
  ])('says the user answered %s', (optionId, text, tone) => {
    expect(permissionOutcome(recordAfter(chose(optionId)))).toEqual({ text, tone });
  });

  it.each([
    ['turn_cancelled', 'Cancelled: the turn was cancelled'],
    ['withdrawn', 'Cancelled: the agent withdrew the request'],
    ['tab_closed', 'Cancelled: the tab was closed'],
    ['agent_exited', 'Cancelled: the agent exited'],
  ] as const)('says who ended it without an answer: %s', (ended, text) => {
    const row = recordAfter({
      type: 'permission_resolved',
      promptKey: 'p1',
      outcome: { outcome: 'cancelled' },
      ended,
    });
    expect(permissionOutcome(row)).toEqual({ text, tone: 'ended' });
  });

  it('waits, saying only that, with the way to the card, until it ends', () => {
    const html = renderToStaticMarkup(createElement(PermissionRowView, { row: recordAfter() }));
    expect(html).toContain('aria-label="Permission asked: Edit p1.md"');
    expect(html).not.toContain('asked to edit: ');
    expect(html).toContain('A permission request is waiting for your answer');
    expect(html).toContain('Go to the request');
  });

  it('names the agent that asked, once answered', () => {
    const html = renderToStaticMarkup(
      createElement(PermissionRowView, { row: recordAfter(chose('once')) }),
    );
    expect(html).toContain('Demo asked to edit: ');
    expect(html).not.toContain('The agent asked');
  });
});
