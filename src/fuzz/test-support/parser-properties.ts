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
  parseDiscovery,
  parseMappingText,
  parseUntrustedJson,
  templateKinds,
  validateEntry,
} from '../../core/index.js';
import {
  bodyFragments,
  expressionFragments,
  returnToFragments,
  templateFragments,
  textOf,
} from '../../core/test-support/fuzz-inputs.js';
import { repeatTo } from '../../core/test-support/growth.js';
import { normaliseTarget } from '../../features/access-rules/request-path.js';
import { readAnswer } from '../../features/extension/client.js';
import {
  authorizeUrlAnswer,
  callbackAnswer,
  healthAnswer,
} from '../../features/extension/schemas.js';
import { loadEntriesFile } from '../../features/provisioning/entries-file.js';
import { callbackQuery } from '../../features/sign-in/callback-query.js';
import { parseCookieHeader } from '../../foundation/web/cookies.js';
import { safeReturnTo } from '../../foundation/web/return-to.js';

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

const expressionTarget: ParserTarget<string> = {
  name: 'expression',
  input: textOf(expressionFragments),
  run: (source) => parseExpression(source),
  hostile: (size) => [
    repeatTo('(', size),
    repeatTo('JSON_GET(', size),
    `'${repeatTo('a', size)}'`,
    repeatTo("CONCAT('a', ", size),
    repeatTo('[', size),
    repeatTo('\\u', size),
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
    textOf(bodyFragments, { maxPieces: 40 }),
  ),
  run: ([source, response]) => evaluate(parseExpression(source), createEvaluationContext(response)),
  hostile: (size) => [
    ["JSON_GET($response, 'a')", repeatTo('[', size)],
    ["JSON_GET($response, 'a')", repeatTo('{"a":', size)],
    ["JSON_GET($response, 'a')", `{"a":"${repeatTo('x', size)}"}`],
    ["JSON_GET($response, 'a')", `{${repeatTo('"k":1,', size)}"a":1}`],
    ["FORM_GET($response, 'a')", repeatTo('a=b&', size)],
    ["FORM_GET($response, 'a')", repeatTo('%', size)],
    ['JWT_CLAIMS_UNVERIFIED($response)', `eyJhbGciOiJub25lIn0.${repeatTo('eyJh', size)}.`],
    ["JSON_PATH($response, 'a.b.c.d')", repeatTo('{"a":[', size)],
  ],
};

const jsonTarget: ParserTarget<string> = {
  name: 'untrusted JSON',
  input: textOf(bodyFragments, { maxPieces: 40 }),
  run: (text) => parseUntrustedJson(text),
  hostile: (size) => [
    repeatTo('[', size),
    repeatTo('{"a":', size),
    `"${repeatTo('\\u0041', size)}"`,
    `[${repeatTo('1,', size)}1]`,
    `{${repeatTo('"__proto__":1,', size)}"a":1}`,
  ],
};

const templateTarget: ParserTarget<[string, number]> = {
  name: 'URL template',
  input: fc.tuple(textOf(templateFragments), fc.nat(templateKinds.length - 1)),
  run: ([source, kind]) => compileTemplate(source, templateKinds[kind] ?? 'authorizeUrl'),
  hostile: (size) =>
    [
      repeatTo('${', size),
      `https://as.example/?${repeatTo('a=${code}&', size)}`,
      `POST https://as.example/t?${repeatTo('%E4', size)}`,
      `https://as.example/${repeatTo('$', size)}`,
    ].map((source) => [source, 1] as [string, number]),
};

const headerTarget: ParserTarget<string> = {
  name: 'header template',
  input: textOf(templateFragments),
  run: (source) => compileHeaderTemplate('Authorization', source, 'tokenUrl'),
  hostile: (size) => [repeatTo('${', size), repeatTo('${access_token}', size)],
};

const mappingTarget: ParserTarget<string> = {
  name: 'mapping text',
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
  hostile: (size) => [
    repeatTo('userId = a\n', size),
    repeatTo('=', size),
    repeatTo(' ', size) + '= x',
  ],
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
    `/_sso/callback/corp?${repeatTo('code=a&', size)}`,
    `/_sso/callback/corp?${repeatTo('%ff', size)}`,
    `/_sso/callback/corp?${repeatTo('a&', size)}`,
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
    repeatTo('a=b; ', size),
    repeatTo('=', size),
    repeatTo(';', size),
    `a="${repeatTo('%', size)}"`,
  ],
};

const returnToTarget: ParserTarget<string> = {
  name: 'return_to',
  input: textOf(returnToFragments),
  run: (raw) => safeReturnTo(raw),
  hostile: (size) => [
    `/${repeatTo('%2e/', size)}`,
    `/${repeatTo('../', size)}`,
    repeatTo('/', size),
  ],
};

const entriesFileTarget: ParserTarget<string> = {
  name: 'provisioning file',
  // Read once at start, at most 1 MiB (entries_file_too_large); YAML parsing
  // and entry validation are linear but slow (docs/reliability.md), so the
  // suite's hostile files are 256 KB.
  inputLimit: 256 * 1024,
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
    `entries: ${repeatTo('[', size)}`,
    `entries: ${repeatTo('{a: ', size)}`,
    `entries:\n${repeatTo('  - {id: a}\n', size)}`,
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
      repeatTo('[', size),
      `{"user":{"userId":"${repeatTo('a', size)}"}}`,
      `{"error":${repeatTo('{"error":', size)}}`,
    ].map((text) => [1, text, 200] as [number, string, number]),
};

const requestPathTarget: ParserTarget<string> = {
  name: 'request path',
  input: textOf([...returnToFragments, ';', '%3B', '%25', '%2561', '/admin', '?a=b', '%ff']),
  // Refusals are values, not throws: any throw is a failure.
  run: (target) => normaliseTarget(target),
  hostile: (size) => [
    `/${repeatTo('../', size)}`,
    `/${repeatTo('%2e%2e/', size)}`,
    repeatTo('/', size),
    `/${repeatTo('a', size)}?${repeatTo('b=c&', size)}`,
  ],
};

const discoveryTarget: ParserTarget<string> = {
  name: 'OpenID discovery document',
  input: textOf(
    [
      ...bodyFragments,
      '"issuer"',
      '"https://op.example"',
      '"authorization_endpoint"',
      '"token_endpoint"',
      '"jwks_uri"',
      '"userinfo_endpoint"',
      '"end_session_endpoint"',
      '"id_token_signing_alg_values_supported"',
      '"RS256"',
      '"none"',
      '"https://op.example/a"',
    ],
    { maxPieces: 40 },
  ),
  run: (body) => parseDiscovery(body, 'https://op.example'),
  hostile: (size) => [
    repeatTo('[', size),
    `{"issuer":"https://op.example","id_token_signing_alg_values_supported":[${repeatTo('"RS256",', size)}"none"]}`,
    `{"issuer":"https://op.example/${repeatTo('a', size)}"}`,
  ],
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
  requestPathTarget,
  discoveryTarget,
] as unknown as readonly ParserTarget<never>[];
