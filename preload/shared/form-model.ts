/**
 * The normalised form model of a form-mode elicitation, shared by main and the renderer.
 *
 * Main turns the agent's `requestedSchema` into this model (refusing anything outside the flat
 * subset), sends it to the renderer, and checks the answer against it; the renderer draws the
 * card and gives live feedback from the same model. The model crosses the IPC boundary, so it
 * has a zod schema beside its type, with every string and list bounded. This file is pure: it
 * imports only zod, and no Node, DOM or Electron API.
 */
import { z } from 'zod';

// Ceilings for the zod schema, not the product limits: those live in
// main/core/elicitation/limits.ts (the preload never imports main). Each ceiling is at least
// the matching limit there, and a test keeps it so; a model past one cannot have come from main.
/** Longest text the model may hold anywhere (a title, description, pattern, default or reason). */
export const MODEL_TEXT_CEILING = 10_000;
/** Most fields a model may hold. */
export const MODEL_FIELDS_CEILING = 256;
/** Most options a select field may hold. */
export const MODEL_OPTIONS_CEILING = 1_024;

/** The string formats Airlock checks, as ajv-formats defines them. */
export const KNOWN_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;
/** One of the string formats Airlock checks. */
export type KnownFormat = (typeof KNOWN_FORMATS)[number];

const text = z.string().max(MODEL_TEXT_CEILING);
// A name is a key of the answer's `content`; `__proto__` as a key is too easy to mishandle in
// code that builds objects by assignment, so main refuses it and so does the model.
const fieldName = z
  .string()
  .min(1)
  .max(MODEL_TEXT_CEILING)
  .refine((name) => name !== '__proto__', { message: 'reserved property name' });
const count = z.number().int().min(0);

/** One choice of a single-select or multi-select field. */
export const FormOption = z.object({
  /** The value sent in the answer. */
  value: text,
  /** The label shown; for an untitled option, the value itself. */
  title: text,
  description: text.optional(),
  /**
   * What the choice would look like (a mockup, a snippet), from the agent's `_meta`: plain text,
   * shown as it came, never as HTML or markdown.
   */
  preview: text.optional(),
});
/** One choice of a single-select or multi-select field. */
export type FormOption = z.infer<typeof FormOption>;

const options = z
  .array(FormOption)
  .min(1)
  .max(MODEL_OPTIONS_CEILING)
  .refine((list) => new Set(list.map((option) => option.value)).size === list.length, {
    message: 'duplicate option values',
  });

/**
 * How the card shows a field, decided in main from what the agent sent beyond the flat subset
 * (its `_meta` hints, how it named its fields). Presentation only: no hint changes what the
 * field accepts, and a field without one is shown as before.
 */
export const FieldPresentation = z.object({
  /** One of several questions the card numbers: its place (from 1) and how many there are. */
  question: z
    .object({
      number: z.number().int().min(1).max(MODEL_FIELDS_CEILING),
      of: z.number().int().min(2).max(MODEL_FIELDS_CEILING),
    })
    .refine((place) => place.number <= place.of, { message: 'question past the count' })
    .optional(),
  /**
   * The free-text answer that goes with a choice question: `other` answers it in the user's own
   * words (Claude's `question_N_custom`), `note` adds to the choice (Codex's `user_note`).
   * `of` names the question's field, `question` is its text, which names this field.
   */
  companion: z
    .object({ of: fieldName, kind: z.enum(['other', 'note']), question: text })
    .optional(),
  /** The agent marks the answer as secret: masked, with the card's warning about secrets. */
  secret: z.literal(true).optional(),
  /** A choice shown as a list of rows (radio buttons or checkboxes), each option's words under it. */
  choices: z.literal('list').optional(),
});
/** How the card shows a field. */
export type FieldPresentation = z.infer<typeof FieldPresentation>;

const base = {
  /** The property's key in the schema and in the answer. */
  name: fieldName,
  title: text.optional(),
  description: text.optional(),
  /** Listed in the schema's `required`: the answer must include it. */
  required: z.boolean(),
  /** How the card shows it, from the agent's hints; absent when it sent none. */
  presentation: FieldPresentation.optional(),
};

/** A free-text field, with the constraints the agent declared. */
export const StringField = z.object({
  ...base,
  kind: z.literal('string'),
  minLength: count.optional(),
  maxLength: count.optional(),
  /** Agent-supplied; evaluated only by re2js, never by a backtracking RegExp. */
  pattern: text.optional(),
  format: z.enum(KNOWN_FORMATS).optional(),
  /** A format Airlock does not know: the field is plain text and the format is not checked. */
  unknownFormat: text.optional(),
  default: text.optional(),
});
/** A free-text field, with the constraints the agent declared. */
export type StringField = z.infer<typeof StringField>;

/** A number field (`number` allows fractions; `integer` only whole numbers). */
export const NumberField = z.object({
  ...base,
  kind: z.enum(['number', 'integer']),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
/** A number field (`number` allows fractions; `integer` only whole numbers). */
export type NumberField = z.infer<typeof NumberField>;

/** A yes/no field. */
export const BooleanField = z.object({
  ...base,
  kind: z.literal('boolean'),
  default: z.boolean().optional(),
});
/** A yes/no field. */
export type BooleanField = z.infer<typeof BooleanField>;

/** A choice of exactly one option: `enum` (untitled) or `oneOf` of `const` (titled). */
export const SingleSelectField = z.object({
  ...base,
  kind: z.literal('single-select'),
  /** The agent gave titles (`oneOf`); otherwise each option's title is its value. */
  titled: z.boolean(),
  options,
  default: text.optional(),
});
/** A choice of exactly one option: `enum` (untitled) or `oneOf` of `const` (titled). */
export type SingleSelectField = z.infer<typeof SingleSelectField>;

/** A choice of several options: `items.enum` (untitled) or `items.anyOf` (titled). */
export const MultiSelectField = z.object({
  ...base,
  kind: z.literal('multi-select'),
  titled: z.boolean(),
  options,
  minItems: count.optional(),
  maxItems: count.optional(),
  default: z.array(text).max(MODEL_OPTIONS_CEILING).optional(),
});
/** A choice of several options: `items.enum` (untitled) or `items.anyOf` (titled). */
export type MultiSelectField = z.infer<typeof MultiSelectField>;

/**
 * A property Airlock cannot show as a control: an unknown or `_`-prefixed type.
 *
 * The card says what it cannot show (the reason, in plain words); it can never be answered.
 */
export const UnsupportedField = z.object({
  ...base,
  kind: z.literal('unsupported'),
  reason: text,
});
/** A property Airlock cannot show as a control. */
export type UnsupportedField = z.infer<typeof UnsupportedField>;

/** One field of a form, discriminated by `kind`. */
export const FormField = z.discriminatedUnion('kind', [
  StringField,
  NumberField,
  BooleanField,
  SingleSelectField,
  MultiSelectField,
  UnsupportedField,
]);
/** One field of a form, discriminated by `kind`. */
export type FormField = z.infer<typeof FormField>;

/** How the card shows the whole form, from the agent's hints. */
export const FormPresentation = z.object({
  /**
   * When the agent answers the question itself if the user has not (Codex's `autoResolutionMs`),
   * as milliseconds since the epoch on this machine's clock.
   */
  autoResolvesAt: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
/** How the card shows the whole form. */
export type FormPresentation = z.infer<typeof FormPresentation>;

/** The whole form: its title and description, and its fields in the schema's order. */
export const FormModel = z.object({
  title: text.optional(),
  description: text.optional(),
  presentation: FormPresentation.optional(),
  fields: z
    .array(FormField)
    .max(MODEL_FIELDS_CEILING)
    .refine((fields) => new Set(fields.map((field) => field.name)).size === fields.length, {
      message: 'duplicate field names',
    }),
});
/** The whole form: its title and description, and its fields in the schema's order. */
export type FormModel = z.infer<typeof FormModel>;

/** One value of an accepted answer, as ACP's `ElicitationContentValue` allows. */
export type AnswerValue = string | number | boolean | string[];
/** The `content` of an accepted answer: only answered fields, each typed as its field says. */
export type AnswerContent = { [name: string]: AnswerValue };

/** A JSON value, as the JSON Schema built from a model holds. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A JSON Schema object. */
export type JsonSchema = { [keyword: string]: JsonValue };

/**
 * The JSON Schema a model stands for: the one main checks answers against and RJSF renders.
 *
 * It is built from the model, never copied from the agent, so it holds only the flat subset.
 * Beyond the agent's schema it says `additionalProperties: false` (an answer holds only the
 * form's fields), `uniqueItems: true` on a multi-select (an answer is a set; RJSF also needs it
 * to draw checkboxes) and `not: {}` for an unsupported field (no value can answer it). Unknown
 * formats are left out, so they are not checked.
 */
export function formModelToJsonSchema(model: FormModel): JsonSchema {
  return {
    type: 'object',
    ...annotations(model),
    properties: Object.fromEntries(model.fields.map((field) => [field.name, fieldSchema(field)])),
    required: model.fields.filter((field) => field.required).map((field) => field.name),
    additionalProperties: false,
  };
}

function fieldSchema(field: FormField): JsonSchema {
  const schema: JsonSchema = { ...annotations(field) };
  switch (field.kind) {
    case 'string':
      return {
        type: 'string',
        ...schema,
        ...defined({ minLength: field.minLength, maxLength: field.maxLength }),
        ...defined({ pattern: field.pattern, format: field.format, default: field.default }),
      };
    case 'number':
    case 'integer':
      return {
        type: field.kind,
        ...schema,
        ...defined({ minimum: field.minimum, maximum: field.maximum, default: field.default }),
      };
    case 'boolean':
      return { type: 'boolean', ...schema, ...defined({ default: field.default }) };
    case 'single-select':
      return {
        type: 'string',
        ...schema,
        ...(field.titled
          ? { oneOf: field.options.map(optionSchema) }
          : { enum: field.options.map((option) => option.value) }),
        ...defined({ default: field.default }),
      };
    case 'multi-select':
      return {
        type: 'array',
        ...schema,
        // `type` on both, so ajv compares only string items for `uniqueItems`, as the live
        // validator does.
        items: field.titled
          ? { type: 'string', anyOf: field.options.map(optionSchema) }
          : { type: 'string', enum: field.options.map((option) => option.value) },
        uniqueItems: true,
        ...defined({ minItems: field.minItems, maxItems: field.maxItems }),
        ...defined({ default: field.default }),
      };
    case 'unsupported':
      return { ...schema, not: {} };
  }
}

function optionSchema(option: FormOption): JsonSchema {
  return {
    const: option.value,
    title: option.title,
    ...defined({ description: option.description }),
  };
}

function annotations(from: { title?: string; description?: string }): JsonSchema {
  return defined({ title: from.title, description: from.description });
}

/** The entries whose value is not undefined; falsy values (0, false, "") are kept. */
function defined(entries: { [key: string]: JsonValue | undefined }): JsonSchema {
  return Object.fromEntries(
    Object.entries(entries).filter((entry): entry is [string, JsonValue] => entry[1] !== undefined),
  );
}
