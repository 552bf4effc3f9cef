/**
 * The controls of the elicitation card, as RJSF widgets.
 *
 * Each control is named by its field's title (the `<label>` or `<legend>` the field template
 * draws), says whether it is required, and is linked to its description, hints and errors.
 * Values stay exactly what the user chose: no control invents one (a select starts on
 * "Choose…", an unanswered yes/no shows as neither).
 */
import { useEffect, useRef, type ChangeEvent } from 'react';
import type { BaseInputTemplateProps, FieldProps, WidgetProps } from '@rjsf/utils';
import {
  cardContext,
  describedBy,
  fieldMeta,
  partIds,
  showsErrors,
  type FieldMeta,
} from './card-form';
import { fromLocalInput, toLocalInput } from './date-time';

/** What every control shares: its id, required state, error state and descriptions. */
function useControl(props: WidgetProps) {
  const context = cardContext(props.registry);
  const meta = fieldMeta(props.registry, props.name) as FieldMeta;
  const invalid = showsErrors(context, props.name) && (props.rawErrors?.length ?? 0) > 0;
  return {
    meta,
    touch: () => context.touch(props.name),
    aria: {
      'aria-invalid': invalid || undefined,
      'aria-describedby': describedBy(meta, invalid),
    },
  };
}

const NUMBER_TYPES = new Set(['number', 'integer']);

/**
 * The text input behind strings, emails, URLs, dates and numbers. Numbers are typed as text, so
 * whatever the user typed reaches the validator ("Enter a number"), instead of a number input
 * silently reporting an unreadable entry as empty.
 */
export function BaseInput(props: BaseInputTemplateProps) {
  const { value, onChange, onBlur, onFocus, options, required, disabled, readonly, type } = props;
  const { meta, touch, aria } = useControl(props);
  const numeric = NUMBER_TYPES.has(type ?? '') || NUMBER_TYPES.has(meta.field.kind);
  return (
    <input
      id={meta.domId}
      name={meta.domId}
      className="field-input"
      // Masked when the agent marks the answer as secret; no password manager is offered it.
      type={meta.masked ? 'password' : numeric ? 'text' : (type ?? 'text')}
      inputMode={numeric ? 'decimal' : undefined}
      autoComplete={meta.masked ? 'new-password' : 'off'}
      aria-label={meta.accessibleName}
      value={value === undefined || value === null ? '' : String(value)}
      required={required}
      aria-required={required || undefined}
      disabled={disabled}
      readOnly={readonly}
      onChange={(event: ChangeEvent<HTMLInputElement>) => {
        touch();
        onChange(event.target.value === '' ? options.emptyValue : event.target.value);
      }}
      onBlur={(event) => {
        touch();
        onBlur(props.id, event.target.value);
      }}
      onFocus={(event) => onFocus(props.id, event.target.value)}
      {...aria}
    />
  );
}

/** A date and time: a local date-time input, answered with the user's UTC offset. */
export function DateTimeWidget(props: WidgetProps) {
  const { value, onChange, onBlur, onFocus, required, disabled } = props;
  const { meta, touch, aria } = useControl(props);
  return (
    <input
      id={meta.domId}
      name={meta.domId}
      className="field-input"
      type="datetime-local"
      value={toLocalInput(value)}
      required={required}
      aria-required={required || undefined}
      disabled={disabled}
      onChange={(event) => {
        touch();
        onChange(fromLocalInput(event.target.value));
      }}
      onBlur={() => {
        touch();
        onBlur(props.id, value);
      }}
      onFocus={() => onFocus(props.id, value)}
      {...aria}
    />
  );
}

/** A single select: a "Choose…" entry first unless a default exists, then the options' titles. */
export function SelectWidget(props: WidgetProps) {
  const { value, onChange, onBlur, onFocus, required, disabled, placeholder } = props;
  const { meta, touch, aria } = useControl(props);
  const field = meta.field.kind === 'single-select' ? meta.field : undefined;
  const options = field?.options ?? [];
  const chosen = typeof value === 'string' && options.some((option) => option.value === value);
  // A required field with a default never needs the empty entry; every other one keeps it, so
  // an optional answer can be taken back.
  const empty = !(required && field?.default !== undefined && chosen);
  const described = options.some((option) => option.description);
  return (
    <>
      <select
        id={meta.domId}
        name={meta.domId}
        className="field-input"
        value={chosen ? value : ''}
        required={required}
        aria-required={required || undefined}
        disabled={disabled}
        onChange={(event) => {
          touch();
          onChange(event.target.value === '' ? undefined : event.target.value);
        }}
        onBlur={() => {
          touch();
          onBlur(props.id, value);
        }}
        onFocus={() => onFocus(props.id, value)}
        {...aria}
        aria-describedby={
          [aria['aria-describedby'], described ? partIds(meta).options : undefined]
            .filter(Boolean)
            .join(' ') || undefined
        }
      >
        {empty ? <option value="">{placeholder || 'Choose…'}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.title}
          </option>
        ))}
      </select>
      {described ? (
        <ul id={partIds(meta).options} className="option-descriptions">
          {options.map((option) => (
            <li key={option.value} className={option.value === value ? 'chosen' : undefined}>
              <span className="option-title">{option.title}</span>
              {option.description ? `: ${option.description}` : null}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/**
 * A single choice as a list of rows: a radio button per option, its title the button's name and
 * its description (and preview, as plain text) under it, so each choice reads whole. An optional
 * choice can be taken back with Clear.
 */
export function ChoiceListWidget(props: WidgetProps) {
  const { value, onChange, onBlur, onFocus, required, disabled } = props;
  const { meta, touch, aria } = useControl(props);
  const options = meta.field.kind === 'single-select' ? meta.field.options : [];
  const chosen = typeof value === 'string' ? value : undefined;
  return (
    <div className="choice-list">
      {options.map((option, index) => {
        const id = `${meta.domId}-${index}`;
        const notes = [
          option.description ? `${id}-description` : undefined,
          option.preview ? `${id}-preview` : undefined,
        ];
        return (
          <div
            key={option.value}
            className={`choice-row${option.value === chosen ? ' chosen' : ''}`}
          >
            <input
              id={id}
              type="radio"
              name={meta.domId}
              checked={option.value === chosen}
              disabled={disabled}
              onChange={() => {
                touch();
                onChange(option.value);
              }}
              onBlur={() => {
                touch();
                onBlur(props.id, value);
              }}
              onFocus={() => onFocus(props.id, value)}
              aria-invalid={aria['aria-invalid']}
              aria-describedby={
                [...notes, aria['aria-describedby']].filter(Boolean).join(' ') || undefined
              }
            />
            <span className="choice-text">
              <label htmlFor={id} className="choice-title">
                {option.title}
              </label>
              {option.description ? (
                <span id={`${id}-description`} className="option-description">
                  {option.description}
                </span>
              ) : null}
            </span>
            {option.preview ? (
              <pre id={`${id}-preview`} className="option-preview">
                {option.preview}
              </pre>
            ) : null}
          </div>
        );
      })}
      {!required && chosen !== undefined ? (
        <button
          type="button"
          className="choice-clear"
          disabled={disabled}
          onClick={() => {
            touch();
            onChange(undefined);
          }}
        >
          Clear the choice
        </button>
      ) : null}
    </div>
  );
}

/** A multi select: one checkbox per option, in the schema's order, each with its description. */
export function CheckboxesWidget(props: WidgetProps) {
  const { value, onChange, onBlur, onFocus, disabled } = props;
  const { meta, touch, aria } = useControl(props);
  const options = meta.field.kind === 'multi-select' ? meta.field.options : [];
  const chosen = new Set(Array.isArray(value) ? (value as unknown[]) : []);
  // Options with words of their own read as rows, as a single choice's do.
  const rows = options.some((option) => option.description ?? option.preview);
  return (
    <div className={`checkbox-group${rows ? ' choice-list' : ''}`}>
      {options.map((option, index) => {
        const id = `${meta.domId}-${index}`;
        const descriptionId = `${id}-description`;
        return (
          <div
            key={option.value}
            className={`checkbox-option${rows ? ' choice-row' : ''}${rows && chosen.has(option.value) ? ' chosen' : ''}`}
          >
            <input
              id={id}
              type="checkbox"
              checked={chosen.has(option.value)}
              disabled={disabled}
              onChange={(event) => {
                touch();
                const next = new Set(chosen);
                if (event.target.checked) {
                  next.add(option.value);
                } else {
                  next.delete(option.value);
                }
                onChange(options.filter((each) => next.has(each.value)).map((each) => each.value));
              }}
              onBlur={() => {
                touch();
                onBlur(props.id, value);
              }}
              onFocus={() => onFocus(props.id, value)}
              aria-invalid={aria['aria-invalid']}
              aria-describedby={
                [option.description ? descriptionId : undefined, aria['aria-describedby']]
                  .filter(Boolean)
                  .join(' ') || undefined
              }
            />
            <span className="choice-text">
              <label htmlFor={id}>{option.title}</label>
              {option.description ? (
                <span id={descriptionId} className="option-description">
                  {option.description}
                </span>
              ) : null}
            </span>
          </div>
        );
      })}
    </div>
  );
}

/**
 * A yes/no field as one checkbox labelled by its title. Unanswered (no default, not touched) it
 * shows as mixed and says so: nothing is sent for it, not even `false`.
 */
export function CheckboxWidget(props: WidgetProps) {
  const { value, onChange, onBlur, onFocus, required, disabled } = props;
  const { meta, touch, aria } = useControl(props);
  const box = useRef<HTMLInputElement>(null);
  const unanswered = typeof value !== 'boolean';
  useEffect(() => {
    if (box.current) {
      box.current.indeterminate = unanswered;
    }
  }, [unanswered]);
  return (
    <div className="checkbox-single">
      <input
        ref={box}
        id={meta.domId}
        type="checkbox"
        checked={value === true}
        aria-required={required || undefined}
        disabled={disabled}
        onChange={(event) => {
          touch();
          onChange(event.target.checked);
        }}
        onBlur={() => {
          touch();
          onBlur(props.id, value);
        }}
        onFocus={() => onFocus(props.id, value)}
        {...aria}
      />
      <label id={partIds(meta).label} htmlFor={meta.domId}>
        {meta.label}
      </label>
      {unanswered ? <span className="unanswered">Not answered</span> : null}
    </div>
  );
}

/** A required yes/no question with no default: Yes and No, neither chosen at first. */
export function RadioWidget(props: WidgetProps) {
  const { value, onChange, onBlur, onFocus, disabled } = props;
  const { meta, touch, aria } = useControl(props);
  return (
    <div className="radio-group">
      {[true, false].map((answer) => {
        const id = `${meta.domId}-${answer ? 'yes' : 'no'}`;
        return (
          <span key={id} className="radio-option">
            <input
              id={id}
              type="radio"
              name={meta.domId}
              checked={value === answer}
              disabled={disabled}
              onChange={() => {
                touch();
                onChange(answer);
              }}
              onBlur={() => {
                touch();
                onBlur(props.id, value);
              }}
              onFocus={() => onFocus(props.id, value)}
              {...aria}
            />
            <label htmlFor={id}>{answer ? 'Yes' : 'No'}</label>
          </span>
        );
      })}
    </div>
  );
}

/** A field Airlock cannot show: no control at all; the field template says why. */
export function UnsupportedField(_props: FieldProps) {
  return null;
}

/** The card's widgets, by the names RJSF looks them up with. */
export const cardWidgets = {
  ChoiceListWidget,
  DateTimeWidget,
  SelectWidget,
  CheckboxesWidget,
  CheckboxWidget,
  RadioWidget,
};
