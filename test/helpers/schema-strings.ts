/**
 * Walks a contract schema to its free-text fields: each string a payload can carry, named by a
 * path such as `tool_call.fields.locations[].path` (a discriminated union's member is named by
 * its discriminator's value, an array's items by `[]`). Literals and enums are not free text.
 */
import type { z } from 'zod';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  valueType?: z.ZodType;
  values?: unknown[];
};

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/** The value of a union member's discriminator (`type: 'plan'` gives `plan`). */
function memberName(member: z.ZodType, discriminator: string): string {
  const literal = defOf(member).shape?.[discriminator];
  return String(literal ? defOf(literal).values?.[0] : '?');
}

/** Every path under `schema` that holds free text; `opaque` paths are listed, not entered. */
export function stringPaths(
  schema: z.ZodType,
  opaque: ReadonlySet<string> = new Set(),
  path = '',
): string[] {
  if (opaque.has(path)) {
    return [path];
  }
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return [path];
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([name, field]) =>
        stringPaths(field, opaque, join(path, name)),
      );
    case 'array':
      return stringPaths(def.element!, opaque, `${path}[]`);
    case 'record':
      return stringPaths(def.valueType!, opaque, `${path}{}`);
    case 'optional':
    case 'nullable':
      return stringPaths(def.innerType!, opaque, path);
    case 'union':
      return def.options!.flatMap((member) =>
        def.discriminator === undefined
          ? stringPaths(member, opaque, path)
          : stringPaths(member, opaque, join(path, memberName(member, def.discriminator))),
      );
    default:
      return [];
  }
}

/**
 * Calls `visit` with each string of `value` and its path under `schema`, as
 * {@link stringPaths} names them (`value` must fit the schema).
 */
export function visitStrings(
  schema: z.ZodType,
  value: unknown,
  visit: (path: string, text: string) => void,
  path = '',
): void {
  if (value === undefined || value === null) {
    return;
  }
  const def = defOf(schema);
  if (def.type === 'string' && typeof value === 'string') {
    visit(path, value);
  } else if (def.type === 'object') {
    for (const [name, field] of Object.entries(def.shape ?? {})) {
      visitStrings(field, (value as Record<string, unknown>)[name], visit, join(path, name));
    }
  } else if (def.type === 'array') {
    for (const item of value as unknown[]) {
      visitStrings(def.element!, item, visit, `${path}[]`);
    }
  } else if (def.type === 'optional' || def.type === 'nullable') {
    visitStrings(def.innerType!, value, visit, path);
  } else if (def.type === 'union' && def.discriminator !== undefined) {
    const key = def.discriminator;
    const tag = String((value as Record<string, unknown>)[key]);
    const member = def.options!.find((option) => memberName(option, key) === tag);
    if (member) {
      visitStrings(member, value, visit, join(path, tag));
    }
  } else if (def.type === 'union') {
    for (const member of def.options!) {
      visitStrings(member, value, visit, path);
    }
  }
}
