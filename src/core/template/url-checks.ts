import type { SsogateError } from '../errors/ssogate-error.js';
import { problemAt } from './problem.js';
import type { TemplatePart } from './types.js';

/**
 * Literal characters that may not appear in a URI as written (RFC 3986 §2):
 * they would break the HTTP request line or a `Location` header, or be
 * silently rewritten by a URL parser. Only the first of each kind is
 * reported, to keep a badly pasted URL from flooding the console.
 */
const literalRules: readonly (readonly [RegExp, (found: string) => string])[] = [
  // Written as "not visible ASCII and not non-ASCII" to avoid control characters in the pattern.
  [
    /[^\u0021-\u007e\u0080-\u{10ffff}]/u,
    () => 'The URL contains a space or control character; percent-encode it (a space is %20).',
  ],
  [
    /[\u0080-\u{10ffff}]/u,
    (found) =>
      `The URL contains the non-ASCII character \`${found}\`; write it percent-encoded from its UTF-8 bytes (RFC 3986 §2.1), and a host in its ASCII (punycode) form.`,
  ],
  [
    /%(?![0-9A-Fa-f]{2})/u,
    () => 'A `%` must start a percent-encoding `%XX` (RFC 3986 §2.1); write a literal % as %25.',
  ],
];

/** Stand-ins for placeholder values: a percent-encoded value is at least this well-behaved. */
function withDummies(parts: readonly TemplatePart[]): string {
  return parts.map((part) => (part.type === 'literal' ? part.text : 'x')).join('');
}

function parse(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * A template must be an absolute http(s) URL. The check parses the template with
 * every placeholder replaced by a dummy, as the WHATWG URL parser that will
 * later send the request sees it. Placeholders may stand only in the path,
 * query or fragment: the server a request (perhaps carrying app_secret) goes
 * to is fixed when the entry is saved, never chosen by a value.
 */
export function checkUrl(
  parts: readonly TemplatePart[],
  urlColumn: number,
  field: string | undefined,
): SsogateError[] {
  const problems: SsogateError[] = [];
  const fail = (message: string, column: number): void => {
    problems.push(problemAt('template_url', message, column, field));
  };
  for (const [pattern, message] of literalRules) {
    for (const part of parts) {
      const found = part.type === 'literal' ? pattern.exec(part.text) : null;
      if (part.type === 'literal' && found !== null) {
        fail(message(found[0]), part.column + found.index);
        break;
      }
    }
  }
  const url = parse(withDummies(parts));
  if (url === undefined) {
    fail(
      'The template is not an absolute URL: it must start with http:// or https:// and a host.',
      urlColumn,
    );
    return problems;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    fail(
      `The scheme \`${url.protocol}\` is not allowed: the URL must start with http:// or https://.`,
      urlColumn,
    );
    return problems;
  }
  if (url.username !== '' || url.password !== '') {
    fail('The URL must not contain a user name or password (`user:password@`).', urlColumn);
  }
  // A placeholder before the end of the authority stands in the user info
  // (refused above), the host or the port: it could choose the server. Judged
  // by position in one pass, not by parsing the URL again per placeholder,
  // which took quadratic time on a template of many placeholders.
  const authorityEnd = endOfAuthority(withDummies(parts));
  let at = 0;
  for (const part of parts) {
    if (part.type === 'literal') {
      at += part.text.length;
      continue;
    }
    if (at < authorityEnd) {
      fail(
        `\${${part.name}} cannot stand in the scheme, host or port; only in the path, query or fragment.`,
        part.column,
      );
    }
    at += 1;
  }
  return problems;
}

/**
 * Where the authority of an http(s) URL ends, as the WHATWG URL parser reads
 * it: after the scheme's `:` and any run of `/` or `\`, at the next `/`, `\`,
 * `?` or `#` (or the end). Placeholders stand in as one letter.
 */
function endOfAuthority(text: string): number {
  let index = text.indexOf(':') + 1;
  while (text[index] === '/' || text[index] === '\\') index += 1;
  while (index < text.length && !'/\\?#'.includes(text.charAt(index))) index += 1;
  return index;
}
