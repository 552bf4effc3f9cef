/**
 * An accepted answer as text, for the card once it has ended: each sent field by its title,
 * each chosen option by its title, yes/no as words. Only what was sent is listed.
 */
import type { ElicitationContent } from '../../../preload/shared/contract';
import type { FormField, FormModel } from '../../../preload/shared/form-model';

/** One sent field, ready to show. */
export type AnswerLine = { name: string; label: string; text: string };

function optionTitle(field: FormField, value: string): string {
  if (field.kind !== 'single-select' && field.kind !== 'multi-select') {
    return value;
  }
  return field.options.find((option) => option.value === value)?.title ?? value;
}

function valueText(field: FormField | undefined, value: ElicitationContent[string]): string {
  if (typeof value === 'boolean') {
    return value ? 'Yes' : 'No';
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return 'None';
    }
    return value.map((item) => (field ? optionTitle(field, item) : item)).join(', ');
  }
  if (typeof value === 'string') {
    if (value === '') {
      return '(empty)';
    }
    return field ? optionTitle(field, value) : value;
  }
  return String(value);
}

/** The lines of an accepted answer, in the form's field order. */
export function answerLines(model: FormModel, content: ElicitationContent): AnswerLine[] {
  const lines: AnswerLine[] = [];
  const known = new Set<string>();
  for (const field of model.fields) {
    known.add(field.name);
    if (Object.hasOwn(content, field.name)) {
      lines.push({
        name: field.name,
        label: field.title ?? field.name,
        text: valueText(field, content[field.name]!),
      });
    }
  }
  // Main sends only the form's fields; anything else would still be shown, never hidden.
  for (const [name, value] of Object.entries(content)) {
    if (!known.has(name)) {
      lines.push({ name, label: name, text: valueText(undefined, value) });
    }
  }
  return lines;
}
