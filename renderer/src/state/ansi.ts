/**
 * A terminal's output as coloured pieces of text: ANSI SGR escapes (colours, bold, italic,
 * underline) become styles, a carriage return goes back to the start of its line (so a progress
 * bar redrawn in place shows its last state), every other escape and control character is
 * dropped, and the rest stays text. Parsed by `anser` into JSON, never into HTML.
 *
 * The 16 standard colours are class names whose colours are design tokens (styles.css, light
 * and dark); a 256-colour or 24-bit colour is an `rgb()` value, built only from numbers.
 */
import Anser from 'anser';

/** A standard colour, as a class suffix: `red`, `bright-red`… */
export type AnsiColour = `${'' | 'bright-'}${(typeof COLOURS)[number]}`;

/** One piece of output in one style. */
export type AnsiSegment = {
  text: string;
  fg?: AnsiColour;
  bg?: AnsiColour;
  /** A colour outside the 16, as `rgb(r, g, b)`. */
  fgRgb?: string;
  bgRgb?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
};

const COLOURS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const;
const STANDARD = new Set<string>(COLOURS.flatMap((colour) => [colour, `bright-${colour}`]));

/** The levels of the 6×6×6 colour cube of the 256-colour palette (xterm's). */
const CUBE = [0, 95, 135, 175, 215, 255];

/**
 * An escape sequence anser leaves in the text (OSC titles and links, other CSI), or a control
 * character other than a tab, a line break or a carriage return (see {@link overwrite}).
 */
const LEFT_OVER =
  /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]?|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** A palette colour (16–255) as `rgb(…)`. */
function paletteRgb(index: number): string | undefined {
  if (!Number.isInteger(index) || index < 16 || index > 255) {
    return undefined;
  }
  if (index >= 232) {
    const level = 8 + (index - 232) * 10;
    return `rgb(${level}, ${level}, ${level})`;
  }
  const cube = index - 16;
  return `rgb(${CUBE[Math.floor(cube / 36)]}, ${CUBE[Math.floor(cube / 6) % 6]}, ${CUBE[cube % 6]})`;
}

/** `"r, g, b"` as anser gives a 24-bit colour, checked to be three numbers up to 255. */
function trueRgb(value: string | null): string | undefined {
  const match = /^(\d{1,3}), (\d{1,3}), (\d{1,3})$/.exec(value ?? '');
  if (!match || match.slice(1).some((part) => Number(part) > 255)) {
    return undefined;
  }
  return `rgb(${match[1]}, ${match[2]}, ${match[3]})`;
}

/** The colour anser named (`ansi-red`, `ansi-palette-208`, `ansi-truecolor`), as a segment's. */
function colour(
  name: string | null,
  truecolor: string | null,
): { colour?: AnsiColour; rgb?: string } {
  if (!name?.startsWith('ansi-')) {
    return {};
  }
  const bare = name.slice('ansi-'.length);
  if (STANDARD.has(bare)) {
    return { colour: bare as AnsiColour };
  }
  if (bare === 'truecolor') {
    return { rgb: trueRgb(truecolor) };
  }
  if (bare.startsWith('palette-')) {
    return { rgb: paletteRgb(Number(bare.slice('palette-'.length))) };
  }
  return {};
}

/** The output as styled segments; output without escapes is one plain segment. */
export function ansiSegments(output: string): AnsiSegment[] {
  const segments = styled(output);
  return output.includes('\r') ? overwrite(segments) : segments;
}

/** The output's styled pieces, carriage returns still in their text. */
function styled(output: string): AnsiSegment[] {
  if (!output.includes('\u001b')) {
    const text = output.replace(LEFT_OVER, '');
    return text ? [{ text }] : [];
  }
  const segments: AnsiSegment[] = [];
  for (const entry of Anser.ansiToJson(output, {
    json: true,
    remove_empty: true,
    use_classes: true,
  })) {
    const text = entry.content.replace(LEFT_OVER, '');
    if (!text) {
      continue;
    }
    const fg = colour(entry.fg, entry.fg_truecolor);
    const bg = colour(entry.bg, entry.bg_truecolor);
    const has = (decoration: string) => entry.decorations.includes(decoration as never);
    segments.push({
      text,
      ...(fg.colour ? { fg: fg.colour } : {}),
      ...(fg.rgb ? { fgRgb: fg.rgb } : {}),
      ...(bg.colour ? { bg: bg.colour } : {}),
      ...(bg.rgb ? { bgRgb: bg.rgb } : {}),
      ...(has('bold') ? { bold: true } : {}),
      ...(has('dim') ? { dim: true } : {}),
      ...(has('italic') ? { italic: true } : {}),
      ...(has('underline') ? { underline: true } : {}),
    });
  }
  return segments;
}

/**
 * The segments as a terminal shows them after carriage returns: `\r` moves back to the start of
 * the line and what follows overwrites it character by character, keeping the rest of a longer
 * line (`abc\rX` shows `Xbc`), as a real terminal does; `\r\n` is a plain line break.
 */
function overwrite(segments: AnsiSegment[]): AnsiSegment[] {
  type Cell = { char: string; from: AnsiSegment };
  const out: AnsiSegment[] = [];
  /** The segment being written, and the one its style came from. */
  let current: { segment: AnsiSegment; from: AnsiSegment } | undefined;
  const push = (char: string, from: AnsiSegment) => {
    if (current?.from === from) {
      current.segment.text += char;
    } else {
      current = { segment: { ...from, text: char }, from };
      out.push(current.segment);
    }
  };
  let line: Cell[] = [];
  let column = 0;
  const endLine = (newline?: AnsiSegment) => {
    for (const cell of line) {
      push(cell.char, cell.from);
    }
    if (newline) {
      push('\n', line.at(-1)?.from ?? newline);
    }
    line = [];
    column = 0;
  };
  for (const segment of segments) {
    for (const char of segment.text) {
      if (char === '\r') {
        column = 0;
      } else if (char === '\n') {
        endLine(segment);
      } else {
        line[column++] = { char, from: segment };
      }
    }
  }
  endLine();
  return out;
}
