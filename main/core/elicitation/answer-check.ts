/**
 * The authoritative check of an accepted form answer, run in main before any answer leaves.
 *
 * ajv with ajv-formats compiles the JSON Schema built from the normalised model (never the
 * agent's raw schema) and checks the answer's `content`. The agent's `pattern` reaches ajv only
 * through a re2js engine (ajv's `code.regExp` option), so no pattern can make a check take more
 * than linear time. Messages are the renderer's (`formMessages`), so the user reads the same
 * words whichever side caught the problem.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import addFormats from 'ajv-formats';
import {
  formModelToJsonSchema,
  KNOWN_FORMATS,
  type AnswerContent,
  type FormField,
  type FormModel,
  type KnownFormat,
} from '../../../preload/shared/form-model.js';
import { compilePattern, formMessages } from '../../../preload/shared/form-validator.js';

/** One problem with an answer: the field it is about (if any) and what to do. */
export type AnswerError = { field?: string; message: string };

/** The verdict on an answer: its content, now known to fit the form, or what is wrong. */
export type AnswerCheck =
  { ok: true; content: AnswerContent } | { ok: false; errors: AnswerError[] };

/**
 * re2js as an ajv regular-expression engine.
 *
 * ajv calls it with each `pattern` and the flag `u` (ignored: re2js always matches code points).
 * A pattern re2js cannot compile matches nothing, so a field that uses it cannot be answered;
 * form-schema.ts refuses such a schema up front, so that path is defence in depth.
 */
const re2Engine: RegExpEngine = Object.assign(
  (pattern: string, _flags: string) => {
    const check = compilePattern(pattern);
    return {
      test: (value: string) => check.ok && check.test(value),
      // ajv keys its cache of compiled patterns by this string, so it must name the pattern.
      toString: () => `re2js:${pattern}`,
    };
  },
  // Only ajv's standalone code generation reads this; Airlock never generates standalone code.
  { code: 'airlockRe2Engine' },
);

// One ajv instance per model, dropped with it: a shared instance would keep every schema and
// pattern it ever compiled, and agents can send as many as they like.
const validators = new WeakMap<FormModel, ValidateFunction>();

function validatorFor(model: FormModel): ValidateFunction {
  const cached = validators.get(model);
  if (cached) {
    return cached;
  }
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    // A field named `constructor` or `toString` must not be found on Object.prototype.
    ownProperties: true,
    // The schema is built here from a checked model, so validating it against the draft-07
    // meta-schema adds nothing, and compiling that meta-schema per instance costs ~100 ms.
    validateSchema: false,
    meta: false,
    code: { regExp: re2Engine },
  });
  addFormats(ajv, { mode: 'full', formats: [...KNOWN_FORMATS] });
  const validate = ajv.compile(formModelToJsonSchema(model));
  validators.set(model, validate);
  return validate;
}

/**
 * Compiles the check for `model` ahead of its answer. Compiling takes milliseconds that would
 * otherwise fall between the user's Accept and the agent hearing it.
 */
export function prepareAnswerCheck(model: FormModel): void {
  validatorFor(model);
}

/** Whether the check for `model` is compiled already. */
export function answerCheckReady(model: FormModel): boolean {
  return validators.has(model);
}

/**
 * Checks an accepted answer's `content` against the form model.
 *
 * `null` and `undefined` count as `{}` (ACP treats an omitted `content` and `null` alike), so a
 * form with required fields refuses them. On success the content is returned typed; on failure
 * each error names its field where there is one, in the words the renderer uses.
 */
export function checkAnswer(model: FormModel, content: unknown): AnswerCheck {
  const answer = content ?? {};
  const validate = validatorFor(model);
  if (validate(answer)) {
    return { ok: true, content: answer as AnswerContent };
  }
  const fields = new Map(model.fields.map((field) => [field.name, field]));
  const seen = new Set<string>();
  const errors: AnswerError[] = [];
  for (const error of validate.errors ?? []) {
    const found = describe(error, fields);
    const key = JSON.stringify([found.field ?? null, found.message]);
    if (!seen.has(key)) {
      seen.add(key);
      errors.push(found);
    }
  }
  return { ok: false, errors };
}

function describe(error: ErrorObject, fields: Map<string, FormField>): AnswerError {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    return { field: String(params.missingProperty), message: formMessages.required };
  }
  if (error.keyword === 'additionalProperties') {
    return { field: String(params.additionalProperty), message: formMessages.notAField };
  }
  const name = fieldName(error.instancePath);
  const field = name === undefined ? undefined : fields.get(name);
  if (name === undefined || field === undefined) {
    return {
      message: error.instancePath === '' ? formMessages.notAnObject : String(error.message),
    };
  }
  return { field: name, message: fieldMessage(field, error, params) };
}

/** The field an error is about: the first segment of its JSON Pointer, unescaped. */
function fieldName(instancePath: string): string | undefined {
  const segment = instancePath.split('/')[1];
  return segment === undefined ? undefined : segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function fieldMessage(field: FormField, error: ErrorObject, params: Record<string, unknown>) {
  const limit = Number(params.limit);
  switch (error.keyword) {
    case 'minLength':
      return formMessages.tooShort(limit);
    case 'maxLength':
      return formMessages.tooLong(limit);
    case 'pattern':
      return compilePattern(String(params.pattern)).ok
        ? formMessages.pattern
        : formMessages.patternUnusable;
    case 'format':
      return KNOWN_FORMATS.includes(params.format as KnownFormat)
        ? formMessages.format[params.format as KnownFormat]
        : String(error.message);
    case 'minimum':
      return formMessages.atLeast(limit);
    case 'maximum':
      return formMessages.atMost(limit);
    case 'minItems':
      return formMessages.fewItems(limit);
    case 'maxItems':
      return formMessages.manyItems(limit);
    case 'uniqueItems':
      return formMessages.duplicate;
    case 'not':
      return formMessages.unsupported;
    default:
      return typeMessage(field);
  }
}

/** The message for a value of the wrong type, or outside a select's options. */
function typeMessage(field: FormField): string {
  switch (field.kind) {
    case 'string':
      return formMessages.text;
    case 'number':
      return formMessages.number;
    case 'integer':
      return formMessages.integer;
    case 'boolean':
      return formMessages.boolean;
    case 'single-select':
      return formMessages.choice;
    case 'multi-select':
      return formMessages.choices;
    case 'unsupported':
      return formMessages.unsupported;
  }
}
