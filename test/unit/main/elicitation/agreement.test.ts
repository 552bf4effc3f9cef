import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../../../../main/core/elicitation/answer-check.js';
import { normaliseFormSchema } from '../../../../main/core/elicitation/form-schema.js';
import { FormModel } from '../../../../preload/shared/form-model.js';
import {
  answerContent,
  isFormValid,
  validateForm,
  type FormValues,
} from '../../../../preload/shared/form-validator.js';
import { realForms } from '../../../fixtures/real-elicitations.js';

// Names chosen to trip the two sides apart: Object.prototype members, JSON Pointer escapes,
// RJSF's own error key, dots, spaces and non-ASCII.
const NAMES = [
  'a',
  'b',
  'constructor',
  'toString',
  'a/b',
  'c~d',
  'x.y',
  'with space',
  '__errors',
  'é',
];
const OPTIONS = ['a', 'b', 'c', 'constructor', 'é', '😀', ' ', '1'];
const PATTERNS = ['^a+$', '^[a-z]*$', '^(a+)+$', 'b', '^\\d{2,3}$', '^.{0,3}$', '^(?<w>\\w+)$'];
const MORE_PATTERNS = ['^\\p{L}+$', '(?i)^abc$', '^\\u{1F600}+$', '^[^@]+@'];
const FORMATS = ['email', 'uri', 'date', 'date-time', 'phone'];

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const ordered = (low: number | undefined, high: number | undefined) =>
  low !== undefined && high !== undefined && low > high ? [high, low] : [low, high];
const strip = (schema: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));

/** Any value a form might hold, or a hostile page might send: edge cases weighted in. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(undefined, null, '', 0, -0, 1, 2.5, -3, false, true) },
  { weight: 2, arbitrary: fc.constantFrom(NaN, Infinity, [], {}, ' ', '3', '2.5', '1e400', '.5') },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'abc',
      'ABC',
      'a',
      'aa',
      'aaa',
      '12',
      '123',
      '😀😀',
      'a@example.com',
      'not-an-email',
      'https://example.com/x?y#z',
      'x:y',
      '/relative',
      '2024-02-29',
      '2023-02-29',
      '2024-01-01T00:00:00Z',
      '2024-01-01T00:00:00',
      '2024-01-01T23:59:60Z',
    ),
  },
  { weight: 4, arbitrary: fc.constantFrom(...OPTIONS) },
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...OPTIONS, 'z', 1), { maxLength: 4 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 6, unit: 'binary' }) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double()) },
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(100_000), `${'a'.repeat(100_000)}!`) },
);

const count = maybe(fc.integer({ min: 0, max: 6 }));
const bound = maybe(
  fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -5, max: 5, noNaN: true })),
);
const optionList = fc.uniqueArray(fc.constantFrom(...OPTIONS), { minLength: 1, maxLength: 5 });
const titledList = optionList.map((values) =>
  values.map((option, i) =>
    i % 2
      ? { const: option, title: `T${option}` }
      : { const: option, title: option, description: 'd' },
  ),
);

const stringProperty = fc
  .record({
    minLength: count,
    maxLength: count,
    pattern: maybe(fc.constantFrom(...PATTERNS, ...MORE_PATTERNS)),
    format: maybe(fc.constantFrom(...FORMATS)),
  })
  .map(({ minLength, maxLength, ...rest }) => {
    const [low, high] = ordered(minLength, maxLength);
    return strip({ type: 'string', minLength: low, maxLength: high, ...rest });
  });

const numberProperty = fc
  .record({ type: fc.constantFrom('number', 'integer'), minimum: bound, maximum: bound })
  .map(({ type, minimum, maximum }) => {
    const [low, high] = ordered(minimum, maximum);
    return type === 'integer'
      ? strip({
          type,
          minimum: low === undefined ? low : Math.floor(low),
          maximum: high === undefined ? high : Math.ceil(high),
        })
      : strip({ type, minimum: low, maximum: high });
  });

const singleSelect = fc.oneof(
  optionList.map((values) => ({ type: 'string', enum: values })),
  titledList.map((oneOf) => ({ type: 'string', oneOf })),
);

const multiSelect = fc
  .record({
    items: fc.oneof(
      optionList.map((values) => ({ type: 'string', enum: values })),
      titledList.map((anyOf) => ({ anyOf })),
    ),
    minItems: count,
    maxItems: count,
  })
  .map(({ items, minItems, maxItems }) => {
    const options = 'enum' in items ? items.enum.length : items.anyOf.length;
    const [low, high] = ordered(
      minItems === undefined ? minItems : Math.min(minItems, options),
      maxItems,
    );
    return strip({ type: 'array', items, minItems: low, maxItems: high });
  });

const property = fc.oneof(
  { weight: 4, arbitrary: stringProperty },
  { weight: 3, arbitrary: numberProperty },
  { weight: 1, arbitrary: fc.constant({ type: 'boolean' }) },
  { weight: 3, arbitrary: singleSelect },
  { weight: 3, arbitrary: multiSelect },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { type: '_x' },
      { type: 'color' },
      { type: 'array', items: { type: '_file' } },
    ),
  },
);

/** A flat form schema: up to five properties, some required, some with a default. */
const schema = fc
  .uniqueArray(
    fc.record({
      name: fc.constantFrom(...NAMES),
      property,
      required: fc.boolean(),
      // Mostly none: a random default rarely fits its field, and such a schema is refused.
      fallback: fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: value },
      ),
    }),
    { selector: (entry) => entry.name, maxLength: 5 },
  )
  .map((entries) => ({
    type: 'object',
    properties: Object.fromEntries(
      entries.map(({ name, property: raw, fallback }) => [
        name,
        strip({ ...raw, default: fallback }),
      ]),
    ),
    required: entries.filter((entry) => entry.required).map((entry) => entry.name),
  }));

// What today's agents sent, and the answers recorded for them: the first runs of each property.
const REAL: [unknown, FormValues][] = realForms().map((recorded) => [
  recorded.params.requestedSchema,
  (recorded.answer.content ?? {}) as FormValues,
]);

const values: fc.Arbitrary<FormValues> = fc.dictionary(fc.constantFrom(...NAMES), value, {
  maxKeys: NAMES.length,
});

/** The accepted model for a generated schema; defaults that do not fit are refused, so skip. */
function modelOf(raw: unknown): FormModel {
  const result = normaliseFormSchema(raw);
  fc.pre(result.ok);
  return (result as { ok: true; model: FormModel }).model;
}

function messagesByField(errors: { field?: string; message: string }[]) {
  const byField = new Map<string, string[]>();
  for (const { field, message } of errors) {
    byField.set(field ?? '', [...(byField.get(field ?? '') ?? []), message]);
  }
  return Object.fromEntries([...byField].map(([name, list]) => [name, list.sort()]));
}

describe('the live validator and main agree', () => {
  it('validateForm finds no problem exactly when checkAnswer accepts the content, field by field and word for word', () => {
    fc.assert(
      fc.property(schema, values, (raw, form) => {
        const model = modelOf(raw);
        const live = validateForm(model, form);
        const content = answerContent(model, form);
        const main = checkAnswer(model, content);
        expect(main.ok).toBe(isFormValid(live));
        const liveByField = Object.fromEntries(
          Object.entries(live.fields).map(([name, list]) => [name, [...list].sort()]),
        );
        expect(main.ok ? {} : messagesByField(main.errors)).toEqual(liveByField);
        if (main.ok) {
          expect(main.content).toBe(content);
        }
      }),
      { numRuns: 1_000, examples: REAL },
    );
  });

  it('every accepted schema gives a model that crosses IPC and whose defaults both sides accept', () => {
    fc.assert(
      fc.property(schema, (raw) => {
        const model = modelOf(raw);
        expect(FormModel.safeParse(model).success).toBe(true);
        const defaults = Object.fromEntries(
          model.fields.map((field) => [field.name, 'default' in field ? field.default : undefined]),
        );
        const live = validateForm(model, defaults);
        const main = checkAnswer(model, answerContent(model, defaults));
        for (const field of model.fields) {
          const fallback: unknown = 'default' in field ? field.default : undefined;
          if (fallback === undefined) {
            continue;
          }
          const blank = fallback === '' || (Array.isArray(fallback) && fallback.length === 0);
          if (!(blank && field.required)) {
            expect(live.fields[field.name]).toBeUndefined();
            expect(main.ok || main.errors.every((error) => error.field !== field.name)).toBe(true);
          }
        }
      }),
      { numRuns: 500, examples: REAL.map(([raw]) => [raw] as [unknown]) },
    );
  });
});

describe("today's agents' forms", () => {
  it.each(realForms().map((recorded) => [recorded.file, recorded] as const))(
    '%s: accepted, and the answer sent for it passes both checks',
    (_file, recorded) => {
      const result = normaliseFormSchema(recorded.params.requestedSchema);
      expect(result.ok).toBe(true);
      const model = (result as { ok: true; model: FormModel }).model;
      const content = recorded.answer.content ?? {};
      expect(isFormValid(validateForm(model, content as FormValues))).toBe(true);
      expect(checkAnswer(model, content)).toEqual({ ok: true, content });
    },
  );
});
