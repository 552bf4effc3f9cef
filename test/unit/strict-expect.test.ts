/**
 * The stricter `toThrow` of test/helpers/strict-expect.ts, loaded by every project: naming the
 * error expected means an error with that message was thrown, not merely something.
 */
import { describe, expect, it } from 'vitest';

const throwing = (value: unknown) => () => {
  throw value;
};

describe('toThrow with a message or a pattern', () => {
  it.each([undefined, null, 'No such tab', 0])('fails when %j is thrown', async (value) => {
    expect(() => expect(throwing(value)).toThrow('No such tab')).toThrowError(
      /expected an error whose message matches No such tab, but .* was thrown/,
    );
    expect(() => expect(throwing(value)).toThrowError(/tab/)).toThrowError(/was thrown/);
    await expect(expect(Promise.reject(value)).rejects.toThrow('No such tab')).rejects.toThrowError(
      /was thrown/,
    );
  });

  it('passes for an error with that message, thrown or rejected', async () => {
    expect(throwing(new Error('No such tab "s1"'))).toThrow('No such tab');
    expect(throwing(new TypeError('bad input'))).toThrowError(/^bad/);
    await expect(Promise.reject(new Error('refused: too long'))).rejects.toThrow(/refused/);
    // An error-like object with a message, as a DOMException or a JSON-RPC error is.
    await expect(Promise.reject({ message: 'Invalid params' })).rejects.toThrow('Invalid params');
  });

  it('still fails for an error with another message', () => {
    expect(() => expect(throwing(new Error('other'))).toThrow('No such tab')).toThrowError(
      /No such tab/,
    );
  });

  it('leaves the other forms as they are', () => {
    expect(throwing(undefined)).toThrow();
    expect(() => undefined).not.toThrow('No such tab');
    expect(throwing(new RangeError('x'))).toThrow(RangeError);
  });
});
