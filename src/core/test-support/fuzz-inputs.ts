/**
 * Random inputs shared by the property tests beside each parser and by the
 * fuzzing targets (src/fuzz/): pieces that mean something to a parser, mixed
 * with random text. One list per parser, so a piece added for one run is
 * tried by the other too.
 */
import fc from 'fast-check';
import { builtInPlaceholders } from '../template/placeholders.js';

export interface TextOptions {
  /** Pieces joined at most; 24 unless given. */
  readonly maxPieces?: number;
  /** Longest random piece mixed in between fragments; 0 joins fragments only. */
  readonly randomLength?: number;
}

/** Text made of `fragments` and, unless told otherwise, short random strings of any code unit. */
export function textOf(
  fragments: readonly string[],
  { maxPieces = 24, randomLength = 6 }: TextOptions = {},
): fc.Arbitrary<string> {
  const fragment = fc.constantFrom(...fragments);
  const piece =
    randomLength === 0
      ? fragment
      : fc.oneof(
          { weight: 3, arbitrary: fragment },
          { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: randomLength }) },
        );
  return fc.array(piece, { maxLength: maxPieces }).map((pieces) => pieces.join(''));
}

/** URL and header templates. */
export const templateFragments: readonly string[] = [
  '${',
  '}',
  '$',
  'POST ',
  'POST',
  'GET ',
  'https://',
  'http://',
  'as.example',
  '/',
  '?',
  '&',
  '=',
  '#',
  '%',
  '%4',
  '%E4',
  '%00',
  '@',
  ':',
  '\\',
  ' ',
  '中',
  '\u0000',
  '\ud800',
  ...builtInPlaceholders,
  ...builtInPlaceholders.map((name) => `\${${name}}`),
];

/** Expressions. */
export const expressionFragments: readonly string[] = [
  '(',
  ')',
  "'",
  '"',
  ',',
  ' ',
  '$response',
  '$',
  '==',
  '!=',
  '=',
  '\\',
  '\\u',
  '`',
  'true',
  'null',
  '-',
  '1',
  '0.5e3',
  'a.b[0]',
  '[',
  ']',
  '*',
  'JSON_GET',
  'json_path',
  'JSON_PATH',
  'FORM_GET',
  'CONCAT',
  'COALESCE',
  'JWT_CLAIMS_UNVERIFIED',
  'FIRST_NON_EMPTY',
  'EQUALS',
  'FOO',
  "'a'",
  "'data.x'",
  '\n',
  '\u0000',
  '😀',
  '\ud800',
];

/** Bodies of third-party answers: JSON, form and JWT pieces. */
export const bodyFragments: readonly string[] = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ':',
  ',',
  '"a"',
  '"data"',
  '1',
  '-0',
  '1e999',
  'true',
  'null',
  '"__proto__"',
  '"constructor"',
  '\\u0000',
  '\\ud800',
  '&',
  '=',
  'a=b',
  '%',
  '%zz',
  '+',
  '.',
  'eyJhbGciOiJub25lIn0',
  'eyJzdWIiOiJhIn0',
  '-_',
  ' ',
];

/** `return_to` values: the spellings that have made open redirects elsewhere. */
export const returnToFragments: readonly string[] = [
  '/',
  '//',
  '\\',
  '.',
  '..',
  '%',
  '%2F',
  '%2f',
  '%5C',
  '%2e',
  '2F',
  '2f',
  '5C',
  '09',
  '0A',
  '0D',
  '2e',
  '?',
  '#',
  '@',
  ':',
  ' ',
  '\t',
  '\r',
  '\n',
  '\u0000',
  '\u00a0',
  '\u200b',
  'é',
  'evil.com',
  'http',
  'javascript',
  '_sso',
  'admin',
];
