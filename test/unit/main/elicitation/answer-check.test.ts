import Ajv from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  answerCheckReady,
  checkAnswer,
  prepareAnswerCheck,
} from '../../../../main/core/elicitation/answer-check.js';
import { normaliseFormSchema } from '../../../../main/core/elicitation/form-schema.js';
import type { FormModel } from '../../../../preload/shared/form-model.js';
import { formMessages } from '../../../../preload/shared/form-validator.js';

function model(schema: unknown): FormModel {
  const result = normaliseFormSchema(schema);
  if (!result.ok) {
    throw new Error(result.reason);
  }
  return result.model;
}

const everything = model({
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    phone: { type: 'string', format: 'phone' },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    count: { type: 'integer', minimum: 1, maximum: 3 },
    force: { type: 'boolean' },
    plain: { type: 'string', enum: ['a', 'b'] },
    titled: {
      type: 'string',
      oneOf: [
        { const: 'x', title: 'X' },
        { const: 'y', title: 'Y' },
      ],
    },
    many: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
    manyTitled: { type: 'array', items: { anyOf: [{ const: 'p', title: 'P' }] } },
    other: { type: '_thing' },
  },
  required: ['name'],
});

const valid = {
  name: 'abc',
  email: 'a@example.com',
  site: 'https://example.com/x',
  day: '2024-02-29',
  at: '2024-02-29T12:00:00Z',
  phone: 'anything at all',
  ratio: 0.5,
  count: 2,
  force: false,
  plain: 'b',
  titled: 'y',
  many: ['a', 'c'],
  manyTitled: ['p'],
};

describe('checkAnswer: accepts what fits the form', () => {
  it('accepts an answer with every kind of field and returns it typed', () => {
    expect(checkAnswer(everything, valid)).toEqual({ ok: true, content: valid });
  });

  it('accepts only the required fields', () => {
    expect(checkAnswer(everything, { name: 'ab' })).toEqual({ ok: true, content: { name: 'ab' } });
  });

  it('treats null and undefined content as {}, as ACP does', () => {
    const optional = model({ properties: { a: { type: 'string' } } });
    expect(checkAnswer(optional, null)).toEqual({ ok: true, content: {} });
    expect(checkAnswer(optional, undefined)).toEqual({ ok: true, content: {} });
    expect(checkAnswer(everything, null)).toEqual({
      ok: false,
      errors: [{ field: 'name', message: 'This field is required' }],
    });
  });
});

describe('checkAnswer: refuses, naming the field in the renderer words', () => {
  it.each([
    ['name', 'a', 'Enter at least 2 characters'],
    ['name', 'abcdef', 'Enter at most 5 characters'],
    ['name', 'ABC', formMessages.pattern],
    ['name', 3, 'Enter text'],
    ['email', 'nope', 'Enter a valid email address'],
    ['site', 'nope', formMessages.format.uri],
    ['day', '2023-02-29', formMessages.format.date],
    ['at', '2024-02-29T12:00:00', formMessages.format['date-time']],
    ['ratio', -0.1, 'Enter 0 or more'],
    ['ratio', 1.1, 'Enter 1 or less'],
    ['ratio', '0.5', 'Enter a number'],
    ['count', 1.5, 'Enter a whole number'],
    ['force', 'false', 'Choose yes or no'],
    ['plain', 'c', 'Choose one of the options'],
    ['titled', 'z', 'Choose one of the options'],
    ['many', [], 'Choose at least 1'],
    ['many', ['a', 'b', 'c'], 'Choose at most 2'],
    ['many', ['a', 'a'], 'Choose each option only once'],
    ['many', ['z'], 'Choose only from the options'],
    ['manyTitled', ['q'], 'Choose only from the options'],
    ['manyTitled', 'p', 'Choose only from the options'],
    ['other', 'x', 'Airlock cannot show this field, so it cannot be answered'],
    ['plain', null, 'Choose one of the options'],
  ])('refuses %s = %j', (field, value, message) => {
    expect(checkAnswer(everything, { ...valid, [field]: value })).toEqual({
      ok: false,
      errors: [{ field, message }],
    });
  });

  // Answers cross IPC by structured clone, which carries NaN and Infinity; JSON has neither,
  // so the agent must never receive them (ajv's strict mode counts them as no number).
  it.each([NaN, Infinity, -Infinity])('refuses %s as a number', (number) => {
    const numbers = model({ properties: { n: { type: 'number' }, i: { type: 'integer' } } });
    expect(checkAnswer(numbers, { n: number, i: number })).toEqual({
      ok: false,
      errors: [
        { field: 'n', message: 'Enter a number' },
        { field: 'i', message: 'Enter a whole number' },
      ],
    });
  });

  it('refuses a field that is not in the form', () => {
    expect(checkAnswer(everything, { ...valid, extra: 1 })).toEqual({
      ok: false,
      errors: [{ field: 'extra', message: 'This is not a field of the form' }],
    });
  });

  it.each([['x'], [[]], [5]])('refuses content %j that is not an object', (content) => {
    expect(checkAnswer(everything, content)).toEqual({
      ok: false,
      errors: [{ message: 'The answer is not a set of fields' }],
    });
  });

  it('reports every problem, each once', () => {
    const result = checkAnswer(everything, { name: 'A', count: 9, many: ['z', 'z'] });
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: 'name', message: 'Enter at least 2 characters' },
        { field: 'name', message: formMessages.pattern },
        { field: 'count', message: 'Enter 3 or less' },
        { field: 'many', message: 'Choose only from the options' },
        { field: 'many', message: 'Choose each option only once' },
      ],
    });
  });

  it('names fields whose names need JSON Pointer escaping', () => {
    const escaped = model({
      properties: { 'a/b': { type: 'integer' }, 'c~d': { type: 'integer' } },
    });
    expect(checkAnswer(escaped, { 'a/b': 'x', 'c~d': 'y' })).toEqual({
      ok: false,
      errors: [
        { field: 'a/b', message: 'Enter a whole number' },
        { field: 'c~d', message: 'Enter a whole number' },
      ],
    });
  });

  it('never finds a required field on Object.prototype', () => {
    const inherited = model({
      properties: { constructor: { type: 'string' }, toString: { type: 'string' } },
      required: ['constructor', 'toString'],
    });
    expect(checkAnswer(inherited, {})).toEqual({
      ok: false,
      errors: [
        { field: 'constructor', message: 'This field is required' },
        { field: 'toString', message: 'This field is required' },
      ],
    });
    expect(checkAnswer(inherited, { constructor: 'a', toString: 'b' }).ok).toBe(true);
  });

  it('refuses any answer to a required field it cannot show, and accepts none when optional', () => {
    const required = model({ properties: { u: { type: '_x' } }, required: ['u'] });
    expect(checkAnswer(required, {}).ok).toBe(false);
    expect(checkAnswer(required, { u: 'x' }).ok).toBe(false);
    expect(checkAnswer(model({ properties: { u: { type: '_x' } } }), {}).ok).toBe(true);
  });
});

describe('checkAnswer: patterns run only on re2js', () => {
  it('runs RE2 syntax JavaScript RegExp would reject', () => {
    // `(?i)` is a syntax error for a JavaScript RegExp; only re2js understands it.
    const flags = model({ properties: { a: { type: 'string', pattern: '^(?i)abc$' } } });
    expect(checkAnswer(flags, { a: 'ABC' })).toEqual({ ok: true, content: { a: 'ABC' } });
    expect(checkAnswer(flags, { a: 'abd' }).ok).toBe(false);
  });

  it('makes a field with a pattern re2js cannot compile unanswerable, but lets it stay blank', () => {
    const broken: FormModel = {
      fields: [{ name: 'a', required: false, kind: 'string', pattern: '(?=a)a' }],
    };
    expect(checkAnswer(broken, {})).toEqual({ ok: true, content: {} });
    expect(checkAnswer(broken, { a: 'a' })).toEqual({
      ok: false,
      errors: [{ field: 'a', message: formMessages.patternUnusable }],
    });
  });

  it('answers correctly for ^(a+)+$ against 100 KB of a and a final !', () => {
    const catastrophic = model({ properties: { a: { type: 'string', pattern: '^(a+)+$' } } });
    expect(checkAnswer(catastrophic, { a: `${'a'.repeat(100_000)}!` })).toEqual({
      ok: false,
      errors: [{ field: 'a', message: formMessages.pattern }],
    });
    expect(checkAnswer(catastrophic, { a: 'a'.repeat(100_000) }).ok).toBe(true);
  });

  it('keeps two fields with different patterns apart', () => {
    const two = model({
      properties: { a: { type: 'string', pattern: '^a$' }, b: { type: 'string', pattern: '^b$' } },
    });
    expect(checkAnswer(two, { a: 'a', b: 'b' }).ok).toBe(true);
    expect(checkAnswer(two, { a: 'b', b: 'a' }).ok).toBe(false);
  });
});

describe('checkAnswer: compiled once per model', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('compiles a model on its first check only, and a new model object afresh', () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    const schema = { properties: { a: { type: 'string' } } };
    const first = model(schema);
    checkAnswer(first, { a: 'x' });
    checkAnswer(first, { a: 'y' });
    expect(compile).toHaveBeenCalledTimes(1);
    checkAnswer(model(schema), { a: 'x' });
    expect(compile).toHaveBeenCalledTimes(2);
  });

  it('compiles ahead of the answer when asked, once, and says whether it has', () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    const ahead = model({ properties: { a: { type: 'string' } } });
    expect(answerCheckReady(ahead)).toBe(false);
    prepareAnswerCheck(ahead);
    expect(answerCheckReady(ahead)).toBe(true);
    expect(compile).toHaveBeenCalledTimes(1);
    prepareAnswerCheck(ahead);
    expect(checkAnswer(ahead, { a: 'x' }).ok).toBe(true);
    expect(compile).toHaveBeenCalledTimes(1);
    expect(answerCheckReady(model({ properties: { a: { type: 'string' } } }))).toBe(false);
  });

  it('compiles without a word on the console (the schema is not checked against a meta-schema)', () => {
    const warn = vi.spyOn(console, 'warn');
    const log = vi.spyOn(console, 'log');
    expect(checkAnswer(model({ properties: { a: { type: 'string' } } }), { a: 'x' }).ok).toBe(true);
    expect(warn).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
  });
});
