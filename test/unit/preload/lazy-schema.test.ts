/**
 * Schemas and tables built on first use (preload/shared/lazy-schema.ts): nothing is built
 * before it is read, each is built once, and what is built checks exactly as the schema it
 * stands for.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazyEntries, lazySchema } from '../../../preload/shared/lazy-schema.js';

describe('lazySchema', () => {
  it('builds its schema on the first read, once', () => {
    const build = vi.fn(() => z.string().max(3));
    const schema = lazySchema(build);
    expect(build).not.toHaveBeenCalled();
    expect(schema.safeParse('abc').success).toBe(true);
    expect(schema.safeParse('abcd').success).toBe(false);
    expect(schema.safeParse(3).success).toBe(false);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('checks inside the schemas that hold it as strictly as the schema it stands for', () => {
    const key = lazySchema(() => z.string().regex(/^s[0-9]{1,3}$/));
    const holder = lazySchema(() =>
      z.object({ key, keys: z.array(key).max(2), maybe: key.optional() }).strict(),
    );
    expect(holder.parse({ key: 's1', keys: ['s2'] })).toEqual({ key: 's1', keys: ['s2'] });
    for (const bad of [
      { key: 'x1', keys: [] },
      { key: 's1', keys: ['s1', 's2', 's3'] },
      { key: 's1', keys: ['t'] },
      { key: 's1', keys: [], maybe: 'x' },
      { key: 's1', keys: [], extra: true },
      { keys: [] },
      'not an object',
    ]) {
      expect(holder.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('tells apart the variants of a union, by its tag and by the union it is', () => {
    const first = lazySchema(() => z.object({ type: z.literal('a'), text: z.string() }));
    const union = lazySchema(() =>
      z.discriminatedUnion('type', [first, z.object({ type: z.literal('b'), n: z.number() })]),
    );
    expect(union.safeParse({ type: 'a', text: 'x' }).success).toBe(true);
    expect(union.safeParse({ type: 'b', n: 1 }).success).toBe(true);
    expect(union.safeParse({ type: 'a', n: 1 }).success).toBe(false);
    expect(union.safeParse({ type: 'c' }).success).toBe(false);
    expect(union.options.map((option) => option.shape.type.value)).toEqual(['a', 'b']);
    expect(union).toBeInstanceOf(z.ZodDiscriminatedUnion);
  });

  it('derives schemas as the schema it stands for does', () => {
    const entry = lazySchema(() => z.object({ name: z.string(), size: z.number() }));
    expect(entry.pick({ name: true }).strict().safeParse({ name: 'a', size: 1 }).success).toBe(
      false,
    );
    expect(entry.extend({ more: z.boolean() }).safeParse({ name: 'a', size: 1 }).success).toBe(
      false,
    );
    expect(Object.keys(entry.shape)).toEqual(['name', 'size']);
  });

  it('keeps a method read off it working on its own', () => {
    const { safeParse } = lazySchema(() => z.number().int());
    expect(safeParse(1).success).toBe(true);
    expect(safeParse(1.5).success).toBe(false);
  });
});

describe('lazyEntries', () => {
  it('has all its keys from the start and builds an entry on its first read, once', () => {
    const first = vi.fn(() => z.literal(1));
    const second = vi.fn(() => z.literal(2));
    const table = lazyEntries({ first, second });
    expect(Object.keys(table)).toEqual(['first', 'second']);
    expect(Object.hasOwn(table, 'second')).toBe(true);
    expect(first).not.toHaveBeenCalled();
    expect(second).not.toHaveBeenCalled();

    const read = table.second;
    expect(table.second).toBe(read);
    expect(read.safeParse(2).success).toBe(true);
    expect(read.safeParse(1).success).toBe(false);
    expect(second).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
  });

  it('cannot have an entry replaced', () => {
    const table = lazyEntries({ only: () => z.literal(1) }) as Record<string, unknown>;
    const built = table.only;
    // Test files are modules, whose code is strict: assigning a read-only entry throws.
    expect(() => {
      table.only = z.any();
    }).toThrow(TypeError);
    expect(table.only).toBe(built);
  });
});
