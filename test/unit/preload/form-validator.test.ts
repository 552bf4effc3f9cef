import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FormField, FormModel } from '../../../preload/shared/form-model.js';
import {
  answerContent,
  codePointLength,
  compilePattern,
  PATTERN_PROGRAM_BUDGET,
  PATTERN_REPEAT_BUDGET,
  formMessages,
  isFormValid,
  matchesFormat,
  validateField,
  validateForm,
} from '../../../preload/shared/form-validator.js';

const text = (extra: Partial<FormField & { kind: 'string' }> = {}): FormField => ({
  name: 'f',
  required: false,
  kind: 'string',
  ...extra,
});
const select = (kind: 'single-select' | 'multi-select', extra: object = {}): FormField =>
  ({
    name: 'f',
    required: false,
    kind,
    titled: false,
    options: ['a', 'b', 'c'].map((value) => ({ value, title: value })),
    ...extra,
  }) as FormField;

describe('validateField: blank and required', () => {
  it.each([undefined, null, ''])('allows %j in an optional field', (value) => {
    expect(validateField(text(), value)).toEqual([]);
  });

  it.each([undefined, null, ''])('refuses %j in a required field', (value) => {
    expect(validateField(text({ required: true }), value)).toEqual(['This field is required']);
  });

  it('counts nothing chosen in an optional multi-select as blank, whatever minItems says', () => {
    expect(validateField(select('multi-select', { minItems: 2 }), [])).toEqual([]);
  });

  it('counts nothing chosen in a required multi-select as an answer, checked against minItems', () => {
    expect(validateField(select('multi-select', { required: true }), [])).toEqual([]);
    expect(validateField(select('multi-select', { required: true, minItems: 1 }), [])).toEqual([
      'Choose at least 1',
    ]);
  });

  it('treats false and 0 as answers, not blanks', () => {
    const bool: FormField = { name: 'f', required: true, kind: 'boolean' };
    const num: FormField = { name: 'f', required: true, kind: 'number' };
    expect(validateField(bool, false)).toEqual([]);
    expect(validateField(num, 0)).toEqual([]);
  });
});

describe('validateField: strings', () => {
  it('says how many characters, singular and plural', () => {
    expect(validateField(text({ minLength: 3 }), 'ab')).toEqual(['Enter at least 3 characters']);
    expect(validateField(text({ minLength: 1 }), ' ')).toEqual([]);
    expect(validateField(text({ maxLength: 1 }), 'ab')).toEqual(['Enter at most 1 character']);
    expect(validateField(text({ maxLength: 2 }), 'abc')).toEqual(['Enter at most 2 characters']);
    expect(validateField(text({ minLength: 3, maxLength: 3 }), 'abc')).toEqual([]);
  });

  it('counts characters as code points, as JSON Schema does', () => {
    expect(validateField(text({ maxLength: 2 }), '😀😀')).toEqual([]);
    expect(validateField(text({ minLength: 3 }), '😀😀')).toEqual(['Enter at least 3 characters']);
  });

  it('checks the pattern as a search, anchored only where the pattern says', () => {
    expect(validateField(text({ pattern: 'b' }), 'abc')).toEqual([]);
    expect(validateField(text({ pattern: '^b' }), 'abc')).toEqual([formMessages.pattern]);
  });

  it('makes a field with a pattern re2js cannot compile unanswerable, but lets it stay blank', () => {
    const field = text({ pattern: '(?=a)a' });
    expect(validateField(field, 'a')).toEqual([
      "Airlock cannot check this field's pattern, so it cannot be answered",
    ]);
    expect(validateField(field, '')).toEqual([]);
  });

  it.each([
    ['email', 'someone@example.com', 'not an email', 'Enter a valid email address'],
    ['uri', 'https://example.com/a?b#c', 'example.com', formMessages.format.uri],
    ['date', '2024-02-29', '2023-02-29', formMessages.format.date],
    [
      'date-time',
      '2024-01-01T10:00:00+02:00',
      '2024-01-01T10:00:00',
      formMessages.format['date-time'],
    ],
  ] as const)('checks the %s format', (format, good, bad, message) => {
    expect(validateField(text({ format }), good)).toEqual([]);
    expect(validateField(text({ format }), bad)).toEqual([message]);
  });

  it('does not check an unknown format', () => {
    expect(validateField(text({ unknownFormat: 'phone' }), 'anything')).toEqual([]);
  });

  it('reports every broken constraint at once', () => {
    expect(validateField(text({ minLength: 5, pattern: '^x', format: 'email' }), 'ab')).toEqual([
      'Enter at least 5 characters',
      formMessages.pattern,
      'Enter a valid email address',
    ]);
  });

  it('refuses a value that is not a string', () => {
    expect(validateField(text(), 5)).toEqual(['Enter text']);
  });

  it('takes a string that looks like a number as text, and refuses an empty list', () => {
    expect(validateField(text({ maxLength: 2 }), '42')).toEqual([]);
    expect(validateField(text(), [])).toEqual(['Enter text']);
  });
});

describe('validateField: numbers', () => {
  const number = (kind: 'number' | 'integer', extra: object = {}): FormField => ({
    name: 'f',
    required: false,
    kind,
    ...extra,
  });

  it('checks minimum and maximum inclusively', () => {
    const field = number('number', { minimum: 1, maximum: 2.5 });
    expect(validateField(field, 1)).toEqual([]);
    expect(validateField(field, 2.5)).toEqual([]);
    expect(validateField(field, 0.5)).toEqual(['Enter 1 or more']);
    expect(validateField(field, 3)).toEqual(['Enter 2.5 or less']);
  });

  it('refuses a fraction in an integer field', () => {
    expect(validateField(number('integer'), 1.5)).toEqual(['Enter a whole number']);
    expect(validateField(number('integer'), 2)).toEqual([]);
  });

  it('takes a decimal string as a text input holds it', () => {
    expect(validateField(number('number'), '-1.5e2')).toEqual([]);
    expect(validateField(number('integer'), '3.0')).toEqual([]);
    expect(validateField(number('number', { maximum: 1 }), '2')).toEqual(['Enter 1 or less']);
  });

  it.each(['2.25', '3.', '.25', '1e+2', '1E-2', '1e10', '-0.125e-10'])(
    'takes the decimal %s as a text input may hold it',
    (value) => {
      expect(validateField(number('number'), value)).toEqual([]);
    },
  );

  it('refuses an empty list, not counting it as blank', () => {
    expect(validateField(number('number'), [])).toEqual(['Enter a number']);
  });

  it.each([' 3', '3 ', 'abc', '1e400', '0x10', '.', '-', NaN, Infinity, true, [1]])(
    'refuses %j',
    (value) => {
      expect(validateField(number('number'), value)).toEqual(['Enter a number']);
      expect(validateField(number('integer'), value)).toEqual(['Enter a whole number']);
    },
  );
});

describe('validateField: booleans, selects and unsupported fields', () => {
  it('refuses a boolean field value that is not true or false', () => {
    const field: FormField = { name: 'f', required: false, kind: 'boolean' };
    expect(validateField(field, true)).toEqual([]);
    expect(validateField(field, 'true')).toEqual(['Choose yes or no']);
  });

  it('takes only one of the options in a single select', () => {
    expect(validateField(select('single-select'), 'b')).toEqual([]);
    expect(validateField(select('single-select'), 'z')).toEqual(['Choose one of the options']);
    expect(validateField(select('single-select'), ['a'])).toEqual(['Choose one of the options']);
  });

  it('checks a multi-select: options only, each once, within the counts', () => {
    const field = select('multi-select', { minItems: 2, maxItems: 2 });
    expect(validateField(field, ['a', 'c'])).toEqual([]);
    expect(validateField(field, ['a'])).toEqual(['Choose at least 2']);
    expect(validateField(field, ['a', 'b', 'c'])).toEqual(['Choose at most 2']);
    expect(validateField(field, ['a', 'a'])).toEqual(['Choose each option only once']);
    expect(validateField(field, ['a', 'z'])).toEqual(['Choose only from the options']);
    expect(validateField(field, ['a', 1])).toEqual(['Choose only from the options']);
    expect(validateField(field, 'a')).toEqual(['Choose only from the options']);
  });

  it('compares only string items for duplicates, as ajv does', () => {
    expect(validateField(select('multi-select'), [1, 1])).toEqual(['Choose only from the options']);
  });

  it('counts only a list with nothing chosen as blank, not another value of length 0', () => {
    expect(validateField(select('multi-select'), { length: 0 })).toEqual([
      'Choose only from the options',
    ]);
  });

  it('refuses any value for an unsupported field', () => {
    const field: FormField = { name: 'f', required: false, kind: 'unsupported', reason: 'r' };
    expect(validateField(field, '')).toEqual([]);
    expect(validateField(field, 'x')).toEqual([
      'Airlock cannot show this field, so it cannot be answered',
    ]);
  });
});

describe('validateForm', () => {
  const model: FormModel = {
    fields: [
      { name: 'name', required: true, kind: 'string', minLength: 3 },
      { name: 'age', required: false, kind: 'integer' },
      { name: 'constructor', required: true, kind: 'string' },
    ],
  };

  it('returns messages only for fields that have them', () => {
    const errors = validateForm(model, { name: 'ab', age: 3, constructor: 'x' });
    expect(errors).toEqual({ fields: { name: ['Enter at least 3 characters'] }, form: [] });
    expect(isFormValid(errors)).toBe(false);
  });

  it('accepts a complete form', () => {
    const errors = validateForm(model, { name: 'abc', constructor: 'x' });
    expect(errors).toEqual({ fields: {}, form: [] });
    expect(isFormValid(errors)).toBe(true);
  });

  it('reads only own values, never inherited ones', () => {
    const values = Object.create({ name: 'inherited' }) as Record<string, unknown>;
    expect(validateForm(model, values).fields).toEqual({
      name: ['This field is required'],
      constructor: ['This field is required'],
    });
  });

  it('ignores values for names that are not fields', () => {
    expect(validateForm(model, { name: 'abc', constructor: 'x', other: 1 })).toEqual({
      fields: {},
      form: [],
    });
  });

  it.each([undefined, null, 'x', ['abc']])('treats %j values as an empty form', (values) => {
    expect(validateForm(model, values as never).fields).toEqual({
      name: ['This field is required'],
      constructor: ['This field is required'],
    });
  });

  it('says at the form level when any one required field cannot be shown', () => {
    const errors = validateForm(
      {
        fields: [
          { name: 'u', required: true, kind: 'unsupported', reason: 'r' },
          { name: 's', required: false, kind: 'string' },
        ],
      },
      {},
    );
    expect(errors.form).toEqual([formMessages.unanswerable]);
  });

  it('says at the form level when a required field cannot be shown', () => {
    const errors = validateForm(
      { fields: [{ name: 'u', required: true, kind: 'unsupported', reason: 'r' }] },
      {},
    );
    expect(errors).toEqual({
      fields: { u: ['This field is required'] },
      form: ['This form needs an answer Airlock cannot collect: decline or cancel it instead'],
    });
  });

  it('says nothing at the form level for an optional field it cannot show', () => {
    const optional: FormModel = {
      fields: [{ name: 'u', required: false, kind: 'unsupported', reason: 'r' }],
    };
    expect(validateForm(optional, {})).toEqual({ fields: {}, form: [] });
  });

  it.each<[string, unknown]>([
    ['a list', ['abc']],
    ['a string', 'abc'],
  ])('reads no field from %s, even one named like its index', (_name, values) => {
    const indexed: FormModel = { fields: [{ name: '0', required: true, kind: 'string' }] };
    expect(validateForm(indexed, values as never).fields).toEqual({
      0: ['This field is required'],
    });
  });

  it('is not valid with only a form-level message', () => {
    expect(isFormValid({ fields: {}, form: ['x'] })).toBe(false);
  });
});

describe('answerContent', () => {
  const model: FormModel = {
    fields: [
      { name: 's', required: false, kind: 'string' },
      { name: 'i', required: false, kind: 'integer' },
      { name: 'n', required: false, kind: 'number' },
      { name: 'b', required: false, kind: 'boolean' },
      {
        name: 'one',
        required: false,
        kind: 'single-select',
        titled: false,
        options: [{ value: 'a', title: 'a' }],
      },
      {
        name: 'opt',
        required: false,
        kind: 'multi-select',
        titled: false,
        options: [{ value: 'a', title: 'a' }],
      },
      {
        name: 'req',
        required: true,
        kind: 'multi-select',
        titled: false,
        options: [{ value: 'a', title: 'a' }],
      },
    ],
  };

  it('sends only answered fields: never null, never "", never an untouched boolean', () => {
    expect(
      answerContent(model, { s: '', i: null, n: undefined, one: '', opt: [], req: [], extra: 1 }),
    ).toEqual({ req: [] });
  });

  it('keeps falsy answers: false, 0 and a required empty choice', () => {
    expect(answerContent(model, { b: false, i: 0, n: -0, req: [] })).toEqual({
      i: 0,
      n: -0,
      b: false,
      req: [],
    });
  });

  it('sends a string that looks like a number as a string', () => {
    expect(answerContent(model, { s: '42' })).toEqual({ s: '42' });
  });

  it('types numbers as numbers, integers included, from decimal strings', () => {
    const content = answerContent(model, { i: '42', n: '2.5e1' });
    expect(content).toEqual({ i: 42, n: 25 });
    expect(typeof content.i).toBe('number');
  });

  it('sends a multi-select as a fresh list of strings', () => {
    const chosen = ['a'];
    const content = answerContent(model, { opt: chosen });
    expect(content.opt).toEqual(['a']);
    expect(content.opt).not.toBe(chosen);
  });

  it('passes a value it cannot type unchanged, for main to refuse', () => {
    expect(answerContent(model, { i: 'abc', b: 'yes' })).toEqual({ i: 'abc', b: 'yes' });
  });

  it('follows the order of the fields and reads only own values', () => {
    const values = Object.create({ s: 'inherited' }) as Record<string, unknown>;
    values.one = 'a';
    values.s2 = 'x';
    expect(Object.keys(answerContent(model, { one: 'a', s: 'x' }))).toEqual(['s', 'one']);
    expect(answerContent(model, values)).toEqual({ one: 'a' });
  });

  it('gives even a field named __proto__ an own key, never a prototype', () => {
    // Main refuses the name; this guards the way content is built, not assignment.
    const proto: FormModel = { fields: [{ name: '__proto__', required: false, kind: 'string' }] };
    const content = answerContent(proto, JSON.parse('{"__proto__":"y"}'));
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
    expect(Object.hasOwn(content, '__proto__')).toBe(true);
    expect(JSON.stringify(content)).toBe('{"__proto__":"y"}');
  });
});

describe('compilePattern', () => {
  it('translates ECMAScript syntax re2js spells differently', () => {
    const named = compilePattern('^(?<word>\\w+)$');
    expect(named.ok && named.test('hello')).toBe(true);
    const braces = compilePattern('^\\u{1F600}$');
    expect(braces.ok && braces.test('😀')).toBe(true);
  });

  it('refuses backtracking-only syntax with re2js reason', () => {
    expect(compilePattern('(a)\\1')).toEqual({
      ok: false,
      reason: 'error parsing regexp: invalid escape sequence: `\\1`',
    });
  });

  it('refuses a pattern that repeats too much in all, before compiling it', () => {
    expect(compilePattern(`^a{${PATTERN_REPEAT_BUDGET}}$`).ok).toBe(true);
    expect(compilePattern(`^a{${PATTERN_REPEAT_BUDGET - 2}}b{1,2}$`).ok).toBe(true);
    expect(compilePattern(`^a{${PATTERN_REPEAT_BUDGET - 2}}b{1,3}$`)).toEqual({
      ok: false,
      reason: `it repeats more than ${PATTERN_REPEAT_BUDGET} times in all`,
    });
    expect(compilePattern('\\pL{1000}'.repeat(100)).ok).toBe(false);
  });

  it('refuses a pattern that compiles to too large a program', () => {
    // Classes without counts: nothing to count up front, so the compiled size decides.
    expect(compilePattern('[a-z]'.repeat(PATTERN_PROGRAM_BUDGET - 10)).ok).toBe(true);
    // One instruction a class, and two more: exactly the budget, then one past it.
    expect(compilePattern('[a-z]'.repeat(PATTERN_PROGRAM_BUDGET - 2)).ok).toBe(true);
    expect(compilePattern('[a-z]'.repeat(PATTERN_PROGRAM_BUDGET - 1)).ok).toBe(false);
    expect(compilePattern('[a-z]'.repeat(PATTERN_PROGRAM_BUDGET + 10))).toEqual({
      ok: false,
      reason: `it compiles to more than ${PATTERN_PROGRAM_BUDGET} instructions`,
    });
  });

  it('reuses a compiled pattern', () => {
    const first = compilePattern('^x$');
    expect(compilePattern('^y$')).not.toBe(first);
    expect(compilePattern('^x$')).toBe(first);
  });

  it('keeps at most 256 compiled patterns, then starts afresh', () => {
    // Other tests have filled the cache to some size: add patterns until the first is dropped.
    const first = compilePattern('^cache-0$');
    let added = 1;
    while (compilePattern('^cache-0$') === first && added < 1_000) {
      compilePattern(`^cache-${added++}$`);
    }
    expect(added).toBeLessThanOrEqual(257);
    // The cache now holds two: the one that emptied it and the first, compiled again.
    const again = compilePattern('^cache-0$');
    for (let i = 0; i < 254; i++) {
      compilePattern(`^refill-${i}$`);
    }
    expect(compilePattern('^cache-0$')).toBe(again);
    compilePattern('^refill-last$');
    expect(compilePattern('^cache-0$')).not.toBe(again);
  });

  it('counts a second count of many digits', () => {
    expect(compilePattern(`^a{1,${PATTERN_REPEAT_BUDGET + 1}}$`)).toEqual({
      ok: false,
      reason: `it repeats more than ${PATTERN_REPEAT_BUDGET} times in all`,
    });
  });

  it('keeps a long reason to 300 characters', () => {
    const check = compilePattern(`(${'a'.repeat(400)}`);
    expect(check).toEqual({ ok: false, reason: expect.stringMatching(/^error parsing regexp/) });
    expect(check.ok === false && check.reason.length).toBe(300);
  });
});

describe('codePointLength and matchesFormat', () => {
  it('counts a surrogate pair once and a lone surrogate once', () => {
    expect(codePointLength('a😀b')).toBe(3);
    expect(codePointLength('\ud800a')).toBe(2);
    expect(codePointLength('a\ud800')).toBe(2);
    expect(codePointLength('\udc00\ud800')).toBe(2);
    // The ends of both surrogate ranges, and the code units just outside them.
    expect(codePointLength('\ud800\udc00')).toBe(1);
    expect(codePointLength('\udbff\udfff')).toBe(1);
    expect(codePointLength('\ud7ff\udc00')).toBe(2);
    expect(codePointLength('\udc00\udc00')).toBe(2);
    expect(codePointLength('\ud800\udbff')).toBe(2);
    expect(codePointLength('\ud800\ue000')).toBe(2);
  });

  it('uses ajv-formats full mode: real calendar dates and a required time zone', () => {
    expect(matchesFormat('date', '2023-02-28')).toBe(true);
    expect(matchesFormat('date', '2023-13-01')).toBe(false);
    expect(matchesFormat('date-time', '2024-01-01T23:59:60Z')).toBe(true);
    expect(matchesFormat('date-time', '2024-01-01T10:00:00')).toBe(false);
    expect(matchesFormat('uri', 'urn:isbn:123')).toBe(true);
    expect(matchesFormat('uri', '/relative')).toBe(false);
  });
});

describe('ReDoS: a catastrophic pattern on 100 KB', () => {
  it('answers correctly for ^(a+)+$ against 100 KB of a and a final !', () => {
    const field = text({ pattern: '^(a+)+$' });
    expect(validateField(field, `${'a'.repeat(100_000)}!`)).toEqual([formMessages.pattern]);
    expect(validateField(field, 'a'.repeat(100_000))).toEqual([]);
  });

  it('checks formats on 100 KB inputs', () => {
    const long = 'a'.repeat(100_000);
    expect(matchesFormat('email', `${long}@${long}!`)).toBe(false);
    expect(matchesFormat('uri', `a:${long}`)).toBe(true);
    expect(matchesFormat('date-time', long)).toBe(false);
  });
});

describe('the shared preload modules stay pure', () => {
  const imports = (file: string) =>
    [
      ...readFileSync(new URL(`../../../preload/shared/${file}`, import.meta.url), 'utf8').matchAll(
        /^import .* from '([^']+)';$/gm,
      ),
    ].map((match) => match[1]);

  it('form-model imports only zod', () => {
    expect(imports('form-model.ts')).toEqual(['zod']);
  });

  it('form-validator imports no ajv (it compiles code) and no Node, DOM or Electron API', () => {
    expect(imports('form-validator.ts')).toEqual([
      'ajv-formats/dist/formats.js',
      're2js',
      './form-model.js',
    ]);
  });
});
