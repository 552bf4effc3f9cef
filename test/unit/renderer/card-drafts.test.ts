/**
 * What the user entered on an open elicitation card, kept outside React by card key: it
 * outlives the card's component, and goes for good when the card ends.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  endDraft,
  escapeAsks,
  loadDraft,
  saveDraft,
  type CardDraft,
} from '../../../renderer/src/state/card-drafts.js';

// The drafts live in the module for the page's life: each test uses card keys of its own.
const draft = (name: string): CardDraft => ({ values: { name }, touched: [], submitted: false });

describe('card drafts', () => {
  it('creates a fresh draft once, and keeps it for the next load', () => {
    const fresh = vi.fn(() => draft('Ada'));
    const first = loadDraft('keep-1', fresh);
    expect(first).toEqual(draft('Ada'));
    expect(loadDraft('keep-1', fresh)).toBe(first);
    expect(fresh).toHaveBeenCalledTimes(1);
  });

  it('gives back what was saved, by card', () => {
    saveDraft('save-1', { ...draft('Grace'), touched: ['name'], submitted: true });
    saveDraft('save-2', draft('Linus'));
    expect(loadDraft('save-1', () => draft('fresh'))).toEqual({
      ...draft('Grace'),
      touched: ['name'],
      submitted: true,
    });
    expect(loadDraft('save-2', () => draft('fresh'))).toEqual(draft('Linus'));
  });

  it('forgets an ended card’s draft, and keeps nothing for it afterwards', () => {
    saveDraft('end-1', draft('Ada'));
    endDraft('end-1');
    // A component still mounted as the card ends gets a fresh draft, which is not kept.
    expect(loadDraft('end-1', () => draft('fresh'))).toEqual(draft('fresh'));
    saveDraft('end-1', draft('late'));
    expect(loadDraft('end-1', () => draft('again'))).toEqual(draft('again'));
  });

  it('keeps no fresh draft for a card that ended before it was ever loaded', () => {
    endDraft('end-2');
    const fresh = vi.fn(() => draft('fresh'));
    loadDraft('end-2', fresh);
    loadDraft('end-2', fresh);
    expect(fresh).toHaveBeenCalledTimes(2);
  });

  describe('Esc asks "Discard your answers?"', () => {
    const start = (): CardDraft => ({
      values: { name: 'Ada', region: 'eu' },
      touched: [],
      submitted: false,
    });
    const with_ = (values: CardDraft['values']): CardDraft => ({ ...start(), values });

    it('not on an untouched card: Esc cancels it at once', () => {
      loadDraft('esc-1', start);
      expect(escapeAsks('esc-1', false)).toBe(false);
      // Only looked at (touched), nothing changed.
      saveDraft('esc-1', { ...start(), touched: ['name'] });
      expect(escapeAsks('esc-1', false)).toBe(false);
    });

    it('on a card whose fields the user changed, once: the second Esc discards', () => {
      loadDraft('esc-2', start);
      saveDraft('esc-2', with_({ name: 'Ada Lovelace', region: 'eu' }));
      expect(escapeAsks('esc-2', false)).toBe(true);
      expect(escapeAsks('esc-2', true)).toBe(false);
    });

    it('on a field filled that started empty, or a default cleared', () => {
      loadDraft('esc-3', start);
      saveDraft('esc-3', with_({ name: 'Ada', region: 'eu', note: 'x' }));
      expect(escapeAsks('esc-3', false)).toBe(true);
      saveDraft('esc-3', with_({ name: 'Ada', region: '' }));
      expect(escapeAsks('esc-3', false)).toBe(true);
    });

    it('not once typing is erased back to how the card started', () => {
      loadDraft('esc-4', start);
      saveDraft('esc-4', with_({ name: 'Ada', region: 'eu', note: 'typed' }));
      saveDraft('esc-4', with_({ name: 'Ada', region: 'eu', note: '' }));
      expect(escapeAsks('esc-4', false)).toBe(false);
      saveDraft('esc-4', with_({ name: 'Ad', region: 'eu' }));
      saveDraft('esc-4', with_({ name: 'Ada', region: 'eu' }));
      expect(escapeAsks('esc-4', false)).toBe(false);
    });

    it('not on a card that has ended', () => {
      loadDraft('esc-5', start);
      saveDraft('esc-5', with_({ name: 'Grace', region: 'eu' }));
      endDraft('esc-5');
      expect(escapeAsks('esc-5', false)).toBe(false);
    });
  });
});
