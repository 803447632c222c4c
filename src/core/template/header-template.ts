import { SsogateError } from '../errors/ssogate-error.js';
import { checkPlaceholderNames } from './check-names.js';
import { valueFor } from './missing-value.js';
import type { PlaceholderValues } from './missing-value.js';
import type { TemplateKind } from './placeholders.js';
import { byColumn, problemAt } from './problem.js';
import { scanPlaceholders } from './scan.js';
import type { CompileOptions, TemplatePart } from './types.js';

/** A per-call request header such as `Authorization: Bearer ${access_token}`. */
export interface CompiledHeader {
  readonly kind: TemplateKind;
  readonly name: string;
  readonly source: string;
  readonly placeholders: ReadonlySet<string>;
  readonly parts: readonly TemplatePart[];
}

type HeaderTemplateResult =
  | { readonly ok: true; readonly header: CompiledHeader }
  | { readonly ok: false; readonly problems: readonly SsogateError[] };

// RFC 9110 §5.1: field-name = token; §5.6.2: tchar.
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const notTchar = /[^!#$%&'*+\-.^_`|~0-9A-Za-z]/;
// Framing and routing are the HTTP client's job; letting an entry set them
// would allow request smuggling or sending the request to another host.
const reservedNames = ['host', 'content-length', 'transfer-encoding', 'connection'];
// RFC 9110 §5.5: a field value is HTAB, SP, visible ASCII and obs-text. All
// other controls (CR, LF, NUL, DEL, C1) and characters above U+00FF, which
// Node cannot put on the wire, are refused.
const badValueCharacter = /[^\t\u0020-\u007e\u00a0-\u00ff]/u;

/**
 * Compiles a header whose value may use the same placeholders as the `kind`
 * URL template (same matrix, same syntax errors). Columns are 1-based into
 * the name or the value. Never throws.
 */
export function compileHeaderTemplate(
  name: string,
  value: string,
  kind: TemplateKind,
  options: CompileOptions = {},
): HeaderTemplateResult {
  const { field } = options;
  const problems: SsogateError[] = [];
  if (!token.test(name)) {
    const column = name === '' ? 1 : (notTchar.exec(name)?.index ?? 0) + 1;
    problems.push(
      problemAt(
        'header_invalid',
        `The header name \`${name}\` is not an HTTP token (RFC 9110 §5.1).`,
        column,
        field,
      ),
    );
  } else if (reservedNames.includes(name.toLowerCase())) {
    problems.push(
      problemAt(
        'header_invalid',
        `The header \`${name}\` is set by the gateway and cannot be configured.`,
        1,
        field,
      ),
    );
  }
  const scan = scanPlaceholders(value, 0, field);
  // A loop, not push(...list): a hostile value has hundreds of thousands of
  // problems, more arguments than one call can take.
  for (const problem of [
    ...scan.problems,
    ...checkPlaceholderNames(
      scan.parts,
      kind,
      options.extraPlaceholders ?? [],
      field,
      options.adjustments,
      field ?? kind,
    ),
  ])
    problems.push(problem);
  for (const part of scan.parts) {
    const found = part.type === 'literal' ? badValueCharacter.exec(part.text) : null;
    if (found !== null) {
      problems.push(
        problemAt(
          'header_invalid',
          'The header value contains a control character or a character above U+00FF.',
          part.column + found.index,
          field,
        ),
      );
    }
  }
  if (problems.length > 0) return { ok: false, problems: byColumn(problems) };
  const placeholders = new Set<string>();
  for (const part of scan.parts) if (part.type === 'placeholder') placeholders.add(part.name);
  return {
    ok: true,
    header: Object.freeze({
      kind,
      name,
      source: value,
      placeholders,
      parts: Object.freeze(scan.parts),
    }),
  };
}

/**
 * Substitutes values RAW (a header is not a URL), then refuses the result if
 * it holds CR, LF, NUL or any other control character: a token such as
 * `t\r\nX-Evil: 1` must never become a second header (header injection).
 */
export function renderHeaderValue(template: CompiledHeader, values: PlaceholderValues): string {
  let out = '';
  for (const part of template.parts) {
    if (part.type === 'literal') {
      out += part.text;
      continue;
    }
    const value = valueFor(values, part);
    const found = badValueCharacter.exec(value);
    if (found !== null) {
      throw new SsogateError(
        'header_invalid',
        `The value for \${${part.name}} contains a control character or a character above U+00FF, so it cannot go into the ${template.name} header.`,
        { column: part.column },
      );
    }
    out += value;
  }
  return out;
}
