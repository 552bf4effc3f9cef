/**
 * The schema check for form-mode elicitation: the agent's `requestedSchema` to a form model.
 *
 * ACP form schemas are flat objects of primitive and enum properties. Anything outside that
 * subset, anything malformed and anything past the limits is refused with a reason that names
 * the property and the problem (it becomes a JSON-RPC -32602 message). A property whose type is
 * unknown or `_`-prefixed is not refused: it becomes an `unsupported` field, which the card
 * names without showing a control. Keywords JSON Schema gives no meaning to (`examples`,
 * `$comment`, `_meta`, `x-…`) are ignored; as in ACP, a keyword set to `null` counts as absent.
 */
import {
  FormModel,
  KNOWN_FORMATS,
  type FormField,
  type FormOption,
  type KnownFormat,
} from '../../../preload/shared/form-model.js';
import { compilePattern, validateField } from '../../../preload/shared/form-validator.js';
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
} from './limits.js';
import { revealInvisible } from '../reveal.js';

/** The outcome of the schema check: a form model, or why the schema is refused. */
export type FormSchemaResult = { ok: true; model: FormModel } | { ok: false; reason: string };

type Json = { [key: string]: unknown };

/** A schema outside what Airlock accepts; its message is the reason given to the agent. */
class Refusal extends Error {}

// Keywords that change what a JSON Schema accepts or how it is read (draft-07 to 2020-12).
// Each context below allows some; the rest are refused. Any other key is an annotation.
const MEANINGFUL = new Set([
  ...['type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum'],
  ...['exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'format', 'maxItems'],
  ...['minItems', 'uniqueItems', 'maxContains', 'minContains', 'contains', 'items'],
  ...['prefixItems', 'additionalItems', 'unevaluatedItems', 'maxProperties', 'minProperties'],
  ...['required', 'dependentRequired', 'dependencies', 'dependentSchemas', 'properties'],
  ...['patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedProperties'],
  ...['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', '$ref', '$dynamicRef'],
  ...['$recursiveRef', '$defs', 'definitions', 'default', 'title', 'description'],
]);
const ANNOTATIONS = ['title', 'description', 'default'];
const TOP_LEVEL = new Set([
  'type',
  'title',
  'description',
  'properties',
  'required',
  'additionalProperties',
]);
const BY_TYPE = {
  string: new Set([...ANNOTATIONS, 'type', 'minLength', 'maxLength', 'pattern', 'format']),
  select: new Set([...ANNOTATIONS, 'type', 'enum', 'oneOf']),
  number: new Set([...ANNOTATIONS, 'type', 'minimum', 'maximum']),
  boolean: new Set([...ANNOTATIONS, 'type']),
  array: new Set([...ANNOTATIONS, 'type', 'items', 'minItems', 'maxItems', 'uniqueItems']),
};
const ITEMS = new Set(['type', 'enum', 'anyOf', 'title', 'description']);
const OPTION = new Set(['const', 'title', 'description', 'type']);
// The types JSON Schema defines: a property of one of these is read (or refused, for object and
// null); any other type is a future or extension type, shown as unsupported, not refused.
const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/**
 * Checks an agent's `requestedSchema` and turns it into the form model.
 *
 * Refuses (with a reason for a -32602 error) anything outside the flat subset: a schema that is
 * not an object schema or is over the size limit, nested objects, references, combinators,
 * `patternProperties` or `additionalProperties` other than false, arrays of anything but string
 * options, unknown `required` names, wrong-typed or contradictory keywords, defaults that do not
 * satisfy their field, duplicate options, patterns re2js cannot compile, and anything past the
 * limits in limits.ts.
 */
export function normaliseFormSchema(requestedSchema: unknown): FormSchemaResult {
  try {
    return { ok: true, model: readSchema(requestedSchema) };
  } catch (error) {
    if (error instanceof Refusal) {
      return { ok: false, reason: error.message };
    }
    throw error;
  }
}

function readSchema(raw: unknown): FormModel {
  checkSize(raw);
  if (!isObject(raw)) {
    throw new Refusal('The form schema must be a JSON object.');
  }
  const where = 'The form schema';
  checkKeywords(raw, TOP_LEVEL, where);
  const type = read(raw, 'type');
  if (type !== undefined && type !== 'object') {
    throw new Refusal(`${where} must have type "object", not ${show(type)}.`);
  }
  const additional = read(raw, 'additionalProperties');
  if (additional !== undefined && additional !== false) {
    throw new Refusal(`${where} allows additional properties; a form has only its own fields.`);
  }
  const properties = read(raw, 'properties') ?? {};
  if (!isObject(properties)) {
    throw new Refusal(`${where}: "properties" must be an object.`);
  }
  const names = Object.keys(properties);
  if (names.length > MAX_PROPERTIES) {
    throw new Refusal(`${where} has ${names.length} properties; the limit is ${MAX_PROPERTIES}.`);
  }
  const required = readRequired(raw, names);
  const fields = names.map((name) => readProperty(name, properties[name], required.has(name)));
  const model = {
    ...readAnnotations(raw, where),
    fields,
  };
  // The model crosses IPC and is parsed there; a model that would not parse is a bug here.
  const parsed = FormModel.safeParse(model);
  if (!parsed.success) {
    throw new Refusal(`${where} could not be turned into a form.`);
  }
  return parsed.data;
}

function checkSize(raw: unknown): void {
  let serialised: string | undefined;
  try {
    serialised = JSON.stringify(raw);
  } catch {
    serialised = undefined;
  }
  if (serialised === undefined) {
    throw new Refusal('The form schema is not JSON.');
  }
  const bytes = new TextEncoder().encode(serialised).length;
  if (bytes > MAX_SCHEMA_BYTES) {
    throw new Refusal(`The form schema is ${bytes} bytes; the limit is ${MAX_SCHEMA_BYTES}.`);
  }
}

function readRequired(raw: Json, names: string[]): Set<string> {
  const required = read(raw, 'required') ?? [];
  if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
    throw new Refusal('The form schema: "required" must be a list of property names.');
  }
  const seen = new Set<string>();
  for (const name of required as string[]) {
    if (seen.has(name)) {
      throw new Refusal(`The form schema lists ${show(name)} twice in "required".`);
    }
    if (!names.includes(name)) {
      throw new Refusal(`The form schema requires ${show(name)}, which is not a property.`);
    }
    seen.add(name);
  }
  return seen;
}

function readProperty(name: string, raw: unknown, required: boolean): FormField {
  if (name.length === 0) {
    throw new Refusal('The form schema has a property with an empty name.');
  }
  if (name.length > MAX_PROPERTY_NAME_CHARS) {
    throw new Refusal(
      `Property ${show(name)} has a name longer than ${MAX_PROPERTY_NAME_CHARS} characters.`,
    );
  }
  if (name === '__proto__') {
    throw new Refusal('Property "__proto__" has a reserved name.');
  }
  // A lone surrogate is not text: it cannot be encoded, so no answer naming it could be checked.
  if (/\p{Cs}/u.test(name)) {
    throw new Refusal(`Property ${show(name)} has a name that is not well-formed Unicode.`);
  }
  const where = `Property ${show(name)}`;
  if (!isObject(raw)) {
    throw new Refusal(`${where} must be a schema object.`);
  }
  const base = { name, ...readAnnotations(raw, where), required };
  const type = read(raw, 'type');
  if (type === undefined) {
    throw new Refusal(`${where} has no "type".`);
  }
  if (typeof type !== 'string') {
    throw new Refusal(`${where} must have one type, given as a string, not ${show(type)}.`);
  }
  if (!JSON_TYPES.has(type)) {
    const reason = type.startsWith('_')
      ? `It uses the extension type ${show(type)}, which Airlock does not know.`
      : `It uses the type ${show(type)}, which this version of Airlock does not know.`;
    return { ...base, kind: 'unsupported', reason };
  }
  switch (type) {
    case 'string':
      return read(raw, 'enum') !== undefined || read(raw, 'oneOf') !== undefined
        ? readSingleSelect(raw, base, where)
        : readString(raw, base, where);
    case 'number':
    case 'integer':
      return readNumber(raw, { ...base, kind: type }, where);
    case 'boolean':
      return readBoolean(raw, base, where);
    case 'array':
      return readMultiSelect(raw, base, where);
    case 'object':
      throw new Refusal(`${where} is a nested object; a form is flat.`);
    default:
      throw new Refusal(`${where} has type ${show(type)}, which no form field can answer.`);
  }
}

type Base = { name: string; title?: string; description?: string; required: boolean };

function readString(raw: Json, base: Base, where: string): FormField {
  checkKeywords(raw, BY_TYPE.string, where);
  const minLength = readCount(raw, 'minLength', where);
  const maxLength = readCount(raw, 'maxLength', where);
  checkOrder(minLength, maxLength, 'minLength', 'maxLength', where);
  const field: FormField = {
    ...base,
    kind: 'string',
    ...defined({ minLength, maxLength, pattern: readPattern(raw, where) }),
    ...readFormat(raw, where),
  };
  const fallback = read(raw, 'default');
  if (fallback === undefined) {
    return field;
  }
  if (typeof fallback !== 'string') {
    throw new Refusal(`${where}: "default" must be a string, not ${show(fallback)}.`);
  }
  if (fallback.length > MAX_STRING_DEFAULT_CHARS) {
    throw new Refusal(`${where}: "default" is longer than ${MAX_STRING_DEFAULT_CHARS} characters.`);
  }
  return withDefault(field, fallback, where);
}

function readPattern(raw: Json, where: string): string | undefined {
  const pattern = read(raw, 'pattern');
  if (pattern === undefined) {
    return undefined;
  }
  if (typeof pattern !== 'string') {
    throw new Refusal(`${where}: "pattern" must be a string, not ${show(pattern)}.`);
  }
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new Refusal(`${where}: "pattern" is longer than ${MAX_PATTERN_CHARS} characters.`);
  }
  const check = compilePattern(pattern);
  if (!check.ok) {
    throw new Refusal(
      `${where}: "pattern" cannot be checked by a linear-time engine (${check.reason}).`,
    );
  }
  return pattern;
}

function readFormat(raw: Json, where: string): { format?: KnownFormat; unknownFormat?: string } {
  const format = read(raw, 'format');
  if (format === undefined) {
    return {};
  }
  if (typeof format !== 'string') {
    throw new Refusal(`${where}: "format" must be a string, not ${show(format)}.`);
  }
  if (format.length > MAX_FORMAT_NAME_CHARS) {
    throw new Refusal(`${where}: "format" is longer than ${MAX_FORMAT_NAME_CHARS} characters.`);
  }
  return KNOWN_FORMATS.includes(format as KnownFormat)
    ? { format: format as KnownFormat }
    : { unknownFormat: format };
}

function readNumber(
  raw: Json,
  base: Base & { kind: 'number' | 'integer' },
  where: string,
): FormField {
  checkKeywords(raw, BY_TYPE.number, where);
  const minimum = readFinite(raw, 'minimum', where);
  const maximum = readFinite(raw, 'maximum', where);
  checkOrder(minimum, maximum, 'minimum', 'maximum', where);
  if (
    base.kind === 'integer' &&
    minimum !== undefined &&
    maximum !== undefined &&
    Math.ceil(minimum) > Math.floor(maximum)
  ) {
    throw new Refusal(`${where}: no whole number lies between "minimum" and "maximum".`);
  }
  const field: FormField = { ...base, ...defined({ minimum, maximum }) };
  const fallback = read(raw, 'default');
  if (fallback === undefined) {
    return field;
  }
  if (typeof fallback !== 'number') {
    throw new Refusal(`${where}: "default" must be a number, not ${show(fallback)}.`);
  }
  return withDefault(field, fallback, where);
}

function readBoolean(raw: Json, base: Base, where: string): FormField {
  checkKeywords(raw, BY_TYPE.boolean, where);
  const field: FormField = { ...base, kind: 'boolean' };
  const fallback = read(raw, 'default');
  if (fallback === undefined) {
    return field;
  }
  if (typeof fallback !== 'boolean') {
    throw new Refusal(`${where}: "default" must be true or false, not ${show(fallback)}.`);
  }
  return { ...field, default: fallback };
}

function readSingleSelect(raw: Json, base: Base, where: string): FormField {
  checkKeywords(raw, BY_TYPE.select, where);
  const untitled = read(raw, 'enum');
  const titled = read(raw, 'oneOf');
  if (untitled !== undefined && titled !== undefined) {
    throw new Refusal(`${where} has both "enum" and "oneOf"; give its options once.`);
  }
  const field: FormField = {
    ...base,
    kind: 'single-select',
    titled: titled !== undefined,
    options:
      titled !== undefined
        ? readTitledOptions(titled, `${where}: "oneOf"`)
        : readEnum(untitled, `${where}: "enum"`),
  };
  const fallback = read(raw, 'default');
  if (fallback === undefined) {
    return field;
  }
  if (typeof fallback !== 'string') {
    throw new Refusal(`${where}: "default" must be one of its options, not ${show(fallback)}.`);
  }
  return withDefault(field, fallback, where);
}

function readMultiSelect(raw: Json, base: Base, where: string): FormField {
  const items = read(raw, 'items');
  if (!isObject(items)) {
    throw new Refusal(`${where} is an array without an "items" object listing its options.`);
  }
  const itemType = read(items, 'type');
  if (typeof itemType === 'string' && !JSON_TYPES.has(itemType)) {
    const reason = itemType.startsWith('_')
      ? `It is a list of the extension type ${show(itemType)}, which Airlock does not know.`
      : `It is a list of the type ${show(itemType)}, which this version of Airlock does not know.`;
    return { ...base, kind: 'unsupported', reason };
  }
  checkKeywords(raw, BY_TYPE.array, where);
  checkKeywords(items, ITEMS, `${where}: "items"`);
  if (itemType !== undefined && itemType !== 'string') {
    throw new Refusal(
      `${where} is an array of ${show(itemType)}; only string options are allowed.`,
    );
  }
  const untitled = read(items, 'enum');
  const titled = read(items, 'anyOf');
  if ((untitled === undefined) === (titled === undefined)) {
    throw new Refusal(`${where}: "items" must list its options in one of "enum" or "anyOf".`);
  }
  const options =
    titled !== undefined
      ? readTitledOptions(titled, `${where}: "items.anyOf"`)
      : readEnum(untitled, `${where}: "items.enum"`);
  const unique = read(raw, 'uniqueItems');
  if (unique !== undefined && typeof unique !== 'boolean') {
    throw new Refusal(`${where}: "uniqueItems" must be true or false, not ${show(unique)}.`);
  }
  const minItems = readCount(raw, 'minItems', where);
  const maxItems = readCount(raw, 'maxItems', where);
  checkOrder(minItems, maxItems, 'minItems', 'maxItems', where);
  if (minItems !== undefined && minItems > options.length) {
    throw new Refusal(`${where}: "minItems" is ${minItems} but it has ${options.length} options.`);
  }
  const field: FormField = {
    ...base,
    kind: 'multi-select',
    titled: titled !== undefined,
    options,
    ...defined({ minItems, maxItems }),
  };
  const fallback = read(raw, 'default');
  if (fallback === undefined) {
    return field;
  }
  if (!Array.isArray(fallback) || !fallback.every((value) => typeof value === 'string')) {
    throw new Refusal(`${where}: "default" must be a list of its options, not ${show(fallback)}.`);
  }
  return withDefault(field, fallback as string[], where);
}

function readEnum(raw: unknown, where: string): FormOption[] {
  const values = readList(raw, where);
  return uniqueOptions(
    values.map((value) => {
      if (typeof value !== 'string') {
        throw new Refusal(`${where} must hold strings, not ${show(value)}.`);
      }
      // The value goes back to the agent as it came; only the option's label shows its hidden characters.
      return { value: readOptionValue(value, where), title: revealInvisible(value) };
    }),
    where,
  );
}

function readTitledOptions(raw: unknown, where: string): FormOption[] {
  const values = readList(raw, where);
  return uniqueOptions(
    values.map((option, index) => {
      const at = `${where}, option ${index + 1}`;
      if (!isObject(option)) {
        throw new Refusal(`${at} must be an object with "const" and "title".`);
      }
      checkKeywords(option, OPTION, at);
      const value = read(option, 'const');
      if (typeof value !== 'string') {
        throw new Refusal(`${at}: "const" must be a string, not ${show(value)}.`);
      }
      const type = read(option, 'type');
      if (type !== undefined && type !== 'string') {
        throw new Refusal(`${at}: "type" must be "string", not ${show(type)}.`);
      }
      const { title, description } = readAnnotations(option, at);
      return {
        value: readOptionValue(value, at),
        title: title ?? revealInvisible(value),
        ...defined({ description }),
      };
    }),
    where,
  );
}

function readList(raw: unknown, where: string): unknown[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new Refusal(`${where} must be a non-empty list of options.`);
  }
  if (raw.length > MAX_OPTIONS_PER_FIELD) {
    throw new Refusal(`${where} has ${raw.length} options; the limit is ${MAX_OPTIONS_PER_FIELD}.`);
  }
  return raw;
}

function readOptionValue(value: string, where: string): string {
  if (value.length > MAX_OPTION_VALUE_CHARS) {
    throw new Refusal(`${where} has a value longer than ${MAX_OPTION_VALUE_CHARS} characters.`);
  }
  return value;
}

function uniqueOptions(options: FormOption[], where: string): FormOption[] {
  const seen = new Set<string>();
  for (const option of options) {
    // A blank value means "not answered", so an empty option could never be chosen.
    if (option.value === '') {
      throw new Refusal(`${where} has an empty option, which cannot be told from no answer.`);
    }
    if (seen.has(option.value)) {
      throw new Refusal(`${where} lists ${show(option.value)} twice.`);
    }
    seen.add(option.value);
  }
  return options;
}

/** The field with its default, refused unless the default is itself an acceptable answer. */
function withDefault(field: FormField, fallback: unknown, where: string): FormField {
  // Checked as if optional: a blank default ("" or []) only means the field starts empty.
  const problems = validateField({ ...field, required: false }, fallback);
  if (problems.length > 0) {
    throw new Refusal(
      `${where}: "default" ${show(fallback)} does not fit the field (${problems.join('; ')}).`,
    );
  }
  return { ...field, default: fallback } as FormField;
}

function readAnnotations(raw: Json, where: string): { title?: string; description?: string } {
  return defined({
    // A title names a field or a choice: its hidden characters show. A description is prose.
    title: maybeRevealed(readText(raw, 'title', MAX_TITLE_CHARS, where)),
    description: readText(raw, 'description', MAX_DESCRIPTION_CHARS, where),
  });
}

function maybeRevealed(value: string | undefined): string | undefined {
  return value === undefined ? undefined : revealInvisible(value);
}

function readText(raw: Json, key: string, max: number, where: string): string | undefined {
  const value = read(raw, key);
  if (value === undefined || value === '') {
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new Refusal(`${where}: "${key}" must be a string, not ${show(value)}.`);
  }
  if (value.length > max) {
    throw new Refusal(`${where}: "${key}" is longer than ${max} characters.`);
  }
  return value;
}

function readCount(raw: Json, key: string, where: string): number | undefined {
  const value = read(raw, key);
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new Refusal(`${where}: "${key}" must be a whole number, 0 or more, not ${show(value)}.`);
  }
  return value;
}

function readFinite(raw: Json, key: string, where: string): number | undefined {
  const value = read(raw, key);
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Refusal(`${where}: "${key}" must be a number, not ${show(value)}.`);
  }
  return value;
}

function checkOrder(
  low: number | undefined,
  high: number | undefined,
  lowKey: string,
  highKey: string,
  where: string,
): void {
  if (low !== undefined && high !== undefined && low > high) {
    throw new Refusal(`${where}: "${lowKey}" (${low}) is more than "${highKey}" (${high}).`);
  }
}

function checkKeywords(raw: Json, allowed: Set<string>, where: string): void {
  for (const key of Object.keys(raw)) {
    if (MEANINGFUL.has(key) && !allowed.has(key) && raw[key] !== null) {
      throw new Refusal(`${where} uses ${show(key)}, which a flat form does not support.`);
    }
  }
}

/** A keyword's value, read only from the object's own keys; `null` counts as absent. */
function read(raw: Json, key: string): unknown {
  return Object.hasOwn(raw, key) && raw[key] !== null ? raw[key] : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value quoted for a reason, cut short so a hostile value cannot flood the message. */
function show(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value);
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function defined<T extends object>(entries: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(entries).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
