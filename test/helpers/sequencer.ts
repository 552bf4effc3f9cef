/**
 * The order files start in: vitest's own within each project (slowest first, from the last
 * run), with the e2e files spread evenly through the unit files. Only a few e2e files run at a
 * time (test/helpers/e2e-turn.ts); spread out, a worker that is free runs unit files rather than
 * waiting for an e2e file's turn.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class SpreadSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const e2e = sorted.filter((file) => file.project.name === 'e2e');
    const rest = sorted.filter((file) => file.project.name !== 'e2e');
    const step = rest.length / Math.max(e2e.length, 1);
    const spread: TestSpecification[] = [];
    let taken = 0;
    e2e.forEach((file, index) => {
      const upTo = Math.round(index * step);
      spread.push(...rest.slice(taken, upTo), file);
      taken = Math.max(taken, upTo);
    });
    return [...spread, ...rest.slice(taken)];
  }
}
