/**
 * The CPU time the machine's processes have used, by what they are (the agents, the web host,
 * Chromium's renderers, the rest of Chromium), read from /proc: a bench takes it before and after
 * what it times, to show where a wait's CPU went.
 */
import { readdir, readFile } from 'node:fs/promises';

/** What a process is, from its command line; undefined for what a bench does not follow. */
export type ProcessKind = 'agents' | 'web host' | 'Chromium renderers' | 'rest of Chromium';

export const PROCESS_KINDS: readonly ProcessKind[] = [
  'agents',
  'web host',
  'Chromium renderers',
  'rest of Chromium',
];

function kindOf(commandLine: string): ProcessKind | undefined {
  if (commandLine.includes('demo-agent.js')) {
    return 'agents';
  }
  if (commandLine.includes('out/main/web.js')) {
    return 'web host';
  }
  if (commandLine.includes('--type=renderer')) {
    return 'Chromium renderers';
  }
  return /chrom/i.test(commandLine.split('\0', 1)[0]!) ? 'rest of Chromium' : undefined;
}

/** The milliseconds of CPU each kind of process has used so far; undefined without /proc. */
export async function cpuByKind(): Promise<Map<ProcessKind, number> | undefined> {
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const used = new Map<ProcessKind, number>();
  await Promise.all(
    pids.map(async (pid) => {
      try {
        const [stat, commandLine] = await Promise.all([
          readFile(`/proc/${pid}/stat`, 'utf8'),
          readFile(`/proc/${pid}/cmdline`, 'utf8'),
        ]);
        const kind = kindOf(commandLine);
        if (kind === undefined) {
          return;
        }
        // After the command's name in parentheses: utime and stime are the 12th and 13th fields.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(fields[11]) + Number(fields[12]);
        // Clock ticks of 10 ms, as Linux counts them for user space.
        used.set(kind, (used.get(kind) ?? 0) + ticks * 10);
      } catch {
        // A process that ended meanwhile.
      }
    }),
  );
  return used;
}

/** What each kind used between two readings (a process that ended meanwhile is not counted). */
export function cpuBetween(
  before: Map<ProcessKind, number> | undefined,
  after: Map<ProcessKind, number> | undefined,
): Map<ProcessKind, number> | undefined {
  if (!before || !after) {
    return undefined;
  }
  return new Map(
    PROCESS_KINDS.map((kind) => [kind, (after.get(kind) ?? 0) - (before.get(kind) ?? 0)]),
  );
}
