import type { TemplatePart } from './types.js';

/**
 * Splitting a parsed template at literal delimiters (`?`, `#`, `&`, `=`).
 * Placeholder names cannot contain these characters, so a delimiter is always
 * in a literal part; splitting never looks inside a substituted value.
 */

interface SplitOnce {
  readonly before: readonly TemplatePart[];
  /** The delimiter found, or undefined when none was. */
  readonly delimiter: string | undefined;
  /** Column of the delimiter, or undefined when none was. */
  readonly column: number | undefined;
  readonly after: readonly TemplatePart[];
}

function slice(
  part: TemplatePart & { type: 'literal' },
  start: number,
  end?: number,
): TemplatePart[] {
  const text = part.text.slice(start, end);
  return text === '' ? [] : [{ type: 'literal', text, column: part.column + start }];
}

function firstOf(text: string, delimiters: string): number {
  for (let index = 0; index < text.length; index += 1) {
    if (delimiters.includes(text.charAt(index))) return index;
  }
  return -1;
}

/** Splits at the first character in `delimiters`. */
export function splitOnce(parts: readonly TemplatePart[], delimiters: string): SplitOnce {
  for (const [index, part] of parts.entries()) {
    if (part.type !== 'literal') continue;
    // Delimiters are ASCII, so a UTF-16 unit search cannot hit half a surrogate pair.
    const unit = firstOf(part.text, delimiters);
    if (unit === -1) continue;
    return {
      before: [...parts.slice(0, index), ...slice(part, 0, unit)],
      delimiter: part.text.charAt(unit),
      column: part.column + unit,
      after: [...slice(part, unit + 1), ...parts.slice(index + 1)],
    };
  }
  return { before: parts, delimiter: undefined, column: undefined, after: [] };
}

/**
 * Splits at every `delimiter`; empty pieces are kept (as empty arrays). One
 * pass over the parts: splitting the rest again at each delimiter would copy
 * it each time, quadratic in the number of parameters.
 */
export function splitAll(
  parts: readonly TemplatePart[],
  delimiter: string,
): (readonly TemplatePart[])[] {
  const pieces: (readonly TemplatePart[])[] = [];
  let piece: TemplatePart[] = [];
  for (const part of parts) {
    if (part.type !== 'literal') {
      piece.push(part);
      continue;
    }
    let start = 0;
    for (let found = part.text.indexOf(delimiter); found !== -1;) {
      piece.push(...slice(part, start, found));
      pieces.push(piece);
      piece = [];
      start = found + delimiter.length;
      found = part.text.indexOf(delimiter, start);
    }
    piece.push(...slice(part, start));
  }
  pieces.push(piece);
  return pieces;
}
