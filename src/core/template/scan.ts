import type { SsogateError } from '../errors/ssogate-error.js';
import { problemAt } from './problem.js';
import type { TemplatePart } from './types.js';

const validName = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface ScanResult {
  readonly parts: readonly TemplatePart[];
  readonly problems: readonly SsogateError[];
}

/**
 * Splits `text` into literal text and `${name}` placeholders. `offset` is the
 * 0-based index of `text` inside the source, so columns point into the source.
 *
 * A broken `${` (not closed, empty, or not a name) is reported and kept as
 * literal text, so later checks still run and every problem is reported.
 * A `$` not followed by `{`, and a lone `}`, are ordinary literal characters.
 */
export function scanPlaceholders(
  text: string,
  offset: number,
  field: string | undefined,
): ScanResult {
  const parts: TemplatePart[] = [];
  const problems: SsogateError[] = [];
  let literal = '';
  let literalStart = 0;
  let index = 0;
  // The next `}` and `${` found, kept between rounds: searching again from
  // each `${` would rescan the same text and take quadratic time on
  // `${${${...` or a template without any `}`.
  let close = -1;
  let nextOpen = -1;
  while (index < text.length) {
    const open = nextOpen >= index ? nextOpen : text.indexOf('${', index);
    if (open === -1) break;
    const column = offset + open + 1;
    if (close !== text.length && close < open + 2) {
      close = text.indexOf('}', open + 2);
      if (close === -1) close = text.length;
    }
    nextOpen = text.indexOf('${', open + 2);
    if (close === text.length || (nextOpen !== -1 && nextOpen < close)) {
      problems.push(problemAt('template_syntax', '`${` is not closed by a `}`.', column, field));
      literal += text.slice(index, open + 2);
      index = open + 2;
      continue;
    }
    const name = text.slice(open + 2, close);
    if (!validName.test(name)) {
      const message =
        name === ''
          ? '`${}` names no placeholder.'
          : `\`\${${name}}\` is not a placeholder name: use letters, digits and _ (not starting with a digit).`;
      problems.push(problemAt('template_syntax', message, column, field));
      literal += text.slice(index, close + 1);
      index = close + 1;
      continue;
    }
    literal += text.slice(index, open);
    if (literal !== '')
      parts.push({ type: 'literal', text: literal, column: offset + literalStart + 1 });
    literal = '';
    literalStart = close + 1;
    parts.push({ type: 'placeholder', name, column });
    index = close + 1;
  }
  literal += text.slice(index);
  if (literal !== '')
    parts.push({ type: 'literal', text: literal, column: offset + literalStart + 1 });
  return { parts, problems };
}
