/**
 * An agent write with a copy kept to undo it: what was at the path goes into the session's
 * store (see store.ts) after the path is checked and before anything is replaced.
 */
import { platformWalk, type Walk } from '../files/beneath.js';
import { writeTextFile, type Previous, type WriteOutcome } from '../files/write.js';
import type { KeepOutcome, WriteStore } from './store.js';

/** One write: where (real paths), what, as the agent named it, in which turn. */
export type AgentWrite = {
  real: string;
  root: string;
  content: string;
  shown: string;
  turn: number | null;
};

/**
 * Writes as `writeTextFile` does, keeping a copy in `store` first. Throws what the write throws;
 * a copy that could not be kept is said in `kept` and does not stop the write.
 */
export async function writeKept(
  store: WriteStore,
  write: AgentWrite,
  walk: Walk = platformWalk,
): Promise<WriteOutcome & { kept: KeepOutcome }> {
  let kept: KeepOutcome = {
    kept: undefined,
    reason: 'the write did not happen',
    dropped: [],
    restarted: false,
  };
  const keep = async (previous: Previous) => {
    kept =
      previous.kind === 'unreadable'
        ? { kept: undefined, reason: unreadable(previous.reason), dropped: [], restarted: false }
        : await store.keep({
            real: write.real,
            root: write.root,
            shown: write.shown,
            turn: write.turn ?? null,
            before: previous,
            after: write.content,
          });
  };
  try {
    const outcome = await writeTextFile(
      write.real,
      write.root,
      write.content,
      write.shown,
      walk,
      keep,
    );
    return { ...outcome, kept };
  } catch (error) {
    // Kept, then not written: the record would undo a write that never happened.
    const { kept: record } = kept as KeepOutcome;
    if (record) {
      await store.markUndone(record.id).catch(() => undefined);
    }
    throw error;
  }
}

function unreadable(reason: string): string {
  return `the file it replaced could not be copied (${reason.replace(/^Invalid params: /, '')})`;
}
