/**
 * A session tab's stored transcript: what a UI that opens the tab is handed, kept small while
 * the UI still gets every event as it comes.
 *
 * Streamed text of one role is merged into chunks of at most {@link MAX_CHUNK_CHARS}, and a
 * terminal's output is kept once, as it is now (each one holds all it shows).
 *
 * The chunk still growing at the end is kept as its pieces, and joined when it is done or handed
 * out. Joined at once, a few hundred pieces make one flat string; added one to the next, they
 * would stay alive, linked, until the chunk is read, and a long reply's every piece would be
 * copied through the young generation's collections on its way to the old one.
 */
import type { TranscriptEvent } from '../../preload/shared/contract.js';
import { MAX_CHUNK_CHARS } from './updates.js';

type Chunk = Extract<TranscriptEvent, { type: 'chunk' }>;

/** A session's transcript, with consecutive text chunks merged. */
export class Transcript {
  /** Every event kept, but the chunk still growing. */
  private readonly kept: TranscriptEvent[] = [];
  /** Where each terminal's output is in `kept`: a newer one takes its place. */
  private readonly terminalOutputs = new Map<string, number>();
  /** The text chunk at the end while more text of its role may join it. */
  private growing: { role: Chunk['role']; pieces: string[]; length: number } | undefined;

  /** Keeps `event`: merged into the chunk before it, in the place of a terminal's output, or last. */
  add(event: TranscriptEvent): void {
    if (event.type === 'chunk') {
      this.addText(event);
      return;
    }
    const shown =
      event.type === 'terminal_output' ? this.terminalOutputs.get(event.terminalId) : undefined;
    if (shown !== undefined) {
      // In an earlier place: the text growing at the end goes on after it.
      this.kept[shown] = event;
      return;
    }
    this.endGrowing();
    if (event.type === 'terminal_output') {
      this.terminalOutputs.set(event.terminalId, this.kept.length);
    }
    this.kept.push(event);
  }

  /** The whole transcript, as it is now: later text does not change what it holds. */
  events(): TranscriptEvent[] {
    const events = [...this.kept];
    if (this.growing) {
      events.push({ type: 'chunk', role: this.growing.role, text: this.growingText() });
    }
    return events;
  }

  private addText(event: Chunk): void {
    const growing = this.growing;
    if (growing?.role === event.role && growing.length + event.text.length <= MAX_CHUNK_CHARS) {
      growing.pieces.push(event.text);
      growing.length += event.text.length;
      return;
    }
    this.endGrowing();
    this.growing = { role: event.role, pieces: [event.text], length: event.text.length };
  }

  /** The growing chunk's text, its pieces joined into one (which later pieces follow). */
  private growingText(): string {
    const pieces = this.growing?.pieces ?? [];
    const text = pieces.length === 1 ? pieces[0]! : pieces.join('');
    pieces.length = 0;
    pieces.push(text);
    return text;
  }

  /** Keeps the growing chunk, if there is one, as it is: nothing more joins it. */
  private endGrowing(): void {
    if (this.growing) {
      this.kept.push({ type: 'chunk', role: this.growing.role, text: this.growingText() });
      this.growing = undefined;
    }
  }
}
