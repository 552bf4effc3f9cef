/** Process checks shared by the tests that start and stop agents. */
import { readFileSync } from 'node:fs';

/** Whether a process runs; a zombie (ended, not yet reaped by its parent) does not. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') {
    return true;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}
