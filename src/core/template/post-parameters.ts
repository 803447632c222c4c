import type { SsogateError } from '../errors/ssogate-error.js';
import { percentDecode } from './percent-decode.js';
import { problemAt } from './problem.js';
import { splitAll, splitOnce } from './split-parts.js';
import type { DecodedPart, PlaceholderPart, PostParameter, TemplatePart } from './types.js';

interface PostShape {
  readonly endpoint: readonly TemplatePart[];
  readonly parameters: readonly PostParameter[];
  readonly problems: readonly SsogateError[];
}

/**
 * A `POST ` template: the URL is sent without its query (RFC 3986 §3.4), and each
 * query parameter becomes a body key. Names are keys, fixed at save time, so a
 * placeholder in a name is refused, and so is a repeated name (a JSON object
 * cannot hold it twice). Literal text is percent-decoded once, here.
 */
export function parsePostShape(
  parts: readonly TemplatePart[],
  field: string | undefined,
): PostShape {
  const problems: SsogateError[] = [];
  const fail = (
    code: 'template_url' | 'template_parameter_name' | 'template_repeated_parameter',
    message: string,
    column: number,
  ): void => {
    problems.push(problemAt(code, message, column, field));
  };
  const decode = (part: TemplatePart & { type: 'literal' }): string => {
    const text = percentDecode(part.text);
    if (text === undefined)
      fail('template_url', 'The percent-encoded bytes here are not UTF-8 text.', part.column);
    return text ?? '';
  };

  const start = splitOnce(parts, '?#');
  const query = start.delimiter === '?' ? splitOnce(start.after, '#').before : [];
  const parameters: PostParameter[] = [];
  const seen = new Map<string, number>();
  for (const piece of splitAll(query, '&')) {
    const first = piece[0];
    if (first === undefined) continue; // `a=1&&b=2` or a trailing `&`: no parameter
    const { before: nameParts, delimiter, column: equalsColumn, after } = splitOnce(piece, '=');
    let name = '';
    for (const part of nameParts) {
      if (part.type === 'placeholder') {
        fail(
          'template_parameter_name',
          `\${${part.name}} stands in a parameter name; in a \`POST \` template names are fixed body keys, so put placeholders only after the \`=\`.`,
          part.column,
        );
      } else {
        name += decode(part);
      }
    }
    if (nameParts.length === 0) {
      fail(
        'template_url',
        'A query parameter has no name before its `=`.',
        equalsColumn ?? first.column,
      );
      continue;
    }
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      fail(
        'template_repeated_parameter',
        `The parameter \`${name}\` is repeated (first at column ${earlier}); a POST body can hold it only once.`,
        first.column,
      );
    }
    seen.set(name, earlier ?? first.column);
    const value = (delimiter === undefined ? [] : after).map(
      (part): DecodedPart | PlaceholderPart =>
        part.type === 'placeholder' ? part : { type: 'decoded', text: decode(part) },
    );
    parameters.push({ name, value });
  }
  return { endpoint: start.before, parameters, problems };
}
