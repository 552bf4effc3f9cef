/**
 * An open form elicitation: who asks and why, the form RJSF draws from the agent's schema, and
 * Accept, Decline and Cancel.
 *
 * The renderer only shows and collects: it gives live feedback with the shared validator, and
 * sends `acceptedContent` (only what was answered, typed as the schema says). Main checks the
 * answer again and may refuse it; the refusal shows here and the card stays open.
 */
// The Form alone: @rjsf/core's index also exports a test registry that imports
// @rjsf/validator-ajv8, which compiles with `new Function` (refused by the renderer's CSP).
import './elicitation-card.css';
import Form from '@rjsf/core/lib/components/Form.js';
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import type { AirlockApi, ElicitationAction } from '../../../preload/shared/contract';
import type { AnswerContent } from '../../../preload/shared/form-model';
import { validateForm } from '../../../preload/shared/form-validator';
import {
  acceptedContent,
  cannotAccept,
  cardUiSchema,
  DEFAULT_FORM_STATE,
  fieldGroups,
  fieldMetas,
  initialValues,
  type CardFormContext,
  type FieldMeta,
} from '../forms/card-form';
import { cardTemplates } from '../forms/card-templates';
import { cardWidgets, UnsupportedField } from '../forms/card-widgets';
import { NumberField } from '../forms/number-field';
import { createRjsfForm } from '../forms/rjsf-validator';
import { SECRET_WARNING } from '../forms/secret-fields';
import { escapeAsks, loadDraft, saveDraft, type CardDraft } from '../state/card-drafts';
import type { Row } from '../state/transcript';
import { AgentWords } from './agent-words';
import { AutoResolveCountdown } from './auto-resolve';
import { askerName, CardHead } from './card-head';
import { belowText, firstBelow, useFieldsBelow } from './use-fields-below';

/** A transcript row holding an elicitation. */
export type ElicitationRow = Extract<Row, { kind: 'elicitation' }>;

type Props = {
  api: AirlockApi;
  sessionKey: string;
  /** The tab the card belongs to, as its header names it. */
  sessionLabel: string;
  row: ElicitationRow;
  /** The title of the tool call the card is about, if it is about one. */
  toolTitle?: string;
};

const CARD_FIELDS = { NumberField };

const ENTER_SUBMITS = new Set(['button', 'submit', 'reset', 'file', 'image']);

/** Moves focus to a field's control (the first of a group's). */
function focusField(meta: FieldMeta): void {
  const control =
    document.getElementById(meta.domId) ??
    document.getElementById(`${meta.domId}-0`) ??
    document.getElementById(`${meta.domId}-yes`);
  control?.focus();
}

/** The question Esc asks on a card the user changed, live as a polite status. */
export const DISCARD_QUESTION = 'Discard your answers?';

type DiscardProps = {
  /** Whether the card asks now; the status stays in place either way, so it is announced. */
  asking: boolean;
  questionId: string;
  keepRef: RefObject<HTMLButtonElement | null>;
  onKeep: () => void;
  onDiscard: () => void;
};

/**
 * "Discard your answers?" with Keep editing (focused first: Enter keeps editing) and Discard,
 * in the card's action row while it asks. Nothing is sent until Discard, which cancels the card.
 */
export function DiscardPrompt({ asking, questionId, keepRef, onKeep, onDiscard }: DiscardProps) {
  return (
    <>
      <span id={questionId} className="card-discard-question" role="status">
        {asking ? DISCARD_QUESTION : ''}
      </span>
      {asking ? (
        <span className="card-discard" role="group" aria-labelledby={questionId}>
          <button type="button" ref={keepRef} onClick={onKeep} aria-keyshortcuts="Enter">
            Keep editing
          </button>
          <button type="button" className="discard" onClick={onDiscard} aria-keyshortcuts="Escape">
            Discard
          </button>
        </span>
      ) : null}
    </>
  );
}

/** The open card. */
export function ElicitationCard({ api, sessionKey, sessionLabel, row, toolTitle }: Props) {
  const { cardKey, form: model } = row;
  const rjsf = useMemo(() => createRjsfForm(model), [model]);
  const metas = useMemo(() => fieldMetas(model, cardKey), [model, cardKey]);
  const uiSchema = useMemo(() => cardUiSchema(model, metas, UnsupportedField), [model, metas]);
  const acceptable = !cannotAccept(model);
  const secret = [...metas.values()].some((meta) => meta.secret);

  const [draft, setDraft] = useState<CardDraft>(() =>
    loadDraft(cardKey, () => ({ values: initialValues(model), touched: [], submitted: false })),
  );
  const update = useCallback(
    (change: (current: CardDraft) => CardDraft) =>
      setDraft((current) => {
        const next = change(current);
        saveDraft(cardKey, next);
        return next;
      }),
    [cardKey],
  );
  const [busy, setBusy] = useState<ElicitationAction | undefined>();

  const touch = useCallback(
    (name: string) =>
      update((current) =>
        current.touched.includes(name)
          ? current
          : { ...current, touched: [...current.touched, name] },
      ),
    [update],
  );
  const groups = useMemo(() => fieldGroups(model), [model]);
  const context = useMemo<CardFormContext>(
    () => ({ fields: metas, groups, touched: draft.touched, submitted: draft.submitted, touch }),
    [metas, groups, touch, draft.submitted, draft.touched],
  );

  const respond = (action: ElicitationAction, content?: AnswerContent) => {
    if (busy) {
      return;
    }
    setBusy(action);
    update((current) => ({ ...current, refusal: undefined }));
    api
      .invoke('elicitation:respond', {
        key: sessionKey,
        cardKey,
        action,
        ...(content ? { content } : {}),
      })
      // On success the card ends, and the session view shows how; a refusal keeps it open.
      .catch((failure: unknown) =>
        update((current) => ({ ...current, refusal: (failure as Error).message })),
      )
      .finally(() => setBusy(undefined));
  };

  // A form taller than the stage: the footer says how many questions it has, and how many are
  // still below it.
  const cardElement = useRef<HTMLDivElement>(null);
  const fieldsBelow = useFieldsBelow(cardElement);
  const below = belowText(fieldsBelow);

  // Esc on a card the user changed asks first (escapeAsks); Keep editing goes back to where they were.
  const [asking, setAsking] = useState(false);
  const keepButton = useRef<HTMLButtonElement>(null);
  const focusBefore = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (asking) {
      // The action row is sticky, in view: the fields stay where the user was.
      keepButton.current?.focus({ preventScroll: true });
    }
  }, [asking]);
  const escape = () => {
    if (!escapeAsks(cardKey, asking)) {
      respond('cancel');
      return;
    }
    const active = document.activeElement;
    focusBefore.current =
      active instanceof HTMLElement && cardElement.current?.contains(active) ? active : null;
    setAsking(true);
  };
  const keepEditing = () => {
    setAsking(false);
    const back = focusBefore.current;
    if (back?.isConnected) {
      back.focus();
      return;
    }
    const first = model.fields.map((field) => metas.get(field.name)).find(Boolean);
    if (first) {
      focusField(first);
    }
  };

  const errors = validateForm(model, draft.values);
  const waiting = Object.keys(errors.fields).length;

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.defaultPrevented) {
      return;
    }
    if (event.key === 'Escape') {
      // Esc here ends this card only; the session view's Esc (cancel the turn) skips an event
      // that was handled already.
      event.preventDefault();
      event.stopPropagation();
      escape();
      return;
    }
    if (
      asking &&
      event.key === 'Enter' &&
      !(event.target instanceof HTMLButtonElement && event.target !== keepButton.current)
    ) {
      // While the card asks, Enter keeps editing (Discard, focused, still takes its own Enter).
      event.preventDefault();
      keepEditing();
      return;
    }
    const target = event.target;
    const entry =
      (target instanceof HTMLInputElement && !ENTER_SUBMITS.has(target.type)) ||
      target instanceof HTMLSelectElement;
    if (event.key === 'Enter' && entry && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      // Enter never accepts questions the user has not seen: it shows the next one below.
      const next = cardElement.current ? firstBelow(cardElement.current) : undefined;
      if (next) {
        next.scrollIntoView({ block: 'nearest' });
        next.querySelector<HTMLElement>('input, select, textarea')?.focus();
        return;
      }
      if (acceptable) {
        target.form?.requestSubmit();
      }
    }
  };

  const headingId = `${cardKey}-heading`;
  return (
    <div
      ref={cardElement}
      className="elicitation-card"
      role="group"
      aria-labelledby={headingId}
      aria-busy={busy !== undefined}
      onKeyDown={onKeyDown}
    >
      <CardHead
        headingId={headingId}
        heading={`Question from ${askerName(row.agent)}`}
        agent={row.agent}
        scope={row.scope}
        sessionLabel={sessionLabel}
        toolTitle={toolTitle}
      />
      <AgentWords
        asker={askerName(row.agent)}
        title={model.title}
        message={row.message}
        description={model.description}
      />
      {model.presentation?.autoResolvesAt !== undefined ? (
        <AutoResolveCountdown
          at={model.presentation.autoResolvesAt}
          who={row.agent.title ?? row.agent.name ?? row.agent.configName}
        />
      ) : null}
      {secret ? (
        <p className="card-warning" role="note">
          {SECRET_WARNING}
        </p>
      ) : null}
      <Form
        className="card-form"
        idPrefix={cardKey}
        schema={rjsf.schema}
        validator={rjsf.validator}
        uiSchema={uiSchema}
        formData={draft.values}
        formContext={context}
        templates={cardTemplates}
        widgets={cardWidgets}
        fields={CARD_FIELDS}
        experimental_defaultFormStateBehavior={DEFAULT_FORM_STATE}
        liveValidate="onChange"
        showErrorList={false}
        noHtml5Validate
        autoComplete="off"
        onChange={({ formData }) => update((current) => ({ ...current, values: formData ?? {} }))}
        onError={() => {
          update((current) => ({ ...current, submitted: true }));
          const first = model.fields.find((field) => errors.fields[field.name]);
          const meta = first ? metas.get(first.name) : undefined;
          if (meta) {
            focusField(meta);
          }
        }}
        onSubmit={({ formData }) => respond('accept', acceptedContent(model, formData))}
      >
        {draft.submitted && waiting > 0 ? (
          <p className="card-summary" role="alert">
            Nothing was sent: {waiting === 1 ? '1 answer needs' : `${waiting} answers need`}{' '}
            attention.
          </p>
        ) : null}
        {!acceptable ? (
          <p className="card-summary">
            This form has a required field Airlock cannot show, so it cannot be accepted.
          </p>
        ) : null}
        {draft.refusal ? (
          <p className="card-refusal" role="alert">
            {draft.refusal}
          </p>
        ) : null}
        <div className="card-actions">
          <DiscardPrompt
            asking={asking}
            questionId={`${cardKey}-discard`}
            keepRef={keepButton}
            onKeep={keepEditing}
            onDiscard={() => respond('cancel')}
          />
          {asking ? null : acceptable ? (
            <button type="submit" className="primary" aria-keyshortcuts="Enter">
              Accept
            </button>
          ) : null}
          {asking ? null : (
            <>
              <button type="button" onClick={() => respond('decline')}>
                Decline
              </button>
              <button type="button" onClick={() => respond('cancel')} aria-keyshortcuts="Escape">
                Cancel
              </button>
            </>
          )}
          {below && !asking ? <span className="card-below">{below}</span> : null}
          <span className="card-keys" aria-hidden="true">
            {asking
              ? 'Enter keeps editing · Esc discards'
              : fieldsBelow?.below
                ? 'Enter shows the next question · '
                : acceptable
                  ? 'Enter accepts · '
                  : ''}
            {asking ? null : 'Esc cancels'}
          </span>
        </div>
      </Form>
    </div>
  );
}
