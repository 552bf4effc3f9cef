/**
 * A terminal's output as the agent reads it: the last bytes the command wrote, within a limit.
 *
 * ACP's `outputByteLimit` keeps the end of the output and drops from the start; the client MUST
 * cut at a character boundary so the kept bytes stay valid text, even if that keeps a little
 * less than the limit. Output is UTF-8 (what the agent gets is a JSON string).
 */

/** The most output Airlock keeps of one terminal, whatever the agent asks for. */
export const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/** Whether `byte` continues a UTF-8 character rather than starting one (`10xxxxxx`). */
function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/**
 * The longest end of `bytes` that fits in `limit` bytes and starts on a character boundary.
 *
 * A UTF-8 character is at most 4 bytes, so at most 3 continuation bytes are skipped; bytes that
 * are not UTF-8 at all (a binary's output) are then cut where they fall, never dropped whole.
 */
export function keepTail(bytes: Uint8Array, limit: number): Uint8Array {
  const max = Math.max(0, Math.floor(limit));
  if (bytes.length <= max) {
    return bytes;
  }
  return bytes.subarray(characterStart(bytes, bytes.length - max));
}

/** The first index at or after `from` where a character starts (at most 3 bytes on). */
function characterStart(bytes: Uint8Array, from: number): number {
  let start = from;
  while (start < bytes.length && start - from < 3 && isContinuation(bytes[start]!)) {
    start += 1;
  }
  return start;
}

/**
 * How many bytes at the end of `bytes` are the start of a character not finished yet: a
 * running command's last chunk can end in the middle of one, which must wait for the rest.
 */
export function unfinishedTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if (isContinuation(byte)) {
      continue;
    }
    // The lead byte says how long its character is: 110xxxxx 2, 1110xxxx 3, 11110xxx 4.
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/** The output of one terminal, kept within its limit. */
export class TerminalOutput {
  private bytes: Uint8Array = new Uint8Array(0);
  private cut = false;
  private readonly limit: number;

  /** `limit` is the agent's `outputByteLimit`; none (or more than Airlock keeps) means its own. */
  constructor(limit?: number | null) {
    this.limit = Math.min(limit ?? MAX_OUTPUT_BYTES, MAX_OUTPUT_BYTES);
  }

  /** Adds what the command wrote, dropping from the start what no longer fits. */
  append(chunk: Uint8Array): void {
    const joined = new Uint8Array(this.bytes.length + chunk.length);
    joined.set(this.bytes);
    joined.set(chunk, this.bytes.length);
    let kept = keepTail(joined, this.limit);
    if (kept.length < joined.length) {
      this.cut = true;
    }
    if (this.cut) {
      // A cut that emptied the buffer in the middle of a character leaves the rest of that
      // character to arrive in the next chunk: it is dropped too, not kept as broken text.
      kept = kept.subarray(characterStart(kept, 0));
    }
    // A copy, so the dropped start is freed rather than held by a view of it.
    this.bytes = kept === joined ? joined : kept.slice();
  }

  /** Whether anything was dropped to stay within the limit. */
  get truncated(): boolean {
    return this.cut;
  }

  /**
   * The output as text. While the command runs, a character it has only half written is left
   * out until the rest comes; once it has ended (`ended`), everything is decoded.
   */
  text(ended: boolean): string {
    const end = ended ? this.bytes.length : this.bytes.length - unfinishedTail(this.bytes);
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, end).toString('utf8');
  }
}
