import { describe, expect, it } from 'vitest';
import {
  FormModel,
  formModelToJsonSchema,
  MODEL_FIELDS_CEILING,
  MODEL_OPTIONS_CEILING,
  MODEL_TEXT_CEILING,
  type FormField,
} from '../../../preload/shared/form-model.js';

const every: FormModel = {
  title: 'Form',
  description: 'About',
  fields: [
    {
      name: 's',
      title: 'S',
      description: 'D',
      required: true,
      kind: 'string',
      minLength: 0,
      maxLength: 5,
      pattern: '^a',
      format: 'email',
      default: '',
    },
    { name: 'u', required: false, kind: 'string', unknownFormat: 'phone' },
    { name: 'n', required: false, kind: 'number', minimum: -1.5, maximum: 0, default: 0 },
    { name: 'i', required: false, kind: 'integer', default: 0 },
    { name: 'b', required: false, kind: 'boolean', default: false },
    {
      name: 'one',
      required: false,
      kind: 'single-select',
      titled: false,
      options: [{ value: 'a', title: 'a' }],
      default: 'a',
    },
    {
      name: 'oneTitled',
      required: false,
      kind: 'single-select',
      titled: true,
      options: [
        { value: 'a', title: 'A', description: 'first' },
        { value: 'b', title: 'B' },
      ],
    },
    {
      name: 'many',
      required: false,
      kind: 'multi-select',
      titled: false,
      options: [{ value: 'a', title: 'a' }],
      minItems: 0,
      maxItems: 1,
      default: [],
    },
    {
      name: 'manyTitled',
      required: false,
      kind: 'multi-select',
      titled: true,
      options: [{ value: 'a', title: 'A' }],
    },
    { name: 'x', title: 'X', required: true, kind: 'unsupported', reason: 'unknown type' },
  ],
};

describe('formModelToJsonSchema', () => {
  it('builds the flat schema for every kind, keeping falsy defaults and leaving unknown formats out', () => {
    // Strict: a key whose value is undefined would still be a key of the schema RJSF reads.
    expect(formModelToJsonSchema(every)).toStrictEqual({
      type: 'object',
      title: 'Form',
      description: 'About',
      properties: {
        s: {
          type: 'string',
          title: 'S',
          description: 'D',
          minLength: 0,
          maxLength: 5,
          pattern: '^a',
          format: 'email',
          default: '',
        },
        u: { type: 'string' },
        n: { type: 'number', minimum: -1.5, maximum: 0, default: 0 },
        i: { type: 'integer', default: 0 },
        b: { type: 'boolean', default: false },
        one: { type: 'string', enum: ['a'], default: 'a' },
        oneTitled: {
          type: 'string',
          oneOf: [
            { const: 'a', title: 'A', description: 'first' },
            { const: 'b', title: 'B' },
          ],
        },
        many: {
          type: 'array',
          items: { type: 'string', enum: ['a'] },
          uniqueItems: true,
          minItems: 0,
          maxItems: 1,
          default: [],
        },
        manyTitled: {
          type: 'array',
          items: { type: 'string', anyOf: [{ const: 'a', title: 'A' }] },
          uniqueItems: true,
        },
        x: { title: 'X', not: {} },
      },
      required: ['s', 'x'],
      additionalProperties: false,
    });
  });

  it('gives even a field named __proto__ an own property', () => {
    const schema = formModelToJsonSchema({
      fields: [{ name: '__proto__', required: false, kind: 'boolean' }],
    });
    expect(Object.hasOwn(schema.properties as object, '__proto__')).toBe(true);
  });
});

describe('FormModel: the zod schema for the IPC boundary', () => {
  it('accepts a model with every kind of field', () => {
    expect(FormModel.parse(every)).toEqual(every);
  });

  const withField = (field: object) => ({ fields: [field] });
  const text = { name: 'f', required: false, kind: 'string' };

  it.each([
    ['an unknown kind', withField({ ...text, kind: 'date' })],
    ['an empty name', withField({ ...text, name: '' })],
    ['the name __proto__', withField({ ...text, name: '__proto__' })],
    ['a negative length', withField({ ...text, minLength: -1 })],
    ['a fractional length', withField({ ...text, maxLength: 1.5 })],
    ['an unknown format as format', withField({ ...text, format: 'phone' })],
    [
      'an infinite bound',
      withField({ name: 'f', required: false, kind: 'number', maximum: Infinity }),
    ],
    [
      'a string default on a boolean',
      withField({ name: 'f', required: false, kind: 'boolean', default: 'true' }),
    ],
    [
      'no options',
      withField({ name: 'f', required: false, kind: 'single-select', titled: false, options: [] }),
    ],
    [
      'duplicate options',
      withField({
        name: 'f',
        required: false,
        kind: 'multi-select',
        titled: false,
        options: [
          { value: 'a', title: 'a' },
          { value: 'a', title: 'b' },
        ],
      }),
    ],
    ['duplicate names', { fields: [text, text] }],
    [
      'an unsupported field without a reason',
      withField({ name: 'f', required: false, kind: 'unsupported' }),
    ],
  ])('refuses %s', (_name, model) => {
    expect(FormModel.safeParse(model).success).toBe(false);
  });

  it.each(['email', 'uri', 'date', 'date-time'])('knows the format %s', (format) => {
    expect(FormModel.safeParse(withField({ ...text, format })).success).toBe(true);
  });

  it.each([
    ['the name __proto__', withField({ ...text, name: '__proto__' }), 'reserved property name'],
    [
      'duplicate options',
      withField({
        name: 'f',
        required: false,
        kind: 'single-select',
        titled: false,
        options: [
          { value: 'a', title: 'a' },
          { value: 'a', title: 'b' },
        ],
      }),
      'duplicate option values',
    ],
    ['duplicate names', { fields: [text, text] }, 'duplicate field names'],
  ])('says why it refuses %s', (_name, model, message) => {
    expect(FormModel.safeParse(model).error?.issues.map((issue) => issue.message)).toEqual([
      message,
    ]);
  });

  it('bounds every string', () => {
    const long = 'a'.repeat(MODEL_TEXT_CEILING + 1);
    const at = 'a'.repeat(MODEL_TEXT_CEILING);
    for (const key of ['name', 'title', 'description', 'pattern', 'unknownFormat', 'default']) {
      expect(FormModel.safeParse(withField({ ...text, [key]: at })).success).toBe(true);
      expect(FormModel.safeParse(withField({ ...text, [key]: long })).success).toBe(false);
    }
    expect(FormModel.safeParse({ fields: [], title: long }).success).toBe(false);
    expect(
      FormModel.safeParse(
        withField({ name: 'f', required: false, kind: 'unsupported', reason: long }),
      ).success,
    ).toBe(false);
    expect(
      FormModel.safeParse(
        withField({
          name: 'f',
          required: false,
          kind: 'single-select',
          titled: false,
          options: [{ value: long, title: 'a' }],
        }),
      ).success,
    ).toBe(false);
  });

  it('bounds every list', () => {
    const fields = (count: number) =>
      Array.from({ length: count }, (_, i): FormField => ({
        name: `f${i}`,
        required: false,
        kind: 'boolean',
      }));
    expect(FormModel.safeParse({ fields: fields(MODEL_FIELDS_CEILING) }).success).toBe(true);
    expect(FormModel.safeParse({ fields: fields(MODEL_FIELDS_CEILING + 1) }).success).toBe(false);
    const options = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ value: `o${i}`, title: `o${i}` }));
    const select = (count: number) =>
      withField({
        name: 'f',
        required: false,
        kind: 'multi-select',
        titled: false,
        options: options(count),
      });
    expect(FormModel.safeParse(select(MODEL_OPTIONS_CEILING)).success).toBe(true);
    expect(FormModel.safeParse(select(MODEL_OPTIONS_CEILING + 1)).success).toBe(false);
    const chosen = (count: number) =>
      withField({
        name: 'f',
        required: false,
        kind: 'multi-select',
        titled: false,
        options: [{ value: 'a', title: 'a' }],
        default: Array.from({ length: count }, () => 'a'),
      });
    expect(FormModel.safeParse(chosen(MODEL_OPTIONS_CEILING)).success).toBe(true);
    expect(FormModel.safeParse(chosen(MODEL_OPTIONS_CEILING + 1)).success).toBe(false);
  });
});
