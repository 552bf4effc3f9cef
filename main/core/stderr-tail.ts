/** Keeps the last lines an agent wrote to stderr, for error reports. */
export class StderrTail {
  private readonly kept: string[] = [];
  private partial = '';
  /** How many lines were ever kept, so callers can ask what came after a point. */
  private total = 0;

  constructor(private readonly max: number) {}

  /** Adds a chunk of output; lines are split on LF and trimmed to 500 characters. */
  push(chunk: Buffer | string): void {
    const parts = (this.partial + chunk.toString()).split('\n');
    this.partial = (parts.pop() ?? '').slice(-2000);
    for (const line of parts) {
      this.keep(line);
    }
  }

  /** The kept lines, oldest first, including an unterminated last line. */
  lines(): string[] {
    return this.partial ? [...this.kept, this.partial.slice(0, 500)] : [...this.kept];
  }

  /** A point in the output, for {@link StderrTail.since}. */
  mark(): StderrMark {
    return { total: this.total, partial: this.partial };
  }

  /** The kept lines written after `mark` (a line still being written counts once it changed). */
  since(mark: StderrMark): string[] {
    const added = Math.min(this.total - mark.total, this.kept.length);
    const lines = added > 0 ? this.kept.slice(-added) : [];
    return this.partial && this.partial !== mark.partial
      ? [...lines, this.partial.slice(0, 500)]
      : lines;
  }

  private keep(line: string): void {
    const trimmed = line.replace(/\r$/, '');
    if (!trimmed) {
      return;
    }
    this.kept.push(trimmed.slice(0, 500));
    this.total += 1;
    if (this.kept.length > this.max) {
      this.kept.shift();
    }
  }
}

/** A point in an agent's stderr; see {@link StderrTail.mark}. */
export type StderrMark = { total: number; partial: string };
