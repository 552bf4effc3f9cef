import { describe, expect, it } from 'vitest';
import { normaliseFormSchema } from '../../../../main/core/elicitation/form-schema.js';
import {
  MAX_DESCRIPTION_CHARS,
  MAX_FORMAT_NAME_CHARS,
  MAX_OPTION_VALUE_CHARS,
  MAX_OPTIONS_PER_FIELD,
  MAX_PATTERN_CHARS,
  MAX_PROPERTIES,
  MAX_PROPERTY_NAME_CHARS,
  MAX_SCHEMA_BYTES,
  MAX_STRING_DEFAULT_CHARS,
  MAX_TITLE_CHARS,
} from '../../../../main/core/elicitation/limits.js';
import { FormModel, type FormField } from '../../../../preload/shared/form-model.js';

function accepted(schema: unknown): FormModel {
  const result = normaliseFormSchema(schema);
  if (!result.ok) {
    throw new Error(`refused: ${result.reason}`);
  }
  // Every model main produces must cross the IPC boundary.
  expect(FormModel.safeParse(result.model).success).toBe(true);
  return result.model;
}

function refused(schema: unknown): string {
  const result = normaliseFormSchema(schema);
  if (result.ok) {
    throw new Error(`accepted: ${JSON.stringify(result.model)}`);
  }
  return result.reason;
}

const form = (properties: object, extra: object = {}) => ({ type: 'object', properties, ...extra });
const field = (schema: object, required = false): FormField =>
  accepted(form({ f: schema }, required ? { required: ['f'] } : {})).fields[0]!;
const fieldRefusal = (schema: object) => refused(form({ f: schema }));
const options = (count: number) => Array.from({ length: count }, (_, i) => `o${i}`);

describe('normaliseFormSchema: the form', () => {
  it('keeps the form title and description and the fields in order', () => {
    const model = accepted({
      type: 'object',
      title: 'Deploy',
      description: 'Where to deploy',
      properties: { b: { type: 'string' }, a: { type: 'boolean' } },
      required: ['a'],
    });
    expect(model).toEqual({
      title: 'Deploy',
      description: 'Where to deploy',
      fields: [
        { name: 'b', required: false, kind: 'string' },
        { name: 'a', required: true, kind: 'boolean' },
      ],
    });
  });

  it('accepts the example from the spec', () => {
    const model = accepted({
      type: 'object',
      properties: {
        strategy: { type: 'string', enum: ['conservative', 'balanced', 'aggressive'] },
      },
      required: ['strategy'],
    });
    expect(model.fields).toEqual([
      {
        name: 'strategy',
        required: true,
        kind: 'single-select',
        titled: false,
        options: [
          { value: 'conservative', title: 'conservative' },
          { value: 'balanced', title: 'balanced' },
          { value: 'aggressive', title: 'aggressive' },
        ],
      },
    ]);
  });

  it('accepts a schema without "type" or "properties" (the SDK makes both optional)', () => {
    expect(accepted({})).toEqual({ fields: [] });
    expect(accepted({ properties: { a: { type: 'string' } } }).fields).toHaveLength(1);
  });

  it('accepts additionalProperties: false', () => {
    expect(accepted(form({}, { additionalProperties: false }))).toEqual({ fields: [] });
  });

  it('ignores annotations and unknown keywords that do not change meaning', () => {
    const model = accepted({
      type: 'object',
      $comment: 'for humans',
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      _meta: { anything: 1 },
      'x-vendor': true,
      examples: [{}],
      properties: {
        a: { type: 'string', examples: ['x'], $comment: 'c', deprecated: true, _meta: {} },
      },
    });
    expect(model).toEqual({ fields: [{ name: 'a', required: false, kind: 'string' }] });
  });

  it('treats a keyword set to null as absent, as ACP does', () => {
    expect(
      accepted({
        type: null,
        title: null,
        required: null,
        properties: {
          a: {
            type: 'string',
            title: null,
            minLength: null,
            pattern: null,
            format: null,
            default: null,
            enum: null,
            oneOf: null,
            allOf: null,
          },
        },
      }),
    ).toEqual({ fields: [{ name: 'a', required: false, kind: 'string' }] });
  });

  it('treats an empty title as no title, so the field falls back to its name', () => {
    expect(field({ type: 'string', title: '' })).toEqual({
      name: 'f',
      required: false,
      kind: 'string',
    });
  });
});

describe('normaliseFormSchema: string fields', () => {
  it('keeps title, description, lengths and pattern', () => {
    expect(
      field(
        {
          type: 'string',
          title: 'Name',
          description: 'Your name',
          minLength: 3,
          maxLength: 10,
          pattern: '^[a-z]+$',
        },
        true,
      ),
    ).toEqual({
      name: 'f',
      title: 'Name',
      description: 'Your name',
      required: true,
      kind: 'string',
      minLength: 3,
      maxLength: 10,
      pattern: '^[a-z]+$',
    });
  });

  it.each(['email', 'uri', 'date', 'date-time'])('keeps the known format %s', (format) => {
    expect(field({ type: 'string', format })).toMatchObject({ kind: 'string', format });
  });

  it('keeps an unknown format as a note, unchecked, rather than refusing it', () => {
    const result = field({ type: 'string', format: 'phone' });
    expect(result).toEqual({ name: 'f', required: false, kind: 'string', unknownFormat: 'phone' });
  });

  it('keeps a default, including the empty string', () => {
    expect(field({ type: 'string', default: 'hi' })).toMatchObject({ default: 'hi' });
    expect(field({ type: 'string', default: '', minLength: 2 })).toMatchObject({ default: '' });
  });
});

describe('normaliseFormSchema: number, integer and boolean fields', () => {
  it('keeps minimum, maximum and default for a number', () => {
    expect(field({ type: 'number', minimum: -1.5, maximum: 2.5, default: 0.5 })).toEqual({
      name: 'f',
      required: false,
      kind: 'number',
      minimum: -1.5,
      maximum: 2.5,
      default: 0.5,
    });
  });

  it('keeps an integer with a default of 0', () => {
    expect(field({ type: 'integer', minimum: 0, default: 0 })).toEqual({
      name: 'f',
      required: false,
      kind: 'integer',
      minimum: 0,
      default: 0,
    });
  });

  it('keeps a boolean with a default of false', () => {
    expect(field({ type: 'boolean', title: 'Force', default: false })).toEqual({
      name: 'f',
      title: 'Force',
      required: false,
      kind: 'boolean',
      default: false,
    });
  });
});

describe('normaliseFormSchema: single select', () => {
  it('makes an untitled select from enum, each option titled by its value', () => {
    expect(field({ type: 'string', enum: ['a', 'b'], default: 'b' })).toEqual({
      name: 'f',
      required: false,
      kind: 'single-select',
      titled: false,
      options: [
        { value: 'a', title: 'a' },
        { value: 'b', title: 'b' },
      ],
      default: 'b',
    });
  });

  it('makes a titled select from oneOf of const, title and description', () => {
    expect(
      field({
        type: 'string',
        oneOf: [
          { const: 'a', title: 'Alpha', description: 'First', _meta: {} },
          { const: 'b', title: 'Beta', type: 'string' },
          { const: 'c' },
        ],
      }),
    ).toEqual({
      name: 'f',
      required: false,
      kind: 'single-select',
      titled: true,
      options: [
        { value: 'a', title: 'Alpha', description: 'First' },
        { value: 'b', title: 'Beta' },
        { value: 'c', title: 'c' },
      ],
    });
  });
});

describe('normaliseFormSchema: multi select', () => {
  it('makes an untitled multi-select from items.enum, with counts and a default', () => {
    expect(
      field({
        type: 'array',
        items: { type: 'string', enum: ['a', 'b', 'c'] },
        minItems: 1,
        maxItems: 2,
        default: ['a'],
      }),
    ).toEqual({
      name: 'f',
      required: false,
      kind: 'multi-select',
      titled: false,
      options: [
        { value: 'a', title: 'a' },
        { value: 'b', title: 'b' },
        { value: 'c', title: 'c' },
      ],
      minItems: 1,
      maxItems: 2,
      default: ['a'],
    });
  });

  it('makes a titled multi-select from items.anyOf', () => {
    expect(
      field({
        type: 'array',
        uniqueItems: true,
        items: { anyOf: [{ const: 'a', title: 'Alpha', description: 'First' }] },
        default: [],
      }),
    ).toEqual({
      name: 'f',
      required: false,
      kind: 'multi-select',
      titled: true,
      options: [{ value: 'a', title: 'Alpha', description: 'First' }],
      default: [],
    });
  });
});

describe('normaliseFormSchema: unknown and extension types', () => {
  it('turns a _-prefixed type into an unsupported field that says why', () => {
    expect(field({ type: '_color', title: 'Colour', anything: { nested: true } }, true)).toEqual({
      name: 'f',
      title: 'Colour',
      required: true,
      kind: 'unsupported',
      reason: 'It uses the extension type "_color", which Airlock does not know.',
    });
  });

  it('turns an unknown type into an unsupported field, whatever its keywords', () => {
    expect(field({ type: 'color', allOf: [{}] })).toEqual({
      name: 'f',
      required: false,
      kind: 'unsupported',
      reason: 'It uses the type "color", which this version of Airlock does not know.',
    });
  });

  it('turns a list of an unknown or extension item type into an unsupported field', () => {
    expect(field({ type: 'array', items: { type: '_file' }, contains: {} })).toMatchObject({
      kind: 'unsupported',
      reason: 'It is a list of the extension type "_file", which Airlock does not know.',
    });
    expect(field({ type: 'array', items: { type: 'file' } })).toMatchObject({
      kind: 'unsupported',
      reason: 'It is a list of the type "file", which this version of Airlock does not know.',
    });
  });
});

describe('normaliseFormSchema: refuses what is not a flat object schema', () => {
  it.each([
    ['an array', [], 'The form schema must be a JSON object.'],
    ['null', null, 'The form schema must be a JSON object.'],
    ['a string', 'x', 'The form schema must be a JSON object.'],
    ['undefined', undefined, 'The form schema is not JSON.'],
    ['a BigInt', { a: 1n }, 'The form schema is not JSON.'],
    ['type array', { type: 'array' }, 'The form schema must have type "object", not "array".'],
    [
      'properties as a list',
      { properties: [] },
      'The form schema: "properties" must be an object.',
    ],
  ])('refuses %s', (_name, schema, reason) => {
    expect(refused(schema)).toBe(reason);
  });

  it.each([
    ['allOf', { allOf: [] }],
    ['anyOf', { anyOf: [] }],
    ['oneOf', { oneOf: [] }],
    ['not', { not: {} }],
    ['if', { if: {}, then: {}, else: {} }],
    ['patternProperties', { patternProperties: {} }],
    ['dependentSchemas', { dependentSchemas: {} }],
    ['dependentRequired', { dependentRequired: {} }],
    ['propertyNames', { propertyNames: {} }],
    ['unevaluatedProperties', { unevaluatedProperties: false }],
    ['minProperties', { minProperties: 1 }],
    ['$ref', { $ref: '#/$defs/x' }],
    ['$defs', { $defs: { x: {} } }],
    ['definitions', { definitions: { x: {} } }],
    ['default', { default: {} }],
  ])('refuses the top-level keyword %s', (keyword, extra) => {
    expect(refused(form({}, extra))).toBe(
      `The form schema uses "${keyword}", which a flat form does not support.`,
    );
  });

  it.each([true, {}, { type: 'string' }])('refuses additionalProperties %j', (additional) => {
    expect(refused(form({}, { additionalProperties: additional }))).toBe(
      'The form schema allows additional properties; a form has only its own fields.',
    );
  });

  it('refuses a nested object', () => {
    expect(fieldRefusal({ type: 'object', properties: {} })).toBe(
      'Property "f" is a nested object; a form is flat.',
    );
  });

  it('refuses a property that is a boolean schema', () => {
    expect(refused(form({ f: true }))).toBe('Property "f" must be a schema object.');
  });

  it.each([
    ['no type', { enum: ['a'] }, 'Property "f" has no "type".'],
    [
      'several types',
      { type: ['string', 'null'] },
      'Property "f" must have one type, given as a string, not ["string","null"].',
    ],
    [
      'a type "null"',
      { type: 'null' },
      'Property "f" has type "null", which no form field can answer.',
    ],
  ])('refuses a property with %s', (_name, schema, reason) => {
    expect(fieldRefusal(schema)).toBe(reason);
  });

  it.each([
    ['$ref', { type: 'string', $ref: '#/x' }],
    ['anyOf', { type: 'string', anyOf: [{ const: 'a' }] }],
    ['allOf', { type: 'number', allOf: [] }],
    ['const', { type: 'string', const: 'a' }],
    ['multipleOf', { type: 'number', multipleOf: 2 }],
    ['exclusiveMinimum', { type: 'integer', exclusiveMinimum: 0 }],
    ['minLength', { type: 'number', minLength: 1 }],
    ['minimum', { type: 'string', minimum: 1 }],
    ['minLength', { type: 'string', enum: ['a'], minLength: 1 }],
    ['format', { type: 'string', oneOf: [{ const: 'a' }], format: 'email' }],
    ['items', { type: 'boolean', items: {} }],
    ['contains', { type: 'array', items: { enum: ['a'] }, contains: {} }],
  ])('refuses a property using %s', (keyword, schema) => {
    expect(fieldRefusal(schema)).toBe(
      `Property "f" uses "${keyword}", which a flat form does not support.`,
    );
  });

  it.each([
    [
      'numbers',
      { type: 'array', items: { type: 'number' } },
      'Property "f" is an array of "number"; only string options are allowed.',
    ],
    [
      'objects',
      { type: 'array', items: { type: 'object', properties: {} } },
      'Property "f": "items" uses "properties", which a flat form does not support.',
    ],
    [
      'free strings',
      { type: 'array', items: { type: 'string' } },
      'Property "f": "items" must list its options in one of "enum" or "anyOf".',
    ],
    [
      'both enum and anyOf',
      { type: 'array', items: { enum: ['a'], anyOf: [{ const: 'a' }] } },
      'Property "f": "items" must list its options in one of "enum" or "anyOf".',
    ],
    [
      'no items',
      { type: 'array' },
      'Property "f" is an array without an "items" object listing its options.',
    ],
    [
      'items.oneOf',
      { type: 'array', items: { oneOf: [{ const: 'a' }] } },
      'Property "f": "items" uses "oneOf", which a flat form does not support.',
    ],
  ])('refuses an array of %s', (_name, schema, reason) => {
    expect(fieldRefusal(schema)).toBe(reason);
  });
});

describe('normaliseFormSchema: refuses a wrong "required"', () => {
  it.each([
    [['missing'], 'The form schema requires "missing", which is not a property.'],
    [['a', 'a'], 'The form schema lists "a" twice in "required".'],
    ['a', 'The form schema: "required" must be a list of property names.'],
    [[1], 'The form schema: "required" must be a list of property names.'],
  ])('refuses required %j', (required, reason) => {
    expect(refused(form({ a: { type: 'string' } }, { required }))).toBe(reason);
  });
});

describe('normaliseFormSchema: refuses wrong-typed keywords', () => {
  it.each([
    [{ type: 'string', minLength: '3' }, '"minLength" must be a whole number, 0 or more, not "3".'],
    [{ type: 'string', maxLength: -1 }, '"maxLength" must be a whole number, 0 or more, not -1.'],
    [{ type: 'string', minLength: 1.5 }, '"minLength" must be a whole number, 0 or more, not 1.5.'],
    [
      { type: 'string', maxLength: 2 ** 53 },
      '"maxLength" must be a whole number, 0 or more, not 9007199254740992.',
    ],
    [{ type: 'string', pattern: 5 }, '"pattern" must be a string, not 5.'],
    [{ type: 'string', format: 5 }, '"format" must be a string, not 5.'],
    [{ type: 'string', title: 5 }, '"title" must be a string, not 5.'],
    [{ type: 'string', description: {} }, '"description" must be a string, not {}.'],
    [{ type: 'number', maximum: '5' }, '"maximum" must be a number, not "5".'],
    [
      { type: 'array', items: { enum: ['a'] }, minItems: '1' },
      '"minItems" must be a whole number, 0 or more, not "1".',
    ],
    [
      { type: 'array', items: { enum: ['a'] }, uniqueItems: 'yes' },
      '"uniqueItems" must be true or false, not "yes".',
    ],
    [{ type: 'string', enum: 'a' }, '"enum" must be a non-empty list of options.'],
    [{ type: 'string', enum: [] }, '"enum" must be a non-empty list of options.'],
    [{ type: 'string', enum: [1] }, '"enum" must hold strings, not 1.'],
    [
      { type: 'string', oneOf: ['a'] },
      '"oneOf", option 1 must be an object with "const" and "title".',
    ],
    [
      { type: 'string', oneOf: [{ title: 'A' }] },
      '"oneOf", option 1: "const" must be a string, not undefined.',
    ],
    [
      { type: 'string', oneOf: [{ const: 'a', title: 3 }] },
      '"oneOf", option 1: "title" must be a string, not 3.',
    ],
    [
      { type: 'string', oneOf: [{ const: 'a', type: 'number' }] },
      '"oneOf", option 1: "type" must be "string", not "number".',
    ],
    [{ type: 'string', default: 3 }, '"default" must be a string, not 3.'],
    [{ type: 'number', default: '3' }, '"default" must be a number, not "3".'],
    [{ type: 'boolean', default: 'true' }, '"default" must be true or false, not "true".'],
    [{ type: 'string', enum: ['a'], default: 1 }, '"default" must be one of its options, not 1.'],
    [
      { type: 'array', items: { enum: ['a'] }, default: 'a' },
      '"default" must be a list of its options, not "a".',
    ],
  ])('refuses %j', (schema, reason) => {
    expect(fieldRefusal(schema)).toBe(`Property "f": ${reason}`);
  });
});

describe('normaliseFormSchema: refuses contradictions', () => {
  it.each([
    [
      { type: 'string', minLength: 5, maxLength: 4 },
      '"minLength" (5) is more than "maxLength" (4).',
    ],
    [{ type: 'number', minimum: 2, maximum: 1 }, '"minimum" (2) is more than "maximum" (1).'],
    [
      { type: 'integer', minimum: 1.2, maximum: 1.8 },
      'no whole number lies between "minimum" and "maximum".',
    ],
    [
      { type: 'array', items: { enum: ['a', 'b'] }, minItems: 2, maxItems: 1 },
      '"minItems" (2) is more than "maxItems" (1).',
    ],
    [
      { type: 'array', items: { enum: ['a', 'b'] }, minItems: 3 },
      '"minItems" is 3 but it has 2 options.',
    ],
    [
      { type: 'string', enum: ['a'], oneOf: [{ const: 'a' }] },
      'has both "enum" and "oneOf"; give its options once.',
    ],
  ])('refuses %j', (schema, reason) => {
    const separator = reason.startsWith('has') ? ' ' : ': ';
    expect(fieldRefusal(schema)).toBe(`Property "f"${separator}${reason}`);
  });

  it('accepts an integer range with a whole number inside', () => {
    expect(field({ type: 'integer', minimum: 1.2, maximum: 2 })).toMatchObject({ minimum: 1.2 });
  });

  it.each([
    [
      { type: 'string', minLength: 3, maxLength: 3 },
      { minLength: 3, maxLength: 3 },
    ],
    [
      { type: 'number', minimum: 2, maximum: 2 },
      { minimum: 2, maximum: 2 },
    ],
    [
      { type: 'array', items: { enum: ['a', 'b'] }, minItems: 1, maxItems: 1 },
      { minItems: 1, maxItems: 1 },
    ],
  ])('accepts equal lower and upper bounds: %j', (schema, bounds) => {
    expect(field(schema)).toMatchObject(bounds);
  });

  it('accepts minItems equal to the number of options', () => {
    expect(field({ type: 'array', items: { enum: ['a'] }, minItems: 1 })).toMatchObject({
      minItems: 1,
    });
  });
});

describe('normaliseFormSchema: refuses duplicate and empty options', () => {
  it.each([
    [{ type: 'string', enum: ['a', 'a'] }, 'Property "f": "enum" lists "a" twice.'],
    [
      {
        type: 'string',
        oneOf: [
          { const: 'a', title: 'A' },
          { const: 'a', title: 'B' },
        ],
      },
      'Property "f": "oneOf" lists "a" twice.',
    ],
    [{ type: 'array', items: { enum: ['b', 'b'] } }, 'Property "f": "items.enum" lists "b" twice.'],
    [
      { type: 'array', items: { anyOf: [{ const: 'b' }, { const: 'b' }] } },
      'Property "f": "items.anyOf" lists "b" twice.',
    ],
    [
      { type: 'string', enum: ['', 'a'] },
      'Property "f": "enum" has an empty option, which cannot be told from no answer.',
    ],
  ])('refuses %j', (schema, reason) => {
    expect(fieldRefusal(schema)).toBe(reason);
  });
});

describe('normaliseFormSchema: refuses defaults that do not fit their field', () => {
  it.each([
    [{ type: 'string', minLength: 3, default: 'ab' }, '"ab"', 'Enter at least 3 characters'],
    [
      { type: 'string', pattern: '^a+$', default: 'b' },
      '"b"',
      'Enter a value in the format this field asks for',
    ],
    [{ type: 'string', format: 'email', default: 'nope' }, '"nope"', 'Enter a valid email address'],
    [{ type: 'number', maximum: 1, default: 2 }, '2', 'Enter 1 or less'],
    [{ type: 'integer', default: 1.5 }, '1.5', 'Enter a whole number'],
    [{ type: 'string', enum: ['a'], default: 'b' }, '"b"', 'Choose one of the options'],
    [
      { type: 'array', items: { enum: ['a', 'b'] }, maxItems: 1, default: ['a', 'b'] },
      '["a","b"]',
      'Choose at most 1',
    ],
    [
      { type: 'array', items: { enum: ['a'] }, default: ['z'] },
      '["z"]',
      'Choose only from the options',
    ],
  ])('refuses %j', (schema, shown, problem) => {
    expect(fieldRefusal(schema)).toBe(
      `Property "f": "default" ${shown} does not fit the field (${problem}).`,
    );
  });
});

describe('normaliseFormSchema: refuses patterns re2js cannot compile', () => {
  it.each([
    ['(?=a)', 'invalid or unsupported Perl syntax: `(?=`'],
    ['(a)\\1', 'invalid escape sequence: `\\1`'],
    ['[', 'missing closing ]: `[`'],
  ])('refuses %s', (pattern, detail) => {
    expect(fieldRefusal({ type: 'string', pattern })).toBe(
      `Property "f": "pattern" cannot be checked by a linear-time engine (error parsing regexp: ${detail}).`,
    );
  });

  it('accepts a catastrophic-for-backtracking pattern, which re2js runs in linear time', () => {
    expect(field({ type: 'string', pattern: '^(a+)+$' })).toMatchObject({ pattern: '^(a+)+$' });
  });
});

describe('normaliseFormSchema: refuses unusable property names', () => {
  it('refuses an empty name', () => {
    expect(refused(form({ '': { type: 'string' } }))).toBe(
      'The form schema has a property with an empty name.',
    );
  });

  it('refuses __proto__', () => {
    expect(refused(JSON.parse('{"properties":{"__proto__":{"type":"string"}}}'))).toBe(
      'Property "__proto__" has a reserved name.',
    );
  });

  it('keeps names that are Object.prototype members or need escaping', () => {
    const model = accepted(
      form({
        constructor: { type: 'string' },
        'a/b~c': { type: 'string' },
        'x.y': { type: 'string' },
      }),
    );
    expect(model.fields.map((f) => f.name)).toEqual(['constructor', 'a/b~c', 'x.y']);
  });
});

describe('normaliseFormSchema: limits', () => {
  it('accepts a schema of exactly the byte limit and refuses one byte more', () => {
    const base = JSON.stringify({ 'x-pad': '' });
    const exact = { 'x-pad': 'é'.repeat((MAX_SCHEMA_BYTES - base.length) / 2) };
    expect(new TextEncoder().encode(JSON.stringify(exact)).length).toBe(MAX_SCHEMA_BYTES);
    expect(accepted(exact)).toEqual({ fields: [] });
    expect(refused({ ...exact, 'x-pad': `${exact['x-pad']}a` })).toBe(
      `The form schema is ${MAX_SCHEMA_BYTES + 1} bytes; the limit is ${MAX_SCHEMA_BYTES}.`,
    );
  });

  it('accepts the property limit and refuses one more', () => {
    const many = (count: number) =>
      form(Object.fromEntries(options(count).map((name) => [name, { type: 'boolean' }])));
    expect(accepted(many(MAX_PROPERTIES)).fields).toHaveLength(MAX_PROPERTIES);
    expect(refused(many(MAX_PROPERTIES + 1))).toBe(
      `The form schema has ${MAX_PROPERTIES + 1} properties; the limit is ${MAX_PROPERTIES}.`,
    );
  });

  it('accepts the option limit and refuses one more, titled or not, single or multi', () => {
    const limit = MAX_OPTIONS_PER_FIELD;
    const titled = (count: number) =>
      options(count).map((value) => ({ const: value, title: value }));
    expect(field({ type: 'string', enum: options(limit) })).toMatchObject({ titled: false });
    expect(fieldRefusal({ type: 'string', enum: options(limit + 1) })).toBe(
      `Property "f": "enum" has ${limit + 1} options; the limit is ${limit}.`,
    );
    expect(field({ type: 'string', oneOf: titled(limit) })).toMatchObject({ titled: true });
    expect(fieldRefusal({ type: 'string', oneOf: titled(limit + 1) })).toBe(
      `Property "f": "oneOf" has ${limit + 1} options; the limit is ${limit}.`,
    );
    expect(fieldRefusal({ type: 'array', items: { anyOf: titled(limit + 1) } })).toBe(
      `Property "f": "items.anyOf" has ${limit + 1} options; the limit is ${limit}.`,
    );
    expect(fieldRefusal({ type: 'array', items: { enum: options(limit + 1) } })).toBe(
      `Property "f": "items.enum" has ${limit + 1} options; the limit is ${limit}.`,
    );
  });

  it.each([
    ['title', MAX_TITLE_CHARS],
    ['description', MAX_DESCRIPTION_CHARS],
  ])('accepts a %s at the limit and refuses one longer, on form, field and option', (key, max) => {
    expect(accepted({ [key]: 'a'.repeat(max) })).toEqual({ fields: [], [key]: 'a'.repeat(max) });
    expect(refused({ [key]: 'a'.repeat(max + 1) })).toBe(
      `The form schema: "${key}" is longer than ${max} characters.`,
    );
    expect(field({ type: 'string', [key]: 'a'.repeat(max) })).toMatchObject({
      [key]: 'a'.repeat(max),
    });
    expect(fieldRefusal({ type: 'string', [key]: 'a'.repeat(max + 1) })).toBe(
      `Property "f": "${key}" is longer than ${max} characters.`,
    );
    expect(
      fieldRefusal({ type: 'string', oneOf: [{ const: 'a', [key]: 'a'.repeat(max + 1) }] }),
    ).toBe(`Property "f": "oneOf", option 1: "${key}" is longer than ${max} characters.`);
  });

  it('accepts a pattern at the limit and refuses one longer', () => {
    const at = 'a'.repeat(MAX_PATTERN_CHARS);
    expect(field({ type: 'string', pattern: at })).toMatchObject({ pattern: at });
    expect(fieldRefusal({ type: 'string', pattern: `${at}a` })).toBe(
      `Property "f": "pattern" is longer than ${MAX_PATTERN_CHARS} characters.`,
    );
  });

  it('accepts a string default at the limit and refuses one longer', () => {
    const at = 'a'.repeat(MAX_STRING_DEFAULT_CHARS);
    expect(field({ type: 'string', default: at })).toMatchObject({ default: at });
    expect(fieldRefusal({ type: 'string', default: `${at}a` })).toBe(
      `Property "f": "default" is longer than ${MAX_STRING_DEFAULT_CHARS} characters.`,
    );
  });

  it('accepts a property name at the limit and refuses one longer', () => {
    const at = 'n'.repeat(MAX_PROPERTY_NAME_CHARS);
    expect(accepted(form({ [at]: { type: 'string' } })).fields[0]?.name).toBe(at);
    expect(refused(form({ [`${at}n`]: { type: 'string' } }))).toBe(
      `Property "${'n'.repeat(59)}…" has a name longer than ${MAX_PROPERTY_NAME_CHARS} characters.`,
    );
  });

  it('accepts an option value at the limit and refuses one longer', () => {
    const at = 'v'.repeat(MAX_OPTION_VALUE_CHARS);
    expect(field({ type: 'string', enum: [at] })).toMatchObject({ options: [{ value: at }] });
    expect(fieldRefusal({ type: 'string', enum: [`${at}v`] })).toBe(
      `Property "f": "enum" has a value longer than ${MAX_OPTION_VALUE_CHARS} characters.`,
    );
  });

  it('accepts a format name at the limit and refuses one longer', () => {
    const at = 'f'.repeat(MAX_FORMAT_NAME_CHARS);
    expect(field({ type: 'string', format: at })).toMatchObject({ unknownFormat: at });
    expect(fieldRefusal({ type: 'string', format: `${at}f` })).toBe(
      `Property "f": "format" is longer than ${MAX_FORMAT_NAME_CHARS} characters.`,
    );
  });
});

describe('normaliseFormSchema: refuses names that are not text', () => {
  it('refuses a property name with a lone surrogate, and takes a well-formed pair', () => {
    expect(refused(form({ 'f\ud800': { type: 'string' } }))).toBe(
      'Property "f\\ud800" has a name that is not well-formed Unicode.',
    );
    expect(normaliseFormSchema(form({ 'f\ud83d\ude00': { type: 'string' } })).ok).toBe(true);
  });
});

// Every keyword JSON Schema gives a meaning to (draft-07 to 2020-12), as form-schema.ts lists it.
const MEANINGFUL_KEYWORDS = [
  ...['type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum'],
  ...['exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'format', 'maxItems'],
  ...['minItems', 'uniqueItems', 'maxContains', 'minContains', 'contains', 'items'],
  ...['prefixItems', 'additionalItems', 'unevaluatedItems', 'maxProperties', 'minProperties'],
  ...['required', 'dependentRequired', 'dependencies', 'dependentSchemas', 'properties'],
  ...['patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedProperties'],
  ...['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', '$ref', '$dynamicRef'],
  ...['$recursiveRef', '$defs', 'definitions', 'default', 'title', 'description'],
];

describe('normaliseFormSchema: refuses every meaningful keyword a context does not use', () => {
  const annotations = ['title', 'description', 'default'];
  it.each([
    [
      'the form',
      ['type', 'title', 'description', 'properties', 'required', 'additionalProperties'],
      (key: string) => ({ [key]: 1 }),
      'The form schema',
    ],
    [
      'a string field',
      // enum and oneOf make it a select.
      [...annotations, 'type', 'minLength', 'maxLength', 'pattern', 'format', 'enum', 'oneOf'],
      (key: string) => form({ f: { type: 'string', [key]: 1 } }),
      'Property "f"',
    ],
    [
      'a single select',
      [...annotations, 'type', 'enum', 'oneOf'],
      (key: string) => form({ f: { type: 'string', enum: ['a'], [key]: 1 } }),
      'Property "f"',
    ],
    [
      'a number field',
      [...annotations, 'type', 'minimum', 'maximum'],
      (key: string) => form({ f: { type: 'number', [key]: 1 } }),
      'Property "f"',
    ],
    [
      'an integer field',
      [...annotations, 'type', 'minimum', 'maximum'],
      (key: string) => form({ f: { type: 'integer', [key]: 1 } }),
      'Property "f"',
    ],
    [
      'a boolean field',
      [...annotations, 'type'],
      (key: string) => form({ f: { type: 'boolean', [key]: 1 } }),
      'Property "f"',
    ],
    [
      'a multi select',
      [...annotations, 'type', 'items', 'minItems', 'maxItems', 'uniqueItems'],
      (key: string) => form({ f: { type: 'array', items: { enum: ['a'] }, [key]: 1 } }),
      'Property "f"',
    ],
    [
      'the items of a multi select',
      ['type', 'enum', 'anyOf', 'title', 'description'],
      (key: string) => form({ f: { type: 'array', items: { enum: ['a'], [key]: 1 } } }),
      'Property "f": "items"',
    ],
    [
      'an option',
      ['const', 'title', 'description', 'type'],
      (key: string) => form({ f: { type: 'string', oneOf: [{ const: 'a', [key]: 1 }] } }),
      'Property "f": "oneOf", option 1',
    ],
  ])('in %s', (_context, allowed, schema, where) => {
    const refusedKeywords = MEANINGFUL_KEYWORDS.filter((key) => !allowed.includes(key));
    expect(refusedKeywords.length).toBeGreaterThan(30);
    for (const key of refusedKeywords) {
      expect(refused(schema(key))).toBe(
        `${where} uses "${key}", which a flat form does not support.`,
      );
    }
  });
});

describe('normaliseFormSchema: edges the tables above leave out', () => {
  it('leaves out every keyword that is not given, rather than keeping it undefined', () => {
    expect(Object.keys(accepted({}))).toEqual(['fields']);
    expect(Object.keys(field({ type: 'string' }))).toEqual(['name', 'required', 'kind']);
    expect(Object.keys(field({ type: 'number' }))).toEqual(['name', 'required', 'kind']);
    expect(Object.keys(field({ type: 'array', items: { enum: ['a'] } }))).toEqual([
      'name',
      'required',
      'kind',
      'titled',
      'options',
    ]);
    const select = field({ type: 'string', oneOf: [{ const: 'a' }] });
    expect(select.kind === 'single-select' && Object.keys(select.options[0]!)).toEqual([
      'value',
      'title',
    ]);
  });

  it('lets the items of a multi select carry a title and a description, as annotations', () => {
    expect(
      field({
        type: 'array',
        items: { type: 'string', enum: ['a'], title: 'T', description: 'D' },
      }),
    ).toEqual({
      name: 'f',
      required: false,
      kind: 'multi-select',
      titled: false,
      options: [{ value: 'a', title: 'a' }],
    });
  });

  it('refuses a multi-select default that holds anything but strings', () => {
    expect(fieldRefusal({ type: 'array', items: { enum: ['a'] }, default: ['a', 1] })).toBe(
      'Property "f": "default" must be a list of its options, not ["a",1].',
    );
  });

  it('names every problem of a default that does not fit, separated', () => {
    expect(fieldRefusal({ type: 'string', minLength: 3, pattern: '^a+$', default: 'b' })).toBe(
      'Property "f": "default" "b" does not fit the field (Enter at least 3 characters; ' +
        'Enter a value in the format this field asks for).',
    );
  });

  it('accepts counts of 0', () => {
    expect(field({ type: 'string', minLength: 0, maxLength: 0 })).toMatchObject({
      minLength: 0,
      maxLength: 0,
    });
    expect(
      field({ type: 'array', items: { enum: ['a'] }, minItems: 0, maxItems: 0 }),
    ).toMatchObject({ minItems: 0, maxItems: 0 });
  });

  it('asks for a whole number between the bounds of an integer only, not of a number', () => {
    expect(field({ type: 'number', minimum: 1.2, maximum: 1.8 })).toMatchObject({
      minimum: 1.2,
      maximum: 1.8,
    });
  });

  it('quotes a value of up to 60 characters whole, and cuts a longer one to 60', () => {
    const required = (name: string) =>
      refused(form({ a: { type: 'string' } }, { required: [name] }));
    expect(required('r'.repeat(60))).toBe(
      `The form schema requires "${'r'.repeat(60)}", which is not a property.`,
    );
    expect(required('r'.repeat(61))).toBe(
      `The form schema requires "${'r'.repeat(59)}…", which is not a property.`,
    );
    // Not a string: its JSON is cut the same way.
    const list = (length: number) => [`${'d'.repeat(length - 4)}`];
    expect(JSON.stringify(list(60))).toHaveLength(60);
    expect(fieldRefusal({ type: 'string', default: list(60) })).toBe(
      `Property "f": "default" must be a string, not ${JSON.stringify(list(60))}.`,
    );
    expect(fieldRefusal({ type: 'string', default: list(61) })).toBe(
      `Property "f": "default" must be a string, not ${JSON.stringify(list(61)).slice(0, 59)}….`,
    );
  });

  it('refuses a bound that is not finite', () => {
    for (const bound of [Infinity, -Infinity, NaN]) {
      expect(fieldRefusal({ type: 'number', minimum: bound })).toBe(
        'Property "f": "minimum" must be a number, not null.',
      );
    }
  });

  it('throws what goes wrong inside the check rather than send it to the agent as a reason', () => {
    let reads = 0;
    const schema = {
      // Read once by the size check, then again by the check of the title.
      get title() {
        reads += 1;
        if (reads > 1) {
          throw new TypeError('a bug');
        }
        return 'T';
      },
    };
    expect(() => normaliseFormSchema(schema)).toThrow('a bug');
  });

  it('reads only the schema’s own keys, never inherited ones', () => {
    const inherited = Object.assign(Object.create({ type: 'array', properties: [] }) as object, {
      properties: { a: Object.assign(Object.create({ type: '_x' }) as object, { type: 'string' }) },
    });
    expect(accepted(inherited)).toEqual({
      fields: [{ name: 'a', required: false, kind: 'string' }],
    });
  });
});

describe('hidden characters in what names a field or a choice', () => {
  it('are written out in titles and options’ labels, while values and descriptions stay', () => {
    const model = accepted(
      form({
        pick: {
          type: 'string',
          title: 'Airlock\u202E — Sign in',
          description: 'Prose\u200D kept',
          enum: ['safe\u202Etxt.exe'],
        },
        titled: {
          type: 'string',
          oneOf: [{ const: 'a\u200B', title: 'Allow\u200B' }, { const: 'b\u2066' }],
        },
      }),
    );
    const [pick, titled] = model.fields as [
      FormField & { options: { value: string; title: string }[] },
      FormField & { options: { value: string; title: string }[] },
    ];
    expect(pick.title).toBe('Airlock⟨U+202E⟩ — Sign in');
    expect(pick.description).toBe('Prose\u200D kept');
    expect(pick.options).toEqual([{ value: 'safe\u202Etxt.exe', title: 'safe⟨U+202E⟩txt.exe' }]);
    expect(titled.options).toEqual([
      { value: 'a\u200B', title: 'Allow⟨U+200B⟩' },
      { value: 'b\u2066', title: 'b⟨U+2066⟩' },
    ]);
  });
});
