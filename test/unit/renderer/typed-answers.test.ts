/**
 * What the user had typed on a question that ended without their answer: the draft store keeps
 * it past the card's end (and past its component's unmount and remount, as a tab is left and
 * shown again), for the last KEPT_ENDED ended cards, and the transcript row shows it by field,
 * secrets only named, with Copy.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormModel } from '../../../preload/shared/form-model.js';
import type { ElicitationRow } from '../../../renderer/src/components/elicitation-card.js';
import { ElicitationRowView } from '../../../renderer/src/components/elicitation-row.js';
import {
  endDraft,
  KEPT_ENDED,
  loadDraft,
  saveDraft,
  typedAnswers,
  type CardDraft,
} from '../../../renderer/src/state/card-drafts.js';

const model = FormModel.parse({
  title: 'Deploy',
  fields: [
    { name: 'name', title: 'Name', required: true, kind: 'string' },
    {
      name: 'token',
      title: 'Token',
      required: false,
      kind: 'string',
      presentation: { secret: true },
    },
    { name: 'region', title: 'Region', required: false, kind: 'string', default: 'eu' },
    { name: 'notify', title: 'Notify me', required: false, kind: 'boolean', default: false },
  ],
});
const fresh = (): CardDraft => ({
  values: { region: 'eu', notify: false },
  touched: [],
  submitted: false,
});
/** Opens card `key` as its component does, and types `values` into it. */
function typeInto(key: string, values: Record<string, unknown>): void {
  const draft = loadDraft(key, fresh);
  saveDraft(key, {
    ...draft,
    values: { ...draft.values, ...values },
    touched: Object.keys(values),
  });
}

/** The transcript row of card `key`, ended by the agent's withdrawal, as HTML. */
function withdrawnRow(key: string): string {
  const row: ElicitationRow = {
    kind: 'elicitation',
    id: 1,
    cardKey: key,
    agent: { configName: 'demo', title: 'Demo', protocolVersion: 1, commandLine: 'demo' },
    scope: 'session',
    message: 'Where to?',
    form: model,
    resolved: { action: 'cancel', ended: 'withdrawn' },
  };
  return renderToStaticMarkup(createElement(ElicitationRowView, { row }));
}

// The drafts live in the module for the page's life: each test uses card keys of its own.
describe('what the user had typed on a card', () => {
  it('is what they changed from the card’s first values, kept past the card’s end', () => {
    typeInto('typed-1', { name: 'Ada', notify: true });
    expect(typedAnswers('typed-1')).toEqual({ name: 'Ada', notify: true });
    endDraft('typed-1');
    expect(typedAnswers('typed-1')).toEqual({ name: 'Ada', notify: true });
    // Ending again (the dock sees the ended card on every change) changes nothing.
    endDraft('typed-1');
    expect(typedAnswers('typed-1')).toEqual({ name: 'Ada', notify: true });
  });

  it('survives the card’s component unmounting and mounting again, open or ended', () => {
    typeInto('typed-2', { name: 'Grace' });
    // The tab is left and shown again: the component loads its draft anew.
    expect(loadDraft('typed-2', fresh).values).toEqual({
      region: 'eu',
      notify: false,
      name: 'Grace',
    });
    endDraft('typed-2');
    // A component still mounted as the card ends gets a fresh draft, which keeps nothing...
    const late = loadDraft('typed-2', fresh);
    saveDraft('typed-2', { ...late, values: { name: 'late' } });
    // ...and what the user had typed is still what the row shows.
    expect(typedAnswers('typed-2')).toEqual({ name: 'Grace' });
    expect(withdrawnRow('typed-2')).toContain('Grace');
  });

  it('is nothing when the user typed nothing, or typed and erased it', () => {
    loadDraft('typed-3', fresh);
    endDraft('typed-3');
    expect(typedAnswers('typed-3')).toBeUndefined();
    typeInto('typed-4', { name: '' });
    expect(typedAnswers('typed-4')).toBeUndefined();
    // Clearing a value the card started with is a change.
    typeInto('typed-5', { region: '' });
    expect(typedAnswers('typed-5')).toEqual({ region: '' });
  });

  it('is kept for the last KEPT_ENDED ended cards only', () => {
    const keys = Array.from({ length: KEPT_ENDED + 1 }, (_, i) => `bound-${i}`);
    for (const key of keys) {
      typeInto(key, { name: key });
      endDraft(key);
    }
    expect(typedAnswers(keys[0]!)).toBeUndefined();
    expect(typedAnswers(keys[1]!)).toEqual({ name: keys[1] });
    expect(typedAnswers(keys.at(-1)!)).toEqual({ name: keys.at(-1) });
  });
});

describe('the row of a card withdrawn after the user typed', () => {
  it('shows each typed field by its title, a secret only named, with Copy', () => {
    typeInto('row-1', { name: 'Ada', token: 's3cr3t-value', region: 'us' });
    endDraft('row-1');
    const html = withdrawnRow('row-1');
    expect(html).toContain('Withdrawn by the agent. You had typed:');
    const lines = [...html.matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map(
      ([, label, text]) => `${label}: ${text}`,
    );
    expect(lines).toEqual(['Name: Ada', 'Token: a secret answer', 'Region: us']);
    expect(html).not.toContain('s3cr3t');
    expect(html).toContain('Copy<span class="visually-hidden"> what you had typed</span>');
  });

  it('says only how it ended when nothing was typed', () => {
    loadDraft('row-2', fresh);
    endDraft('row-2');
    const html = withdrawnRow('row-2');
    expect(html).toContain(
      '<p class="elicitation-outcome outcome-ended">Withdrawn by the agent</p>',
    );
    expect(html).not.toContain('You had typed');
  });
});
