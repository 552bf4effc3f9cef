/**
 * The contract builds each call's and event's schemas the first time they are read
 * (preload/shared/lazy-schema.ts). Whatever the order channels are first used in, each checks
 * the same: a channel first used after all the others were built and used still keeps its
 * exemplars (contract-exemplars.ts) and refuses what breaks them, exactly as one used first.
 */
import { describe, expect, it, vi } from 'vitest';
import type * as contractModule from '../../../preload/shared/contract.js';
import { callExemplars, eventExemplars } from './contract-exemplars.js';

type Contract = typeof contractModule;
type Check = { safeParse(payload: unknown): { success: boolean } };

/** The contract as a page or process that just started it has it: nothing built yet. */
async function freshContract(): Promise<Contract> {
  vi.resetModules();
  return import('../../../preload/shared/contract.js');
}

/** Every check of the contract, by name (`<call> request`, `<call> response`, `<event>`). */
function checksOf(contract: Contract): [string, () => Check][] {
  return [
    ...Object.keys(contract.calls).flatMap((channel): [string, () => Check][] => {
      const call = channel as keyof Contract['calls'];
      return [
        [`${channel} request`, () => contract.calls[call].request],
        [`${channel} response`, () => contract.calls[call].response],
      ];
    }),
    ...Object.keys(contract.events).map((channel): [string, () => Check] => [
      channel,
      () => contract.events[channel as keyof Contract['events']],
    ]),
  ];
}

/** What each check is given: payloads that keep the contract, then ones that break it. */
function payloadsOf(name: string): { valid: unknown[]; broken: unknown[] } {
  const [channel = '', part] = name.split(' ');
  const calls = callExemplars as Record<string, { requests: unknown[]; responses: unknown[] }>;
  const events = eventExemplars as Record<string, unknown[]>;
  const valid =
    part === 'request'
      ? calls[channel]!.requests
      : part === 'response'
        ? calls[channel]!.responses
        : events[channel]!;
  const broken: unknown[] = [undefined, null, 'text', 42, [valid[0]]];
  for (const payload of valid) {
    if (payload === null || typeof payload !== 'object') {
      continue;
    }
    const fields = payload as Record<string, unknown>;
    broken.push({ ...fields, ['unknown key']: true });
    for (const field of Object.keys(fields)) {
      const { [field]: _left, ...without } = fields;
      broken.push(without, { ...fields, [field]: { wrong: 'shape' } });
    }
  }
  return { valid, broken };
}

/** Uses every check in `order`, each first used in turn: what it said of each payload. */
function verdicts(contract: Contract, order: 'first to last' | 'last to first') {
  const checks = checksOf(contract);
  if (order === 'last to first') {
    checks.reverse();
  }
  const said = new Map<string, boolean[]>();
  for (const [name, check] of checks) {
    const { valid, broken } = payloadsOf(name);
    said.set(
      name,
      [...valid, ...broken].map((payload) => check().safeParse(payload).success),
    );
  }
  return said;
}

describe('the contract, built on first use', () => {
  it('checks each channel first used last exactly as when it is first used first', async () => {
    const forwards = verdicts(await freshContract(), 'first to last');
    const backwards = verdicts(await freshContract(), 'last to first');
    expect(forwards.size).toBeGreaterThan(50);
    for (const [name, said] of forwards) {
      expect(backwards.get(name), name).toEqual(said);
    }
  });

  it('keeps every exemplar and refuses what is not even an object, whatever was used first', async () => {
    for (const order of ['first to last', 'last to first'] as const) {
      const said = verdicts(await freshContract(), order);
      for (const [name, results] of said) {
        const { valid } = payloadsOf(name);
        expect(results.slice(0, valid.length), `${name} (${order})`).toEqual(valid.map(() => true));
        // undefined, null, a string, a number and a list: no channel takes any of them.
        expect(results.slice(valid.length, valid.length + 5), `${name} (${order})`).toEqual([
          false,
          false,
          false,
          false,
          false,
        ]);
      }
    }
  });

  it('refuses a bad payload on a channel used last, after every other', async () => {
    const contract = await freshContract();
    for (const [name, check] of checksOf(contract)) {
      if (!name.startsWith('session:prompt ')) {
        check().safeParse(payloadsOf(name).valid[0]);
      }
    }
    const prompt = contract.calls['session:prompt'].request;
    const [good] = payloadsOf('session:prompt request').valid;
    expect(prompt.safeParse(good).success).toBe(true);
    expect(prompt.safeParse({ ...(good as object), key: 'not a key' }).success).toBe(false);
    expect(prompt.safeParse({ ...(good as object), extra: 1 }).success).toBe(false);
  });
});
