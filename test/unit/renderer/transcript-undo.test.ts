/**
 * The undo of agent writes in the transcript state: which turns still have writes to undo, the
 * end row of such a turn saying so, and the words an undo says.
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent, UndoView } from '../../../preload/shared/contract.js';
import {
  applyEvents,
  emptyTranscript,
  type Row,
  type Transcript,
} from '../../../renderer/src/state/transcript.js';
import {
  changedTitle,
  pathName,
  turnUndoSentence,
  versionText,
} from '../../../renderer/src/state/undo-words.js';

/** Airlock's row of a write of `path` in `turn`, as the core sends it. */
const write = (id: string, turn: number | null, path = `/w/${id}.txt`): TranscriptEvent => ({
  type: 'tool_call',
  toolCallId: `airlock-write-${id}`,
  fields: {
    title: `Airlock wrote ${path}`,
    kind: 'edit',
    status: 'completed',
    undo: { state: 'available', writeId: id, turn },
  },
});
const undoUpdate = (id: string, undo: UndoView): TranscriptEvent => ({
  type: 'tool_call_update',
  toolCallId: `airlock-write-${id}`,
  fields: { undo },
});
const turnEnd: TranscriptEvent = { type: 'turn_end', stopReason: 'end_turn' };
const prompt: TranscriptEvent = { type: 'prompt', text: 'write' };
const turnEnds = (t: Transcript) =>
  t.rows.filter((row): row is Extract<Row, { kind: 'turn_end' }> => row.kind === 'turn_end');

describe('turns with writes to undo', () => {
  it('gives the end of a turn with kept writes its turn id, and no other turn end', () => {
    const t = applyEvents(emptyTranscript(), [
      prompt,
      write('w1', 100),
      write('w2', 100),
      turnEnd,
      prompt,
      turnEnd,
    ]);
    expect(turnEnds(t).map((row) => row.undoTurn)).toEqual([100, undefined]);
    expect([...(t.undoable.get(100) ?? [])]).toEqual(['w1', 'w2']);
  });

  it('keeps the turn undoable until its last write is undone, then drops it as a new row', () => {
    const t1 = applyEvents(emptyTranscript(), [prompt, write('w1', 7), write('w2', 7), turnEnd]);
    const endBefore = turnEnds(t1)[0];
    const t2 = applyEvents(t1, [undoUpdate('w1', { state: 'undone', writeId: 'w1' })]);
    expect(turnEnds(t2)[0]).toBe(endBefore);
    expect([...(t2.undoable.get(7) ?? [])]).toEqual(['w2']);
    // What the first transcript held is left as it was.
    expect([...(t1.undoable.get(7) ?? [])]).toEqual(['w1', 'w2']);

    const t3 = applyEvents(t2, [undoUpdate('w2', { state: 'undone', writeId: 'w2' })]);
    expect(turnEnds(t3)[0]).not.toBe(endBefore);
    expect(turnEnds(t3)[0]).toEqual({ ...endBefore, undoTurn: undefined });
    expect('undoTurn' in turnEnds(t3)[0]!).toBe(false);
    expect(t3.undoable.has(7)).toBe(false);
    expect(turnEnds(t2)[0]?.undoTurn).toBe(7);
    // The write rows say so too, keeping their other fields.
    expect(t3.rows[1]).toMatchObject({
      kind: 'tool',
      fields: { title: 'Airlock wrote /w/w1.txt', undo: { state: 'undone', writeId: 'w1' } },
    });
  });

  it('gives no turn end a write that could not be kept, or one outside any turn', () => {
    const t = applyEvents(emptyTranscript(), [
      prompt,
      {
        type: 'tool_call',
        toolCallId: 'airlock-write-x',
        fields: { title: 'Airlock wrote x', undo: { state: 'unavailable', reason: 'Too big.' } },
      },
      write('w9', null),
      turnEnd,
    ]);
    expect(turnEnds(t)[0]?.undoTurn).toBeUndefined();
    expect(t.undoable.size).toBe(0);
  });

  it("ties each turn's writes to its own end, even after a turn that failed", () => {
    const t = applyEvents(emptyTranscript(), [
      prompt,
      write('w1', 1),
      { type: 'turn_error', message: 'The agent failed.' },
      prompt,
      turnEnd,
      prompt,
      write('w2', 3),
      turnEnd,
    ]);
    expect(turnEnds(t).map((row) => row.undoTurn)).toEqual([undefined, 3]);
    expect(t.turnEnds.get(3)).toBe(t.rows.length - 1);
    expect(t.turnEnds.has(1)).toBe(false);
  });

  it('drops a turn whose write the store dropped, and takes it back for a late write', () => {
    const t = applyEvents(emptyTranscript(), [
      prompt,
      write('w1', 4),
      turnEnd,
      undoUpdate('w1', { state: 'unavailable', reason: 'No longer kept.' }),
    ]);
    expect(turnEnds(t)[0]?.undoTurn).toBeUndefined();
    expect(t.undoable.size).toBe(0);
    const late = applyEvents(t, [write('w2', 4), prompt, turnEnd]);
    // The late write belongs to the turn that ended, not to the next one.
    expect(turnEnds(late).map((row) => row.undoTurn)).toEqual([4, undefined]);
    expect([...late.turnEnds.keys()]).toEqual([4]);
  });

  it('leaves the turns alone on updates that do not touch a write', () => {
    const t1 = applyEvents(emptyTranscript(), [prompt, write('w1', 2), turnEnd]);
    const t2 = applyEvents(t1, [
      { type: 'tool_call_update', toolCallId: 'airlock-write-w1', fields: { status: 'completed' } },
    ]);
    expect(t2.undoable).toBe(t1.undoable);
    expect(t2.rows.at(-1)).toBe(t1.rows.at(-1));
    // Nor does a write's undo said again as it was.
    const t3 = applyEvents(t2, [
      undoUpdate('w1', { state: 'available', writeId: 'w1', turn: 2 }),
      prompt,
      turnEnd,
    ]);
    expect(t3.undoable).toBe(t1.undoable);
    expect(t3.turnEnds).toBe(t1.turnEnds);
  });
});

describe('the words of an undo', () => {
  it('names a file by the last part of its path, and reads each version as text or why not', () => {
    expect([
      pathName('/home/me/notes.txt'),
      pathName('C:\\work\\notes.txt'),
      pathName('/w/folder/'),
      changedTitle('/w/notes.txt'),
    ]).toEqual(['notes.txt', 'notes.txt', 'folder', 'notes.txt changed since the agent wrote it']);
    expect(
      [
        { kind: 'text', text: 'hello world' } as const,
        { kind: 'missing' } as const,
        { kind: 'binary', bytes: 12 } as const,
        { kind: 'binary', bytes: 1 } as const,
      ].map(versionText),
    ).toEqual([
      { text: 'hello world', plain: true },
      { text: 'No file', plain: false },
      { text: 'Not text (12 bytes)', plain: false },
      { text: 'Not text (1 byte)', plain: false },
    ]);
  });

  it('says what undoing a turn did', () => {
    expect(turnUndoSentence({ undone: 2, changed: ['/w/notes.txt'], refused: [] })).toBe(
      '2 files restored. notes.txt changed since, so it was left as it is.',
    );
    expect(turnUndoSentence({ undone: 1, changed: [], refused: [] })).toBe('1 file restored.');
    expect(
      turnUndoSentence({ undone: 0, changed: ['/a/x.md', '/a/y.md', '/b/z.md'], refused: [] }),
    ).toBe('x.md, y.md and z.md changed since, so they were left as they are.');
    expect(
      turnUndoSentence({ undone: 0, changed: [], refused: ['The write was not undone: gone.'] }),
    ).toBe('The write was not undone: gone.');
    expect(turnUndoSentence({ undone: 0, changed: [], refused: [] })).toBe(
      'There was nothing left to undo in this turn.',
    );
  });
});
