/**
 * Schemas built on first use.
 *
 * Building a zod schema takes time, and the contract names hundreds: built all at once, they
 * hold up the start of every process and page that loads it, though each needs only a few of
 * them at first. These helpers build a schema, or a table's entry, the first time it is read,
 * then keep it: it checks exactly what it would have checked if built at once.
 */

/**
 * A schema built the first time anything reads it (`parse`, `optional`, `shape`, or another
 * schema that holds it checking a value), then kept.
 *
 * It stands for that schema everywhere, with its type: every property read, method call and
 * check goes to the built schema.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  // The target stays empty: every trap answers from the built schema instead.
  return new Proxy(Object.create(null) as T, {
    get: (_target, key) => Reflect.get(schema(), key),
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may not call a property its empty target lacks fixed (not configurable).
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}

/**
 * A table whose entries are built on first read: `builders` gives each entry's key and how to
 * build it; the first read of an entry builds it, and later reads get the same entry.
 *
 * Its keys are all there from the start (`Object.keys`, `Object.hasOwn`), and its type is the
 * table of what the builders return, as if written out.
 */
export function lazyEntries<T extends object>(builders: {
  [K in keyof T]: () => T[K];
}): Readonly<T> {
  const table = {} as T;
  for (const key of Object.keys(builders) as (keyof T & string)[]) {
    Object.defineProperty(table, key, {
      enumerable: true,
      configurable: true,
      get() {
        const entry = builders[key]();
        Object.defineProperty(table, key, { value: entry, enumerable: true, writable: false });
        return entry;
      },
    });
  }
  return table;
}
