/**
 * Waits for the machine to be quiet before a run that times a start: a person starts Airlock
 * on a machine at rest, not while the last run's browser context and host are still being
 * torn down. On two cores, that teardown alone moved a cold start's figures by 100 ms.
 */
import { readFile } from 'node:fs/promises';
import { setTimeout as pause } from 'node:timers/promises';

/** The share of a window that every core together must be idle for the machine to be quiet. */
const QUIET_IDLE = 0.9;
/** One window of measure. */
const WINDOW_MS = 100;
/** The longest wait: a machine busy with something else is measured busy, and said to be. */
const LIMIT_MS = 5_000;

/** The machine's CPU time so far, all cores: idle and in all. Undefined without /proc/stat. */
async function cpuTimes(): Promise<{ idle: number; total: number } | undefined> {
  let stat: string;
  try {
    stat = await readFile('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  // "cpu  user nice system idle iowait irq softirq steal ...", in clock ticks.
  const ticks = stat.split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { idle: ticks[3]! + ticks[4]!, total: ticks.reduce((sum, tick) => sum + tick, 0) };
}

/**
 * Resolves once a window of {@link WINDOW_MS} was at least {@link QUIET_IDLE} idle, or after
 * {@link LIMIT_MS}; tells which. Where /proc/stat cannot be read, at once with `true`.
 */
export async function quiet(): Promise<boolean> {
  const start = performance.now();
  let before = await cpuTimes();
  while (before && performance.now() - start < LIMIT_MS) {
    await pause(WINDOW_MS);
    const after = await cpuTimes();
    if (!after) {
      break;
    }
    const total = after.total - before.total;
    if (total > 0 && (after.idle - before.idle) / total >= QUIET_IDLE) {
      return true;
    }
    before = after;
  }
  return before === undefined;
}
