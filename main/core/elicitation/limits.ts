/**
 * Every limit Airlock puts on an agent's elicitation requests, in one place.
 *
 * Each value is generous for an honest agent (a real form is a handful of fields with short
 * labels) and small enough that a hostile one cannot make the app slow, the card unreadable or
 * the process large. Text lengths are counted in UTF-16 code units, as JavaScript counts them.
 * A request past any of these is refused with JSON-RPC -32602 and a reason naming the limit.
 */

/**
 * Elicitations one agent connection may have waiting on the user at once.
 *
 * Past this, a new request is refused instead of stacking another card; no person answers 32
 * forms in parallel, so only a runaway or hostile agent reaches it.
 */
export const MAX_PENDING_ELICITATIONS_PER_CONNECTION = 32;

/**
 * Size of `requestedSchema`, in bytes of its UTF-8 JSON serialisation.
 *
 * 64 KiB holds 64 fields with long descriptions and hundreds of options; it is checked before
 * anything else in the schema is looked at.
 */
export const MAX_SCHEMA_BYTES = 64 * 1024;

/**
 * Properties (form fields) in one form.
 *
 * A form longer than this is a document, not a question.
 */
export const MAX_PROPERTIES = 64;

/**
 * Options in one single-select or multi-select field (`enum`, `oneOf` or `items.anyOf`).
 *
 * Enough for a list of countries or files; more belongs in free text.
 */
export const MAX_OPTIONS_PER_FIELD = 256;

/**
 * The request's `message`, the text that says what is asked and why.
 *
 * About a page of prose; it is shown whole on the card, never elided.
 */
export const MAX_MESSAGE_CHARS = 4_000;

/**
 * A title: the form's, a field's or an option's.
 *
 * Titles are labels; a label longer than a line or two hides the form.
 */
export const MAX_TITLE_CHARS = 200;

/**
 * A description: the form's, a field's or an option's.
 *
 * A paragraph of help under a field.
 */
export const MAX_DESCRIPTION_CHARS = 2_000;

/**
 * An option's preview, from the agent's `_meta` (Claude's mockups and snippets); longer ones are
 * cut, not refused: a preview is a hint, not part of the form.
 */
export const MAX_PREVIEW_CHARS = 4_000;

/**
 * A string field's `pattern`.
 *
 * Real patterns (an id, a version, a slug) are tens of characters. The pattern is evaluated
 * only by re2js (linear time in the input), so this bounds compile work, not match time.
 */
export const MAX_PATTERN_CHARS = 1_000;

/**
 * A string field's `default`.
 *
 * Room for a pre-filled paragraph or a short file; the default must also satisfy the field.
 */
export const MAX_STRING_DEFAULT_CHARS = 10_000;

/**
 * A property's name (the key in `properties`, and in the answer's `content`).
 *
 * Names are identifiers; the title is what the user reads.
 */
export const MAX_PROPERTY_NAME_CHARS = 128;

/**
 * One option's value (an `enum` entry or a `const`).
 *
 * Values are identifiers or short paths; an untitled option also shows its value as its label.
 */
export const MAX_OPTION_VALUE_CHARS = 500;

/**
 * A string field's `format` name, known or not.
 *
 * Format names are single words (`email`, `date-time`); an unknown one is kept as a note.
 */
export const MAX_FORMAT_NAME_CHARS = 64;

/**
 * Length of a `sessionId`, `toolCallId` or string `requestId` in an elicitation's scope.
 *
 * Ids are opaque tokens; none an honest agent sends comes near this.
 */
export const MAX_SCOPE_ID_CHARS = 1_000;

/**
 * Length of a URL elicitation's `elicitationId`.
 *
 * The id is opaque and echoed back only in `elicitation/complete`.
 */
export const MAX_ELICITATION_ID_CHARS = 1_000;

/**
 * Length of a URL an agent asks the user to open (URL mode, or a link in a reply), as sent and
 * once serialised.
 *
 * Sign-in and payment URLs with long state and PKCE parameters stay under 2 KB; 8 KiB leaves
 * room and keeps the URL readable in full on the consent card, which never elides it.
 */
export const MAX_URL_CHARS = 8_192;
