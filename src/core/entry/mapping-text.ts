import { SsogateError } from '../errors/ssogate-error.js';

/** A user-info mapping as an administrator wrote it, not yet compiled. */
export interface MappingSource {
  readonly attribute: string;
  readonly expression: string;
  /**
   * A missing value fails the sign-in. userId is always required; any other
   * attribute the response lacks is left unset unless marked so.
   */
  readonly required?: boolean;
}

/** Where a mapping came from in the text form, to place later problems. */
export interface MappingSourcePosition {
  readonly line: number;
  /** 1-based column at which the expression starts on its line. */
  readonly expressionColumn: number;
  readonly attributeColumn: number;
}

interface MappingTextResult {
  readonly mappings: readonly MappingSource[];
  readonly positions: readonly MappingSourcePosition[];
  readonly problems: readonly SsogateError[];
}

const attributeName = /^[A-Za-z_][A-Za-z0-9_]*$/;
const space = /\s/;
const lineBreak = /[\r\u2028\u2029]/;

interface MappingLine {
  readonly indent: number;
  /** `required ` and the space after it, or "". */
  readonly marker: string;
  readonly attribute: string;
  readonly gapBefore: number;
  readonly gapAfter: number;
  readonly expression: string;
}

/** The index of the first character at or after `from` that is not white space. */
function skipSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && space.test(text.charAt(index))) index += 1;
  return index;
}

/**
 * Splits `attribute = expression` (after an optional `required `) in one
 * pass. A regular expression with optional gaps around the `=` backtracked
 * over long runs of spaces and took quadratic time on a line of them. `a ==
 * b` is not a mapping of `a` to `= b`.
 */
function readMappingLine(content: string): MappingLine | undefined {
  const indent = skipSpace(content, 0);
  let start = indent;
  let marker = '';
  if (content.startsWith('required', start)) {
    const after = skipSpace(content, start + 'required'.length);
    const next = content.charAt(after);
    if (after > start + 'required'.length && next !== '' && next !== '=') {
      marker = content.slice(start, after);
      start = after;
    }
  }
  let end = start;
  while (end < content.length && content[end] !== '=' && !space.test(content.charAt(end))) end += 1;
  const equals = skipSpace(content, end);
  if (content[equals] !== '=' || content[equals + 1] === '=') return undefined;
  const expressionStart = skipSpace(content, equals + 1);
  const expression = content.slice(expressionStart).trimEnd();
  // A line break other than \n inside the expression does not make a line.
  if (lineBreak.test(expression)) return undefined;
  return {
    indent,
    marker,
    attribute: content.slice(start, end),
    gapBefore: equals - end,
    gapAfter: expressionStart - equals - 1,
    expression,
  };
}

/**
 * Reads the text form of `userInfoParse` (docs/entries.md#user-mapping): one `attribute =
 * expression` per line; blank lines and lines starting with `#` are ignored.
 * Only the line shape is checked here; attribute names and expressions are
 * checked with the rest of the entry, at the positions recorded here.
 */
export function parseMappingText(text: string, field = 'userInfoParse'): MappingTextResult {
  const mappings: MappingSource[] = [];
  const positions: MappingSourcePosition[] = [];
  const problems: SsogateError[] = [];
  text.split(/\r?\n/).forEach((content, index) => {
    const line = index + 1;
    const trimmed = content.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const match = readMappingLine(content);
    if (match === undefined || !attributeName.test(match.attribute) || match.expression === '') {
      problems.push(
        new SsogateError(
          'userinfo_text_syntax',
          `line ${line} is not of the form "attribute = expression" or "required attribute = expression" (for example userId = JSON_GET($response, 'id'))`,
          { field, line, column: (match?.indent ?? 0) + 1 },
        ),
      );
      return;
    }
    const { indent, marker, attribute, gapBefore, gapAfter, expression } = match;
    mappings.push(
      marker === '' ? { attribute, expression } : { attribute, expression, required: true },
    );
    const attributeColumn = indent + marker.length + 1;
    positions.push({
      line,
      attributeColumn,
      expressionColumn: attributeColumn + attribute.length + gapBefore + 1 + gapAfter,
    });
  });
  return { mappings, positions, problems };
}

/** The canonical text form: parseMappingText(printMappingText(m)) gives m back. */
export function printMappingText(mappings: readonly MappingSource[]): string {
  return mappings
    .map(
      ({ attribute, expression, required }) =>
        `${required === true ? 'required ' : ''}${attribute} = ${expression}`,
    )
    .join('\n');
}
