import type { SsogateError } from '../errors/ssogate-error.js';
import type { TemplateKind } from './placeholders.js';
import { problemAt } from './problem.js';

interface MethodPrefix {
  readonly method: 'GET' | 'POST';
  /** 0-based index in the source where the URL itself starts. */
  readonly urlStart: number;
  readonly problems: readonly SsogateError[];
}

const httpMethods = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'CONNECT',
  'TRACE',
];
// A URL never contains whitespace before its scheme, so any leading
// "word + whitespace" is an attempt at a method prefix.
const leadingWord = /^([A-Za-z]+)(\s+)/;
// A method word glued to the URL: `POSThttps://…`.
const gluedMethod = new RegExp(`^(${httpMethods.join('|')})(?=https?:)`, 'i');
const browserRedirects: readonly TemplateKind[] = ['authorizeUrl', 'logoutUrl'];

/**
 * No prefix means GET; `POST ` is the word POST in capitals and exactly
 * one space. Every malformed prefix is reported (and skipped, so the URL after
 * it is still checked); the URL starts after the last method-like word.
 */
export function parseMethodPrefix(
  source: string,
  kind: TemplateKind,
  field: string | undefined,
): MethodPrefix {
  const problems: SsogateError[] = [];
  const fail = (message: string, column: number): void => {
    problems.push(problemAt('template_method', message, column, field));
  };
  let method: 'GET' | 'POST' = 'GET';
  let index = 0;
  let words = 0;
  for (
    let match = leadingWord.exec(source);
    match !== null;
    match = leadingWord.exec(source.slice(index))
  ) {
    const word = match[1] ?? '';
    const gap = match[2] ?? '';
    const column = index + 1;
    if (words > 0) {
      fail(`Only one method word may precede the URL; remove \`${word}\`.`, column);
    } else if (word === 'POST') {
      method = 'POST';
      if (gap !== ' ')
        fail('`POST` must be followed by exactly one space, then the URL.', column + 4);
    } else {
      fail(prefixMessage(word), column);
    }
    words += 1;
    index += word.length + gap.length;
  }
  const glued = gluedMethod.exec(source.slice(index))?.[1];
  if (glued !== undefined) {
    fail(
      `Put exactly one space between \`${glued}\` and the URL, as in \`POST https://…\`.`,
      index + glued.length + 1,
    );
    if (words === 0 && glued === 'POST') method = 'POST';
    index += glued.length;
  }
  if (method === 'POST' && browserRedirects.includes(kind)) {
    fail(
      `\`POST \` is not allowed in ${kind}: that URL is a browser redirect, which is always a GET.`,
      1,
    );
  }
  return { method, urlStart: index, problems };
}

function prefixMessage(word: string): string {
  if (word.toUpperCase() === 'POST')
    return 'Write the method in capitals: `POST ` (the word POST and one space).';
  if (httpMethods.includes(word.toUpperCase())) {
    return `\`${word}\` is not a method prefix: without a prefix the request is a GET, and the only prefix is \`POST \`.`;
  }
  return `\`${word}\` before the URL is not a method; only \`POST \` (the word POST and one space) may precede the URL.`;
}
