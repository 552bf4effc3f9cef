/**
 * How the elicitation card lays out a field around its control, as RJSF templates.
 *
 * A field shows its title as the control's label (or its group's legend), a "required" mark,
 * its description, its constraints in plain words, a warning when it looks like it asks for a
 * secret, and its errors in a live region the control points to. The form's own title and
 * description are quoted by the card, above the fields. Agent text is always React text, never
 * HTML.
 */
import type { FieldTemplateProps, ObjectFieldTemplateProps, TemplatesType } from '@rjsf/utils';
import { cardContext, fieldMeta, partIds, showsErrors, type FieldMeta } from './card-form';
import { BaseInput } from './card-widgets';

function RequiredMark() {
  // The control itself says it is required (`aria-required`); this is for the eye.
  return (
    <span className="field-required" aria-hidden="true">
      required
    </span>
  );
}

function FieldNotes({ meta }: { meta: FieldMeta }) {
  const ids = partIds(meta);
  return (
    <>
      {meta.field.description ? (
        <p id={ids.description} className="field-description">
          {meta.field.description}
        </p>
      ) : null}
      {meta.hint ? (
        <p id={ids.hint} className="field-hint">
          {meta.hint}
        </p>
      ) : null}
      {meta.secretNote ? (
        <p id={ids.secret} className="field-warning">
          {meta.secretNote}
        </p>
      ) : null}
    </>
  );
}

function FieldErrors({ meta, errors }: { meta: FieldMeta; errors: string[] }) {
  // Always in the page, so a screen reader hears each new message as the user types.
  return (
    <div id={partIds(meta).errors} className="field-errors" aria-live="polite">
      {errors.length > 0 ? (
        <ul>
          {errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** One field: label or legend, notes, the control and its errors. */
export function FieldTemplate(props: FieldTemplateProps) {
  const { children, rawErrors, registry, fieldPathId, required } = props;
  const name = fieldPathId.path.at(-1);
  const meta = typeof name === 'string' ? fieldMeta(registry, name) : undefined;
  if (!meta) {
    // The root object: its template draws the form's own title and description.
    return children;
  }
  const shown = showsErrors(cardContext(registry), meta.field.name) ? (rawErrors ?? []) : [];
  const ids = partIds(meta);
  const kind = meta.field.kind;
  const className = `field field-${kind}${meta.field.presentation?.companion ? ' field-companion' : ''}${shown.length > 0 ? ' has-errors' : ''}`;

  if (kind === 'unsupported') {
    return (
      <div className={className} role="group" aria-labelledby={ids.label}>
        <p id={ids.label} className="field-label">
          {meta.label}
          {required ? <RequiredMark /> : null}
        </p>
        <FieldNotes meta={meta} />
        <p className="unsupported-note">
          Airlock cannot show this field: {meta.field.reason}.{' '}
          {required
            ? 'It must be answered, so this form cannot be accepted: decline or cancel it.'
            : 'It is left unanswered.'}
        </p>
      </div>
    );
  }
  if (kind === 'multi-select' || meta.yesNo || meta.list) {
    const radios = meta.yesNo || meta.list;
    return (
      <fieldset
        className={className}
        role={radios ? 'radiogroup' : undefined}
        aria-required={radios && required ? true : undefined}
        aria-describedby={shown.length > 0 ? ids.errors : undefined}
      >
        <legend id={ids.label} className="field-label">
          {meta.label}
          {required ? <span className="field-required"> required</span> : null}
        </legend>
        <FieldNotes meta={meta} />
        {children}
        <FieldErrors meta={meta} errors={shown} />
      </fieldset>
    );
  }
  return (
    <div className={className}>
      {kind === 'boolean' ? null : (
        <div className="field-head">
          <label id={ids.label} htmlFor={meta.domId} className="field-label">
            {meta.label}
          </label>
          {required ? <RequiredMark /> : null}
        </div>
      )}
      {kind === 'boolean' ? children : null}
      <FieldNotes meta={meta} />
      {kind === 'boolean' ? null : children}
      <FieldErrors meta={meta} errors={shown} />
    </div>
  );
}

/**
 * The form: every field in the schema's order. Its title and description are the agent's words,
 * which the card quotes above the form (agent-words.tsx), never as a heading of the app's.
 */
export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { properties, registry } = props;
  const context = cardContext(registry);
  const content = new Map(properties.map((property) => [property.name, property.content]));
  return (
    <div className="card-fields">
      {context.groups.map((group) => {
        const fields = group.names.map((name) => content.get(name));
        const lead = context.fields.get(group.names[0]!);
        if (!lead || (!group.question && group.names.length === 1)) {
          // A field that stands alone is its own unit: no wrapper.
          return fields;
        }
        const headingId = `${lead.domId}-question`;
        return group.question ? (
          <div key={lead.field.name} className="question" role="group" aria-labelledby={headingId}>
            <p id={headingId} className="question-number">
              Question {group.question.number} of {group.question.of}
            </p>
            {fields}
          </div>
        ) : (
          <div key={lead.field.name} className="question">
            {fields}
          </div>
        );
      })}
    </div>
  );
}

function Nothing() {
  return null;
}

/** The card's templates: errors and help are drawn by its field template, not RJSF's own. */
export const cardTemplates: Partial<Omit<TemplatesType, 'ButtonTemplates'>> = {
  BaseInputTemplate: BaseInput,
  FieldTemplate,
  ObjectFieldTemplate,
  ErrorListTemplate: Nothing,
  FieldErrorTemplate: Nothing,
  FieldHelpTemplate: Nothing,
};
