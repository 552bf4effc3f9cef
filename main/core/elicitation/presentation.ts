/**
 * How a form card shows what the agent meant: hints read from what it sent beyond the flat
 * subset, each a progressive enhancement that no agent needs to send.
 *
 * - Claude Agent's AskUserQuestion sends each question as `question_N` (a choice) with a
 *   free-text `question_N_custom` ("Other") beside it, and an option's preview under
 *   `_meta["_claude/askUserQuestionOption"].preview`.
 * - Codex's `request_user_input` marks each question with `_meta.codex` (`isOther`, `isSecret`),
 *   its note field with `role: "user_note"` and the `questionId` it belongs to, and the request
 *   with `_meta.codex.autoResolutionMs`, after which Codex resolves the question itself.
 *
 * The hints change only how the card shows the form: the answer is checked against the flat
 * model as before. Unknown `_meta` keys are ignored, and a hint of the wrong shape is dropped.
 * Every string kept is bounded.
 */
import type {
  FieldPresentation,
  FormField,
  FormModel,
  FormOption,
} from '../../../preload/shared/form-model.js';
import { MAX_DESCRIPTION_CHARS, MAX_PREVIEW_CHARS } from './limits.js';

type Json = { [key: string]: unknown };

/** What the request said beside its schema. */
export type PresentationContext = {
  /** The request's `message`, which is the question when there is only one. */
  message: string;
  /** The request's `_meta`, as it came. */
  meta: unknown;
  /** Now, in milliseconds since the epoch. */
  now: number;
};

/** The longest wait before an agent resolves a question itself that the card counts down: a day. */
export const MAX_AUTO_RESOLUTION_MS = 24 * 60 * 60 * 1000;

// Claude's option previews live under this `_meta` key.
const CLAUDE_OPTION_META = '_claude/askUserQuestionOption';
// A choice with at most this many options, asked as a question, shows them as a list.
const LIST_OPTIONS = 12;

/**
 * The model with how to show it: `raw` is the agent's `requestedSchema`, already accepted by
 * normaliseFormSchema (so it is an object, and its properties are the model's fields).
 */
export function presentForm(
  model: FormModel,
  raw: unknown,
  context: PresentationContext,
): FormModel {
  const properties = isObject(raw) && isObject(raw.properties) ? raw.properties : {};
  const property = (name: string): Json => {
    const value = Object.hasOwn(properties, name) ? properties[name] : undefined;
    return isObject(value) ? value : {};
  };
  const byName = new Map(model.fields.map((field) => [field.name, field]));
  const companions = findCompanions(model, property, byName);
  const companionOf = new Map([...companions].map(([question, found]) => [found.name, question]));
  // A question is a field the agent marked as one: it has a companion, or Codex's hints that
  // do not make it a note.
  const questions = model.fields.filter((field) => {
    const codex = codexHints(property(field.name));
    return (
      !companionOf.has(field.name) &&
      (companions.has(field.name) || (codex !== undefined && codex.role !== 'user_note'))
    );
  });
  const numbered = questions.length >= 2;
  const fields = model.fields.map((field): FormField => {
    const hints = property(field.name);
    const presentation: FieldPresentation = {};
    const place = questions.indexOf(field);
    if (numbered && place >= 0) {
      presentation.question = { number: place + 1, of: questions.length };
    }
    const question = companionOf.get(field.name);
    if (question !== undefined) {
      const found = companions.get(question)!;
      presentation.companion = {
        of: question,
        kind: found.kind,
        question: questionText(byName.get(question)!, property(question), questions, context),
      };
    }
    if (codexHints(hints)?.isSecret === true) {
      presentation.secret = true;
    }
    const withOptions = withPreviews(field, hints);
    if (
      withOptions.kind === 'single-select' &&
      (withOptions.options.some((option) => option.description ?? option.preview) ||
        (place >= 0 && withOptions.options.length <= LIST_OPTIONS))
    ) {
      presentation.choices = 'list';
    }
    return Object.keys(presentation).length > 0 ? { ...withOptions, presentation } : withOptions;
  });
  const autoResolutionMs = readAutoResolution(context.meta);
  return {
    ...model,
    fields,
    ...(autoResolutionMs === undefined
      ? {}
      : { presentation: { autoResolvesAt: Math.round(context.now + autoResolutionMs) } }),
  };
}

type Companion = { name: string; kind: 'other' | 'note' };

/** Each choice question's free-text companion, by the question's name. */
function findCompanions(
  model: FormModel,
  property: (name: string) => Json,
  byName: Map<string, FormField>,
): Map<string, Companion> {
  const found = new Map<string, Companion>();
  const isChoice = (name: string) => {
    const kind = byName.get(name)?.kind;
    return kind === 'single-select' || kind === 'multi-select';
  };
  for (const field of model.fields) {
    if (field.kind !== 'string') {
      continue;
    }
    const codex = codexHints(property(field.name));
    const claude = /^(question_\d+)_custom$/.exec(field.name)?.[1];
    let match: (Companion & { of: string }) | undefined;
    if (codex?.role === 'user_note' && typeof codex.questionId === 'string') {
      match = { name: field.name, kind: 'note', of: codex.questionId };
    } else if (claude !== undefined) {
      match = { name: field.name, kind: 'other', of: claude };
    }
    if (
      match !== undefined &&
      match.of !== field.name &&
      isChoice(match.of) &&
      !found.has(match.of)
    ) {
      found.set(match.of, { name: match.name, kind: match.kind });
    }
  }
  return found;
}

/** The words of a question, as its companion is named after them. */
function questionText(
  field: FormField,
  hints: Json,
  questions: FormField[],
  context: PresentationContext,
): string {
  // Codex's title is the question (its header is the description); Claude's title is a short
  // header and the question is the description, or the message when it asks only one.
  const text =
    codexHints(hints) !== undefined
      ? (field.title ?? field.description)
      : (field.description ??
        (questions.length <= 1 && context.message.trim() !== '' ? context.message : undefined) ??
        field.title);
  return clip(text ?? field.name, MAX_DESCRIPTION_CHARS);
}

/** The field with each option's preview from Claude's `_meta`, where it sent one. */
function withPreviews(field: FormField, hints: Json): FormField {
  if (field.kind !== 'single-select' && field.kind !== 'multi-select') {
    return field;
  }
  const list =
    field.kind === 'single-select'
      ? hints.oneOf
      : isObject(hints.items)
        ? hints.items.anyOf
        : undefined;
  if (!Array.isArray(list) || list.length !== field.options.length) {
    return field;
  }
  let changed = false;
  const options = field.options.map((option, index): FormOption => {
    const raw: unknown = list[index];
    const meta = isObject(raw) && isObject(raw._meta) ? raw._meta : undefined;
    const claude =
      meta !== undefined && isObject(meta[CLAUDE_OPTION_META])
        ? meta[CLAUDE_OPTION_META]
        : undefined;
    const preview = claude?.preview;
    if (typeof preview !== 'string' || preview.trim() === '') {
      return option;
    }
    changed = true;
    return { ...option, preview: clip(preview, MAX_PREVIEW_CHARS) };
  });
  return changed ? ({ ...field, options } as FormField) : field;
}

/** Codex's hints on a property (`_meta.codex`), if it carries them. */
function codexHints(property: Json): Json | undefined {
  const meta = property._meta;
  return isObject(meta) && isObject(meta.codex) ? meta.codex : undefined;
}

/** How long the agent waits before it resolves the question itself, if it said and it fits. */
function readAutoResolution(meta: unknown): number | undefined {
  const ms = isObject(meta) && isObject(meta.codex) ? meta.codex.autoResolutionMs : undefined;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 && ms <= MAX_AUTO_RESOLUTION_MS
    ? ms
    : undefined;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
