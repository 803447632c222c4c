/**
 * Every parser a remote party or an administrator reaches, as a fuzzing
 * target: how to make random input for it, how to run it, and how to make a
 * hostile input of about a given size (deep nesting, one long token, many
 * parameters) for the linear-time check. Used by parsers.fuzz.test.ts, in the
 * suite with few runs and by `npm run fuzz` with many.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  compileHeaderTemplate,
  compileTemplate,
  createEvaluationContext,
  evaluate,
  parseExpression,
  parseMappingText,
  parseUntrustedJson,
  templateKinds,
  validateEntry,
} from '../../core/index.js';
import { readAnswer } from '../../extension/client.js';
import { authorizeUrlAnswer, callbackAnswer, healthAnswer } from '../../extension/schemas.js';
import { loadEntriesFile } from '../../provisioning/entries-file.js';
import { callbackQuery } from '../../sign-in/callback-query.js';
import { parseCookieHeader } from '../../web/cookies.js';
import { safeReturnTo } from '../../web/return-to.js';

export interface ParserTarget<T> {
  readonly name: string;
  readonly input: fc.Arbitrary<T>;
  /** Runs the parser; any throw must be a coded error. */
  run(input: T): unknown;
  /** Hostile inputs of about `size` characters, each to be handled in linear time. */
  hostile(size: number): readonly T[];
  /**
   * The longest input the gateway passes this parser, when it bounds it
   * before (an entry field's length limit): hostile inputs are made this long
   * at most.
   */
  readonly inputLimit?: number;
}

/** Pieces that mean something to one parser or another, mixed with random text. */
function textOf(fragments: readonly string[], maxPieces = 24): fc.Arbitrary<string> {
  return fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...fragments) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      ),
      { maxLength: maxPieces },
    )
    .map((pieces) => pieces.join(''));
}

const repeat = (unit: string, size: number) =>
  unit.repeat(Math.max(1, Math.floor(size / unit.length)));

const templateFragments = [
  '${',
  '}',
  '$',
  'POST ',
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
  '${code}',
  '${state}',
  '${redirect_uri}',
  '${appid}',
  '${app_secret}',
  '${access_token}',
];

const expressionFragments = [
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
  '\\',
  '\\u',
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
  'JSON_PATH',
  'FORM_GET',
  'CONCAT',
  'JWT_CLAIMS_UNVERIFIED',
  'FIRST_NON_EMPTY',
  'EQUALS',
  'FOO',
  "'a'",
  "'data.x'",
  '\n',
];

const bodyFragments = [
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

const expressionTarget: ParserTarget<string> = {
  name: 'expression',
  input: textOf(expressionFragments),
  run: (source) => parseExpression(source),
  hostile: (size) => [
    repeat('(', size),
    repeat('JSON_GET(', size),
    `'${repeat('a', size)}'`,
    repeat("CONCAT('a', ", size),
    repeat('[', size),
    repeat('\\u', size),
  ],
};

/** An expression over a server's answer: JSON, form and JWT bodies read by the functions. */
const responseTarget: ParserTarget<[string, string]> = {
  name: 'server answer (JSON, form, JWT bodies through the functions)',
  input: fc.tuple(
    fc.constantFrom(
      "JSON_GET($response, 'a')",
      "JSON_PATH($response, 'data.a[0].b')",
      "JSON_PATH($response, 'a.*')",
      "FORM_GET($response, 'a')",
      'JWT_CLAIMS_UNVERIFIED($response)',
      "JSON_GET(JWT_CLAIMS_UNVERIFIED(JSON_GET($response, 'id_token')), 'sub')",
      "JSON_GET(JSON_GET($response, 'a'), 'b')",
    ),
    textOf(bodyFragments, 40),
  ),
  run: ([source, response]) => evaluate(parseExpression(source), createEvaluationContext(response)),
  hostile: (size) => [
    ["JSON_GET($response, 'a')", repeat('[', size)],
    ["JSON_GET($response, 'a')", repeat('{"a":', size)],
    ["JSON_GET($response, 'a')", `{"a":"${repeat('x', size)}"}`],
    ["JSON_GET($response, 'a')", `{${repeat('"k":1,', size)}"a":1}`],
    ["FORM_GET($response, 'a')", repeat('a=b&', size)],
    ["FORM_GET($response, 'a')", repeat('%', size)],
    ['JWT_CLAIMS_UNVERIFIED($response)', `eyJhbGciOiJub25lIn0.${repeat('eyJh', size)}.`],
    ["JSON_PATH($response, 'a.b.c.d')", repeat('{"a":[', size)],
  ],
};

const jsonTarget: ParserTarget<string> = {
  name: 'untrusted JSON',
  input: textOf(bodyFragments, 40),
  run: (text) => parseUntrustedJson(text),
  hostile: (size) => [
    repeat('[', size),
    repeat('{"a":', size),
    `"${repeat('\\u0041', size)}"`,
    `[${repeat('1,', size)}1]`,
    `{${repeat('"__proto__":1,', size)}"a":1}`,
  ],
};

const templateTarget: ParserTarget<[string, number]> = {
  name: 'URL template',
  inputLimit: 4096,
  input: fc.tuple(textOf(templateFragments), fc.nat(templateKinds.length - 1)),
  run: ([source, kind]) => compileTemplate(source, templateKinds[kind] ?? 'authorizeUrl'),
  hostile: (size) =>
    [
      repeat('${', size),
      `https://as.example/?${repeat('a=${code}&', size)}`,
      `POST https://as.example/t?${repeat('%E4', size)}`,
      `https://as.example/${repeat('$', size)}`,
    ].map((source) => [source, 1] as [string, number]),
};

const headerTarget: ParserTarget<string> = {
  name: 'header template',
  inputLimit: 4096,
  input: textOf(templateFragments),
  run: (source) => compileHeaderTemplate('Authorization', source, 'tokenUrl'),
  hostile: (size) => [repeat('${', size), repeat('${access_token}', size)],
};

const mappingTarget: ParserTarget<string> = {
  name: 'mapping text',
  inputLimit: 64 * 1024,
  input: textOf([
    'userId',
    'email',
    ' = ',
    '=',
    '==',
    '\n',
    '\r\n',
    '#',
    ' ',
    "JSON_GET($response, 'a')",
  ]),
  run: (text) => {
    parseMappingText(text);
    // The lines are then checked with the rest of the entry, as the console and API do.
    return validateEntry({
      id: 'fuzz',
      name: 'Fuzz',
      authorizeUrl: 'https://as.example/a?state=${state}&redirect_uri=${redirect_uri}',
      tokenUrl: 'https://as.example/t?code=${code}',
      tokenParse: "JSON_GET($response, 'access_token')",
      userInfoUrl: 'https://as.example/u?t=${access_token}',
      userInfoParse: text,
    });
  },
  hostile: (size) => [repeat('userId = a\n', size), repeat('=', size), repeat(' ', size) + '= x'],
};

const callbackTarget: ParserTarget<string> = {
  name: 'callback query',
  input: textOf([
    '/_sso/callback/corp',
    '?',
    '&',
    '=',
    'code',
    'state',
    '%',
    '%ff',
    '%E4%B8',
    '+',
    '#',
    ';',
  ]),
  run: (url) => callbackQuery(url),
  hostile: (size) => [
    `/_sso/callback/corp?${repeat('code=a&', size)}`,
    `/_sso/callback/corp?${repeat('%ff', size)}`,
    `/_sso/callback/corp?${repeat('a&', size)}`,
  ],
};

const cookieTarget: ParserTarget<string> = {
  name: 'cookie header',
  input: textOf([
    'ssogate_session',
    '__Host-ssogate_session',
    '=',
    ';',
    ' ',
    '"',
    '%',
    '%zz',
    ',',
    '\t',
  ]),
  run: (header) => parseCookieHeader(header),
  hostile: (size) => [
    repeat('a=b; ', size),
    repeat('=', size),
    repeat(';', size),
    `a="${repeat('%', size)}"`,
  ],
};

const returnToTarget: ParserTarget<string> = {
  name: 'return_to',
  input: textOf([
    '/',
    '//',
    '\\',
    '%2F',
    '%2f',
    '%5C',
    '.',
    '..',
    '%2e',
    '?',
    '#',
    '@',
    ':',
    'evil.com',
    '\t',
    '\u0000',
  ]),
  run: (raw) => safeReturnTo(raw),
  hostile: (size) => [`/${repeat('%2e/', size)}`, `/${repeat('../', size)}`, repeat('/', size)],
};

const entriesFileTarget: ParserTarget<string> = {
  name: 'provisioning file',
  // Read once at start from the administrator's file; YAML parsing and entry
  // validation are linear but slow (docs/reliability.md), so 64 KB here.
  inputLimit: 64 * 1024,
  input: textOf([
    'entries:',
    '\n',
    '  - ',
    'id: a',
    'name: A',
    '{',
    '}',
    '[',
    ']',
    ':',
    '&a',
    '*a',
    '!!js/function',
    '"',
    "'",
    '#',
    '---',
    '{"entries":[]}',
    'authorizeUrl: x',
  ]),
  run: async (text) => {
    const dir = mkdtempSync(join(tmpdir(), 'ssogate-fuzz-'));
    try {
      const file = join(dir, 'entries.yaml');
      writeFileSync(file, text);
      return await loadEntriesFile(file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  hostile: (size) => [
    `entries: ${repeat('[', size)}`,
    `entries: ${repeat('{a: ', size)}`,
    `entries:\n${repeat('  - {id: a}\n', size)}`,
    `a: &a [x]\n${Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`).join('\n')}\nentries: [*m]`,
  ],
};

const extensionAnswers = {
  '/authorize-url': authorizeUrlAnswer,
  '/callback': callbackAnswer,
  '/health': healthAnswer,
};

const extensionTarget: ParserTarget<[number, string, number]> = {
  name: 'extension answer',
  input: fc.tuple(
    fc.nat(2),
    textOf([
      ...bodyFragments,
      '"error"',
      '"code"',
      '"message"',
      '"url"',
      '"user"',
      '"userId"',
      '"ok"',
      '"status"',
    ]),
    fc.constantFrom(200, 400, 500),
  ),
  run: ([which, text, status]) => {
    const route = Object.keys(extensionAnswers)[which] as keyof typeof extensionAnswers;
    return readAnswer(
      { method: 'POST', route, answer: extensionAnswers[route], timeoutMs: 1000 },
      status,
      text,
    );
  },
  hostile: (size) =>
    [
      repeat('[', size),
      `{"user":{"userId":"${repeat('a', size)}"}}`,
      `{"error":${repeat('{"error":', size)}}`,
    ].map((text) => [1, text, 200] as [number, string, number]),
};

export const parserTargets: readonly ParserTarget<never>[] = [
  templateTarget,
  headerTarget,
  expressionTarget,
  responseTarget,
  jsonTarget,
  mappingTarget,
  callbackTarget,
  cookieTarget,
  returnToTarget,
  entriesFileTarget,
  extensionTarget,
] as unknown as readonly ParserTarget<never>[];
