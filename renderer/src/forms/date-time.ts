/**
 * Converts between a `date-time` answer and what a `datetime-local` input holds.
 *
 * The input shows the user's own wall-clock time; the answer carries that time with the user's
 * UTC offset at that date (`2026-07-28T09:30:00+02:00`), so the agent learns both the moment and
 * the user's zone. Pure apart from the local time zone that `Date` reads.
 */

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

function pad(value: number, width = 2): string {
  return String(Math.abs(value)).padStart(width, '0');
}

/** `+HH:MM` or `-HH:MM` for an offset in minutes east of UTC. */
export function formatOffset(minutesEast: number): string {
  const sign = minutesEast < 0 ? '-' : '+';
  return `${sign}${pad(Math.trunc(minutesEast / 60))}:${pad(minutesEast % 60)}`;
}

/** The local wall-clock fields of `date`, as a `datetime-local` value with seconds. */
function localFields(date: Date): string {
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/**
 * The answer for a `datetime-local` value: the same wall-clock time with the local offset, or
 * `undefined` when the input is empty or incomplete (the field is then unanswered).
 */
export function fromLocalInput(local: string): string | undefined {
  const match = LOCAL_INPUT.exec(local);
  if (!match) {
    return undefined;
  }
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  const date = new Date(year!, month! - 1, day!, hour!, minute!, Number.isNaN(second) ? 0 : second);
  if (Number.isNaN(date.getTime())) {
    return undefined;
  }
  return `${localFields(date)}${formatOffset(-date.getTimezoneOffset())}`;
}

/**
 * What a `datetime-local` input shows for an answer (a default, or a value typed earlier): the
 * moment in local time, without seconds when they are zero; `""` for anything unreadable.
 */
export function toLocalInput(value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    return '';
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    return '';
  }
  const fields = localFields(date);
  return fields.endsWith(':00') ? fields.slice(0, -3) : fields;
}

/** The user's time zone, by name, for the field's hint. */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
