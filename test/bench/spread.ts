/** How the bench prints a figure measured over several runs: its spread, never one run alone. */

/** The median of `values` (the mean of the middle two when there is an even number). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]!
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** `min A, median B, max C`, each value written by `format`. */
export function spread(values: number[], format: (value: number) => string): string {
  if (values.length === 0) {
    return 'no runs';
  }
  return (
    `min ${format(Math.min(...values))}, median ${format(median(values))}, ` +
    `max ${format(Math.max(...values))}`
  );
}

/** A whole number with thousands separators: 27,068. */
export function whole(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Milliseconds, whole. */
export function ms(value: number): string {
  return `${whole(value)} ms`;
}

/** A ratio as a percentage with one decimal. */
export function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
