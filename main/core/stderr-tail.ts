/** Keeps the last lines an agent wrote to stderr, for error reports. */
export class StderrTail {
  private readonly kept: string[] = [];
  private partial = '';

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

  private keep(line: string): void {
    const trimmed = line.replace(/\r$/, '');
    if (!trimmed) {
      return;
    }
    this.kept.push(trimmed.slice(0, 500));
    if (this.kept.length > this.max) {
      this.kept.shift();
    }
  }
}
