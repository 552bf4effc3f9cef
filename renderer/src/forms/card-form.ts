/**
 * Everything the elicitation card tells RJSF beyond the schema: which control draws each field,
 * its ids and hints, how defaults are computed, and what the card's fields share at render time.
 *
 * Ids are made from the card key and the field's position, never from the agent's property
 * name: a name may hold spaces, and `aria-describedby` is a space-separated list of ids.
 */
import type {
  Experimental_DefaultFormStateBehavior,
  Registry,
  UiSchema,
  UIOptionsType,
} from '@rjsf/utils';
import type {
  AnswerContent,
  FormField,
  FormModel,
  StringField,
} from '../../../preload/shared/form-model';
import {
  answerContent,
  compilePattern,
  type FormValues,
} from '../../../preload/shared/form-validator';
import { localZone } from './date-time';
import { looksLikeSecret, SECRET_WARNING } from './secret-fields';

/** What the card knows about one field, beyond its schema. */
export type FieldMeta = {
  field: FormField;
  /** The label: the field's title, or its property name when it has none. */
  label: string;
  /** The id of the field's control (or of its group). */
  domId: string;
  /** Whether the field reads like a request for a secret, or the agent marks it as one. */
  secret: boolean;
  /** The agent marks the answer as secret: a text field is masked. */
  masked: boolean;
  /** What the field says of secrets under its control, if anything. */
  secretNote?: string;
  /**
   * The control's accessible name when the label alone would not say enough: an "Other" field
   * is named after its question ("Other answer to: Which database…").
   */
  accessibleName?: string;
  /** A single choice shown as a list of radio buttons, each with its description. */
  list: boolean;
  /** The constraints in plain words, shown under the control. */
  hint?: string;
  /** A yes/no field that must be answered and has no default: Yes and No, neither chosen. */
  yesNo: boolean;
};

/**
 * What the card shares with its RJSF templates and widgets (RJSF's `formContext`). RJSF skips
 * re-rendering a field whose props are deeply equal, and compares no functions: what decides the
 * display is data here (`touched`, `submitted`), so a change to it reaches every field.
 */
export type CardFormContext = {
  fields: ReadonlyMap<string, FieldMeta>;
  /** The fields as the card groups them, in order: each question with its "Other" or note. */
  groups: readonly FieldGroup[];
  /** Fields the user changed or left: their errors show. */
  touched: readonly string[];
  /** Whether Accept was tried: every error shows. */
  submitted: boolean;
  /** Marks a field as worked on. */
  touch(name: string): void;
};

/** Whether a field's errors are shown: it was worked on, or Accept was tried. */
export function showsErrors(context: CardFormContext, name: string): boolean {
  return context.submitted || context.touched.includes(name);
}

/** The ids of the parts around a field's control. */
export function partIds(meta: FieldMeta) {
  return {
    label: `${meta.domId}-label`,
    description: `${meta.domId}-description`,
    hint: `${meta.domId}-hint`,
    secret: `${meta.domId}-secret`,
    errors: `${meta.domId}-errors`,
    options: `${meta.domId}-options`,
  };
}

/** The `aria-describedby` of a field's control: only parts that are there. */
export function describedBy(meta: FieldMeta, errorsShown: boolean): string | undefined {
  const ids = partIds(meta);
  const list = [
    errorsShown ? ids.errors : undefined,
    meta.field.description ? ids.description : undefined,
    meta.hint ? ids.hint : undefined,
    meta.secretNote ? ids.secret : undefined,
  ].filter((id): id is string => id !== undefined);
  return list.length > 0 ? list.join(' ') : undefined;
}

/** The card's context, as RJSF hands it to a template or widget. */
export function cardContext(registry: Registry): CardFormContext {
  return registry.formContext as CardFormContext;
}

/** The card's metadata for a field, by property name. */
export function fieldMeta(registry: Registry, name: string): FieldMeta | undefined {
  return cardContext(registry).fields.get(name);
}

function characters(count: number): string {
  return `${count} ${count === 1 ? 'character' : 'characters'}`;
}

function lengthHint(min: number | undefined, max: number | undefined): string | undefined {
  if (min !== undefined && max !== undefined) {
    return min === max ? `Exactly ${characters(min)}` : `${min} to ${characters(max)}`;
  }
  if (min !== undefined) {
    return `At least ${characters(min)}`;
  }
  return max !== undefined ? `At most ${characters(max)}` : undefined;
}

function hintFor(field: FormField): string | undefined {
  switch (field.kind) {
    case 'string': {
      const parts = [lengthHint(field.minLength, field.maxLength)];
      if (field.format === 'email') {
        parts.push('An email address');
      } else if (field.format === 'uri') {
        parts.push('A full address, such as https://example.com/page');
      } else if (field.format === 'date-time') {
        parts.push(`Your local time, sent with its offset from UTC (${localZone()})`);
      }
      if (field.pattern !== undefined) {
        parts.push(`Must match the pattern ${field.pattern}`);
      }
      if (field.unknownFormat !== undefined) {
        parts.push(
          `The agent asked for the format "${field.unknownFormat}", which Airlock does not check`,
        );
      }
      return parts.filter(Boolean).join('. ') || undefined;
    }
    case 'number':
    case 'integer': {
      const kind = field.kind === 'integer' ? 'A whole number' : 'A number';
      if (field.minimum !== undefined && field.maximum !== undefined) {
        return `${kind} from ${field.minimum} to ${field.maximum}`;
      }
      if (field.minimum !== undefined) {
        return `${kind}, ${field.minimum} or more`;
      }
      return field.maximum !== undefined ? `${kind}, ${field.maximum} or less` : kind;
    }
    case 'multi-select': {
      const { minItems: min, maxItems: max } = field;
      if (min !== undefined && max !== undefined) {
        return min === max ? `Choose ${min}` : `Choose ${min} to ${max}`;
      }
      if (min !== undefined) {
        return `Choose at least ${min}`;
      }
      return max !== undefined ? `Choose at most ${max}` : undefined;
    }
    default:
      return undefined;
  }
}

/** The name of a question's free-text companion, which says which question it answers. */
export function companionName(label: string, question: string): string {
  return label === 'Other' ? `Other answer to: ${question}` : `${label}, for: ${question}`;
}

/** The card's metadata for every field, by property name. */
export function fieldMetas(model: FormModel, cardKey: string): Map<string, FieldMeta> {
  return new Map(
    model.fields.map((field, index) => {
      const label = field.title ?? field.name;
      const shown = field.presentation;
      const meta: FieldMeta = {
        field,
        label,
        domId: `${cardKey}-field-${index}`,
        secret: looksLikeSecret(field) || shown?.secret === true,
        masked: shown?.secret === true && field.kind === 'string' && field.format === undefined,
        list: field.kind === 'single-select' && shown?.choices === 'list',
        hint: hintFor(field),
        yesNo: field.kind === 'boolean' && field.required && field.default === undefined,
      };
      if (meta.masked) {
        meta.secretNote = 'Hidden as you type: the agent marks this answer as secret.';
      } else if (looksLikeSecret(field)) {
        meta.secretNote = `This looks like it asks for a secret. ${SECRET_WARNING}`;
      }
      if (shown?.companion) {
        meta.accessibleName = companionName(label, shown.companion.question);
      }
      return [field.name, meta];
    }),
  );
}

/** The fields as the card groups them: each question with its companions, in the schema's order. */
export type FieldGroup = {
  /** The question's place among several ("1 of 2"); absent for a card that asks only one. */
  question?: { number: number; of: number };
  /** The field names, the question's first. */
  names: string[];
};

/**
 * How the card groups its fields: a question's "Other" or note goes right after it (wherever
 * the agent put it), and every other field stands alone.
 */
export function fieldGroups(model: FormModel): FieldGroup[] {
  const names = new Set(model.fields.map((field) => field.name));
  const companions = new Map<string, string[]>();
  for (const field of model.fields) {
    const of = field.presentation?.companion?.of;
    if (of !== undefined && names.has(of) && of !== field.name) {
      companions.set(of, [...(companions.get(of) ?? []), field.name]);
    }
  }
  const bound = new Set([...companions.values()].flat());
  return model.fields.flatMap((field): FieldGroup[] => {
    if (bound.has(field.name) && !companions.has(field.name)) {
      return [];
    }
    const question = field.presentation?.question;
    return [
      {
        ...(question ? { question } : {}),
        names: [field.name, ...(companions.get(field.name) ?? [])],
      },
    ];
  });
}

function fieldUi(meta: FieldMeta): UiSchema {
  const options: UIOptionsType = { label: false };
  switch (meta.field.kind) {
    case 'boolean':
      return { 'ui:widget': meta.yesNo ? 'radio' : 'checkbox', 'ui:options': options };
    case 'multi-select':
      return { 'ui:widget': 'checkboxes', 'ui:options': options };
    case 'single-select':
      return meta.list
        ? { 'ui:widget': 'ChoiceListWidget', 'ui:options': options }
        : { 'ui:widget': 'select', 'ui:placeholder': 'Choose…', 'ui:options': options };
    default:
      return { 'ui:options': options };
  }
}

/** The uiSchema for a model: one entry per field, in the schema's order. */
export function cardUiSchema(
  model: FormModel,
  metas: ReadonlyMap<string, FieldMeta>,
  unsupported: UiSchema['ui:field'],
): UiSchema {
  const ui: UiSchema = { 'ui:order': model.fields.map((field) => field.name) };
  for (const [name, meta] of metas) {
    ui[name] = meta.field.kind === 'unsupported' ? { 'ui:field': unsupported } : fieldUi(meta);
  }
  return ui;
}

/**
 * How RJSF computes a form's first values: only declared defaults, never an invented one. No
 * empty list for a multi-select, no `false` for a yes/no question, and no first option taken
 * from a titled select (`oneOf`).
 */
export const DEFAULT_FORM_STATE: Experimental_DefaultFormStateBehavior = {
  arrayMinItems: { populate: 'never' },
  emptyObjectFields: 'skipEmptyDefaults',
  constAsDefaults: 'skipOneOf',
  requiredBooleanDefault: 'skip',
  mergeDefaultsIntoFormData: 'useFormDataIfPresent',
};

/** The values a card starts with: each declared default, falsy ones (0, false, "") included. */
export function initialValues(model: FormModel): FormValues {
  return Object.fromEntries(
    model.fields.flatMap((field) =>
      field.kind !== 'unsupported' && field.default !== undefined
        ? [[field.name, Array.isArray(field.default) ? [...field.default] : field.default]]
        : [],
    ),
  );
}

/**
 * The `content` of an accepted form. `answerContent` leaves every blank field out; a text field
 * whose declared default is "" and that is still blank is answered with that "", as the other
 * falsy defaults (0, false) are, when "" is a valid answer for it.
 */
export function acceptedContent(model: FormModel, values: FormValues | undefined): AnswerContent {
  const content = answerContent(model, values);
  for (const field of model.fields) {
    const value = values?.[field.name];
    if (
      field.kind === 'string' &&
      field.default === '' &&
      (value === undefined || value === '') &&
      emptyIsValid(field)
    ) {
      Object.defineProperty(content, field.name, {
        value: '',
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return content;
}

function emptyIsValid(field: StringField): boolean {
  if ((field.minLength ?? 0) > 0 || field.format !== undefined) {
    return false;
  }
  if (field.pattern === undefined) {
    return true;
  }
  const pattern = compilePattern(field.pattern);
  return pattern.ok && pattern.test('');
}

/** Whether the model has a required field Airlock cannot show: then it cannot be accepted. */
export function cannotAccept(model: FormModel): boolean {
  return model.fields.some((field) => field.kind === 'unsupported' && field.required);
}
