/**
 * Makes `toThrow(text)` and `toThrow(/pattern/)` mean what they say: the thrown value (or the
 * promise's rejection, with `rejects`) must be an error with a message that matches.
 *
 * Left alone, vitest 4 passes `expect(() => { throw undefined; }).toThrow('No such tab')` and
 * `await expect(Promise.reject(null)).rejects.toThrow(/refused/)`: a change that makes the code
 * throw nothing in particular (an error factory emptied to `() => undefined`, say) would pass
 * every test that names the error it expects. Loaded by every project (vitest.config.ts).
 */
import { AssertionError } from 'node:assert';
import { chai } from 'vitest';

type Assertion = Chai.AssertionStatic & { _obj: unknown };

chai.use((api, utils) => {
  for (const name of ['toThrow', 'toThrowError']) {
    utils.overwriteMethod(
      api.Assertion.prototype,
      name,
      (original: (...args: unknown[]) => unknown) =>
        function (this: Assertion, ...args: unknown[]) {
          const [expected] = args;
          const named = typeof expected === 'string' || expected instanceof RegExp;
          if (!named || utils.flag(this, 'negate')) {
            return original.apply(this, args);
          }
          let thrown: { value: unknown } | undefined;
          if (utils.flag(this, 'promise') === 'rejects') {
            thrown = { value: utils.flag(this, 'object') };
          } else if (typeof this._obj === 'function') {
            const run = this._obj as () => unknown;
            utils.flag(this, 'object', () => {
              try {
                return run();
              } catch (error) {
                thrown = { value: error };
                throw error;
              }
            });
          }
          const result = original.apply(this, args);
          if (thrown && !hasMessage(thrown.value)) {
            throw new AssertionError({
              message: `expected an error whose message matches ${String(expected)}, but ${describe(thrown.value)} was thrown`,
            });
          }
          return result;
        },
    );
  }
});

function hasMessage(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
