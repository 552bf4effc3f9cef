/**
 * The live validator for elicitation forms, and the builder of an accepted answer's `content`.
 *
 * The renderer runs this on every change to give feedback; main runs ajv on the same model
 * (main/core/elicitation/answer-check.ts) before anything leaves, and the two agree: a
 * property test holds them to it. It generates no code (the renderer's CSP forbids eval),
 * evaluates the agent's `pattern` only with re2js (linear time, so no pattern can hang the
 * UI), and reuses ajv-formats' own format definitions so formats agree with main exactly.
 * Pure: imports no Node, DOM or Electron API.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { RE2JS } from 're2js';
import type { AnswerContent, FormField, FormModel, KnownFormat } from './form-model.js';

/** The form's values as the renderer holds them: field name to raw value. */
export type FormValues = { readonly [name: string]: unknown };

/** What is wrong with a form: messages per field name, and messages about the whole form. */
export type FormErrors = {
  /**
   * Only fields with at least one message appear. A null-prototype object, so a field named
   * `toString` with no messages reads as `undefined`, not as Object.prototype's method.
   */
  fields: { [name: string]: string[] };
  form: string[];
};

/** The outcome of compiling an agent's `pattern` with re2js. */
export type PatternCheck =
  { ok: true; test: (value: string) => boolean } | { ok: false; reason: string };

/**
 * Every message the form shows, shared with main's answer check so both say the same thing.
 *
 * Each is an instruction to the user, in plain words.
 */
export const formMessages = {
  required: 'This field is required',
  text: 'Enter text',
  tooShort: (min: number) => `Enter at least ${min} ${min === 1 ? 'character' : 'characters'}`,
  tooLong: (max: number) => `Enter at most ${max} ${max === 1 ? 'character' : 'characters'}`,
  pattern: 'Enter a value in the format this field asks for',
  patternUnusable: "Airlock cannot check this field's pattern, so it cannot be answered",
  format: {
    email: 'Enter a valid email address',
    uri: 'Enter a valid URL, such as https://example.com/page',
    date: 'Enter a valid date, such as 2026-07-28',
    'date-time': 'Enter a valid date and time with a time zone, such as 2026-07-28T09:30:00Z',
  } satisfies Record<KnownFormat, string>,
  number: 'Enter a number',
  integer: 'Enter a whole number',
  atLeast: (min: number) => `Enter ${min} or more`,
  atMost: (max: number) => `Enter ${max} or less`,
  boolean: 'Choose yes or no',
  choice: 'Choose one of the options',
  choices: 'Choose only from the options',
  fewItems: (min: number) => `Choose at least ${min}`,
  manyItems: (max: number) => `Choose at most ${max}`,
  duplicate: 'Choose each option only once',
  unsupported: 'Airlock cannot show this field, so it cannot be answered',
  unanswerable: 'This form needs an answer Airlock cannot collect: decline or cancel it instead',
  notAField: 'This is not a field of the form',
  notAnObject: 'The answer is not a set of fields',
} as const;

const patternCache = new Map<string, PatternCheck>();
const PATTERN_CACHE_SIZE = 256;

/**
 * Most counted repetitions (`{n}`, `{n,m}`, their largest counts added up) a pattern may ask
 * for. re2js matches in linear time, but the time per character grows with the compiled
 * program, and a short pattern such as `\pL{1000}` repeated compiles to a huge one; honest
 * patterns count to a few dozen.
 */
export const PATTERN_REPEAT_BUDGET = 1_000;
/** Most instructions a compiled pattern may have (see {@link PATTERN_REPEAT_BUDGET}). */
export const PATTERN_PROGRAM_BUDGET = 2_000;

/**
 * Compiles an agent's `pattern` with re2js, the only engine that may run it.
 *
 * The pattern is ECMAScript syntax (JSON Schema's); re2js translates what it can (named groups,
 * `\u{…}`) and refuses what needs backtracking (lookahead, backreferences). Matching is a search,
 * as in JSON Schema: anchor with `^…$` to match the whole value. Main refuses a schema whose
 * pattern does not compile, so the `ok: false` path here is defence in depth.
 */
export function compilePattern(pattern: string): PatternCheck {
  const cached = patternCache.get(pattern);
  if (cached) {
    return cached;
  }
  let check: PatternCheck;
  try {
    // Counted before compiling, which itself takes time in proportion to the repetitions.
    if (repetitions(pattern) > PATTERN_REPEAT_BUDGET) {
      throw new Error(`it repeats more than ${PATTERN_REPEAT_BUDGET} times in all`);
    }
    const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    if (re.programSize() > PATTERN_PROGRAM_BUDGET) {
      throw new Error(`it compiles to more than ${PATTERN_PROGRAM_BUDGET} instructions`);
    }
    check = { ok: true, test: (value) => re.test(value) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    check = { ok: false, reason: detail.slice(0, 300) };
  }
  if (patternCache.size >= PATTERN_CACHE_SIZE) {
    patternCache.clear();
  }
  patternCache.set(pattern, check);
  return check;
}

/** The largest counts of a pattern's counted repetitions, added up (an upper bound). */
function repetitions(pattern: string): number {
  let total = 0;
  for (const match of pattern.matchAll(/\{(\d{1,9})(?:,(\d{0,9}))?\}/g)) {
    total += Math.max(Number(match[1]), Number(match[2] || 0));
  }
  return total;
}

type Format = (typeof fullFormats)[KnownFormat];

/** A format from ajv-formats as a plain test, applied the way ajv applies it. */
function formatTest(format: Format): (value: string) => boolean {
  if (format instanceof RegExp) {
    return (value) => format.test(value);
  }
  if (typeof format === 'function') {
    return (value) => format(value) === true;
  }
  if (typeof format === 'object' && 'validate' in format) {
    return formatTest(format.validate as Format);
  }
  throw new Error('ajv-formats defines a format in a shape this validator does not know');
}

const formatTests: Record<KnownFormat, (value: string) => boolean> = {
  email: formatTest(fullFormats.email),
  uri: formatTest(fullFormats.uri),
  date: formatTest(fullFormats.date),
  'date-time': formatTest(fullFormats['date-time']),
};

/**
 * Whether a string satisfies one of the known formats, exactly as ajv-formats (full mode) says.
 */
export function matchesFormat(format: KnownFormat, value: string): boolean {
  return formatTests[format](value);
}

/**
 * The length of a string in Unicode code points, as JSON Schema (and ajv) counts it.
 *
 * A surrogate pair is one character; a lone surrogate is one too.
 */
export function codePointLength(value: string): number {
  let length = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    length++;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
      }
    }
  }
  return length;
}

// A decimal number as a text input holds it. Each part is unambiguous, so it runs in linear
// time; it is a fixed pattern of ours, never agent input.
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The value a field would send: `undefined` when the field is blank (not answered). */
function answerValue(field: FormField, raw: unknown): unknown {
  if (raw === undefined || raw === null || raw === '') {
    return undefined;
  }
  // An optional multi-select with nothing chosen is not answered; a required one answers "none".
  if (field.kind === 'multi-select' && Array.isArray(raw) && raw.length === 0 && !field.required) {
    return undefined;
  }
  if ((field.kind === 'number' || field.kind === 'integer') && typeof raw === 'string') {
    const number = DECIMAL.test(raw) ? Number(raw) : NaN;
    return Number.isFinite(number) ? number : raw;
  }
  if (Array.isArray(raw)) {
    return [...(raw as unknown[])];
  }
  return raw;
}

/**
 * The messages for one field's raw value; empty when the value is acceptable.
 *
 * Blank (`undefined`, `null`, `""`, or `[]` for an optional multi-select) is fine unless the
 * field is required. A number field also takes a decimal string, as a text input holds it.
 */
export function validateField(field: FormField, raw: unknown): string[] {
  const value = answerValue(field, raw);
  if (value === undefined) {
    return field.required ? [formMessages.required] : [];
  }
  switch (field.kind) {
    case 'string':
      return typeof value === 'string' ? stringErrors(field, value) : [formMessages.text];
    case 'number':
    case 'integer':
      return numberErrors(field, value);
    case 'boolean':
      return typeof value === 'boolean' ? [] : [formMessages.boolean];
    case 'single-select':
      return field.options.some((option) => option.value === value) ? [] : [formMessages.choice];
    case 'multi-select':
      return multiSelectErrors(field, value);
    case 'unsupported':
      return [formMessages.unsupported];
  }
}

function stringErrors(field: FormField & { kind: 'string' }, value: string): string[] {
  const errors: string[] = [];
  const length = codePointLength(value);
  if (field.minLength !== undefined && length < field.minLength) {
    errors.push(formMessages.tooShort(field.minLength));
  }
  if (field.maxLength !== undefined && length > field.maxLength) {
    errors.push(formMessages.tooLong(field.maxLength));
  }
  if (field.pattern !== undefined) {
    const pattern = compilePattern(field.pattern);
    if (!pattern.ok) {
      errors.push(formMessages.patternUnusable);
    } else if (!pattern.test(value)) {
      errors.push(formMessages.pattern);
    }
  }
  if (field.format !== undefined && !matchesFormat(field.format, value)) {
    errors.push(formMessages.format[field.format]);
  }
  return errors;
}

function numberErrors(field: FormField & { kind: 'number' | 'integer' }, value: unknown): string[] {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return [field.kind === 'integer' ? formMessages.integer : formMessages.number];
  }
  const errors: string[] = [];
  if (field.kind === 'integer' && !Number.isInteger(value)) {
    errors.push(formMessages.integer);
  }
  if (field.minimum !== undefined && value < field.minimum) {
    errors.push(formMessages.atLeast(field.minimum));
  }
  if (field.maximum !== undefined && value > field.maximum) {
    errors.push(formMessages.atMost(field.maximum));
  }
  return errors;
}

function multiSelectErrors(field: FormField & { kind: 'multi-select' }, value: unknown): string[] {
  if (!Array.isArray(value)) {
    return [formMessages.choices];
  }
  const errors: string[] = [];
  const allowed = new Set(field.options.map((option) => option.value));
  if (!value.every((item) => typeof item === 'string' && allowed.has(item))) {
    errors.push(formMessages.choices);
  }
  // As ajv checks `uniqueItems` for string items: values of another type are not compared.
  const strings = value.filter((item) => typeof item === 'string');
  if (new Set(strings).size !== strings.length) {
    errors.push(formMessages.duplicate);
  }
  if (field.minItems !== undefined && value.length < field.minItems) {
    errors.push(formMessages.fewItems(field.minItems));
  }
  if (field.maxItems !== undefined && value.length > field.maxItems) {
    errors.push(formMessages.manyItems(field.maxItems));
  }
  return errors;
}

/** A field's raw value, read only from the values' own properties (never inherited ones). */
function rawValue(values: unknown, name: string): unknown {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    return undefined;
  }
  return Object.hasOwn(values, name) ? (values as FormValues)[name] : undefined;
}

/**
 * Validates the whole form, for live feedback in the renderer.
 *
 * Returns messages per field (blank optional fields are fine; required ones must be answered)
 * and form-level messages. Values for names that are not fields are ignored: they are never
 * sent. Values that are not an object count as an empty form.
 */
export function validateForm(model: FormModel, values: FormValues | undefined): FormErrors {
  const fields: FormErrors['fields'] = Object.create(null);
  for (const field of model.fields) {
    const messages = validateField(field, rawValue(values, field.name));
    if (messages.length > 0) {
      Object.defineProperty(fields, field.name, { value: messages, enumerable: true });
    }
  }
  const unanswerable = model.fields.some((field) => field.kind === 'unsupported' && field.required);
  return { fields, form: unanswerable ? [formMessages.unanswerable] : [] };
}

/** Whether a validation result holds no message at all. */
export function isFormValid(errors: FormErrors): boolean {
  return errors.form.length === 0 && Object.keys(errors.fields).length === 0;
}

/**
 * The `content` of an `accept` answer: only the answered fields, typed as the schema says.
 *
 * A blank field is left out (never `null`, never `""`), so an untouched optional boolean is not
 * sent; a decimal string in a number field becomes a number; a multi-select is a list of
 * strings. A value that cannot be typed is passed on unchanged rather than repaired, so main's
 * check refuses it: send only what `validateForm` accepts.
 */
export function answerContent(model: FormModel, values: FormValues | undefined): AnswerContent {
  const entries = model.fields
    .map((field) => [field.name, answerValue(field, rawValue(values, field.name))] as const)
    .filter(([, value]) => value !== undefined);
  // The cast covers only values validateForm would refuse, which main's check refuses too.
  return Object.fromEntries(entries) as AnswerContent;
}
