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

export interface MappingTextResult {
  readonly mappings: readonly MappingSource[];
  readonly positions: readonly MappingSourcePosition[];
  readonly problems: readonly SsogateError[];
}

// `attribute = expression`; the `(?!=)` keeps `a == b` from being read as a
// mapping of `a` to `= b`.
// A leading `required ` marks an attribute the response must hold.
const mappingLine = /^(\s*)(required\s+(?=[^\s=]))?([^\s=]*)(\s*)=(?!=)(\s*)(.*?)\s*$/;
const attributeName = /^[A-Za-z_][A-Za-z0-9_]*$/;

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
    const match = mappingLine.exec(content);
    const [
      ,
      indent = '',
      marker = '',
      attribute = '',
      gapBefore = '',
      gapAfter = '',
      expression = '',
    ] = match ?? [];
    if (match === null || !attributeName.test(attribute) || expression === '') {
      problems.push(
        new SsogateError(
          'userinfo_text_syntax',
          `line ${line} is not of the form "attribute = expression" or "required attribute = expression" (for example userId = JSON_GET($response, 'id'))`,
          { field, line, column: indent.length + 1 },
        ),
      );
      return;
    }
    mappings.push(
      marker === '' ? { attribute, expression } : { attribute, expression, required: true },
    );
    const attributeColumn = indent.length + marker.length + 1;
    positions.push({
      line,
      attributeColumn,
      expressionColumn: attributeColumn + attribute.length + gapBefore.length + 1 + gapAfter.length,
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
