/**
 * How a question ended without the user's answer, in its transcript row, with what the user had
 * typed on it still there to read and copy: one line per field, by its title. A secret answer
 * is never shown, only named. Nothing here is sent anywhere.
 */
import type { ElicitationContent } from '../../../preload/shared/contract';
import type { FormModel } from '../../../preload/shared/form-model';
import type { FormValues } from '../../../preload/shared/form-validator';
import { answerLines, type AnswerLine } from '../forms/answer-text';
import { typedAnswers } from '../state/card-drafts';
import { CopyButton } from './copy-button';

/** What stands for a secret answer, shown and copied. */
export const SECRET_ANSWER = 'a secret answer';

/** The lines of what the user had typed, in the form's order; secrets only named. */
export function typedLines(model: FormModel, values: FormValues): AnswerLine[] {
  const content: ElicitationContent = {};
  for (const [name, value] of Object.entries(values)) {
    if (
      typeof value === 'string' ||
      typeof value === 'number' ||
      typeof value === 'boolean' ||
      (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    ) {
      content[name] = value as ElicitationContent[string];
    }
  }
  const secret = new Set(
    model.fields.filter((field) => field.presentation?.secret).map((field) => field.name),
  );
  return answerLines(model, content).map((line) =>
    secret.has(line.name) ? { ...line, text: SECRET_ANSWER } : line,
  );
}

/** The row's outcome of a card that ended without the user's answer: why, and what they typed. */
export function EndedOutcome({
  cardKey,
  form,
  text,
}: {
  cardKey: string;
  form: FormModel;
  /** Why it ended, in a few words ("Withdrawn by the agent"). */
  text: string;
}) {
  const values = typedAnswers(cardKey);
  const lines = values ? typedLines(form, values) : [];
  if (lines.length === 0) {
    return <p className="elicitation-outcome outcome-ended">{text}</p>;
  }
  const copied = lines.map((line) => `${line.label}: ${line.text}`).join('\n');
  return (
    <div className="elicitation-outcome outcome-ended typed-answers">
      <p>{`${text}. You had typed:`}</p>
      <dl className="sent-values">
        {lines.map((line) => (
          <div key={line.name}>
            <dt>{line.label}</dt>
            <dd>{line.text}</dd>
          </div>
        ))}
      </dl>
      <p className="typed-note">
        Not sent to the agent; kept here so you can copy it.{' '}
        <CopyButton text={() => copied} what="what you had typed" />
      </p>
    </div>
  );
}
