import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ProviderRefusalCode } from '../../core/index.js';
import { errorCodes, errorRegistry, providerRefusal } from '../../core/index.js';

const root = process.cwd();
const provider = join(root, 'src', 'features', 'openid-provider');

/** The provider's own modules: every .ts file under its folder but tests and their helpers. */
async function providerModules(): Promise<string[]> {
  const entries = await readdir(provider, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .filter((entry) => !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !relative(provider, file).split('/').includes('test-support'));
}

/**
 * The OAuth `error` values a client can be answered (RFC 6749 §4.1.2.1,
 * §5.2; RFC 6750 §3.1; OpenID Connect Core §3.1.2.6), whether the
 * registry uses them yet or not.
 */
const oauthErrors = [
  'invalid_request',
  'unauthorized_client',
  'access_denied',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  'invalid_client',
  'invalid_grant',
  'unsupported_grant_type',
  'invalid_token',
  'insufficient_scope',
  'interaction_required',
  'login_required',
  'account_selection_required',
  'consent_required',
  'invalid_request_uri',
  'invalid_request_object',
  'request_not_supported',
  'request_uri_not_supported',
  'registration_not_supported',
];

/** A string naming an OAuth error anywhere in it (a header's `error="..."` too). */
const namesAnError = new RegExp(`\\b(?:${oauthErrors.join('|')})\\b`);

/** The registry's descriptions of the provider's refusals. */
function descriptions(): Set<string> {
  return new Set(
    errorCodes
      .filter((code): code is ProviderRefusalCode => 'oauth' in errorRegistry[code])
      .map((code) => providerRefusal(code).description),
  );
}

/**
 * The string literals of a module's source, comments left out: quoted
 * either way, or a template's text between its placeholders. A regular
 * expression literal is read as code, which the provider's modules allow.
 */
function literals(source: string): { text: string; line: number }[] {
  const found: { text: string; line: number }[] = [];
  let index = 0;
  const lineAt = (at: number) => source.slice(0, at).split('\n').length;
  while (index < source.length) {
    const char = source[index];
    if (source.startsWith('//', index)) {
      index = source.indexOf('\n', index);
      if (index < 0) break;
    } else if (source.startsWith('/*', index)) {
      index = source.indexOf('*/', index + 2) + 2;
      if (index < 2) break;
    } else if (char === "'" || char === '"' || char === '`') {
      const start = index;
      let text = '';
      index += 1;
      while (index < source.length && source[index] !== char) {
        if (source[index] === '\\') {
          text += source[index + 1] ?? '';
          index += 2;
        } else if (char === '`' && source.startsWith('${', index)) {
          found.push({ text, line: lineAt(start) });
          text = '';
          let depth = 0;
          do {
            if (source[index] === '{') depth += 1;
            if (source[index] === '}') depth -= 1;
            index += 1;
          } while (depth > 0 && index < source.length);
        } else {
          text += source[index] ?? '';
          index += 1;
        }
      }
      found.push({ text, line: lineAt(start) });
      index += 1;
    } else {
      index += 1;
    }
  }
  return found;
}

/** The literals of a source that name an OAuth error or are a refusal's description. */
function inlineOAuthStrings(source: string): { text: string; line: number }[] {
  const described = descriptions();
  return literals(source).filter(
    ({ text }) => namesAnError.test(text) || described.has(text.trim()),
  );
}

test('no OAuth error or description is written in the provider outside the error registry', async () => {
  const files = await providerModules();
  assert.ok(files.length > 10, `expected the provider's modules, found ${files.length}`);
  const offending: string[] = [];
  for (const file of files) {
    for (const { text, line } of inlineOAuthStrings(await readFile(file, 'utf8'))) {
      offending.push(`${relative(root, file)}:${line} '${text}'`);
    }
  }
  assert.deepEqual(offending, [], 'answer through providerRefusal (src/core/provider/refusals.ts)');
});

test('the scanner finds errors written in strings of code, not in comments', () => {
  const sample = [
    `oauthError(reply, 400, 'invalid_grant', "no code"); // 'invalid_token'`,
    '/* `access_denied` */ const e = `login_required ${why}`;',
    `reply.header('www-authenticate', 'Bearer error="invalid_token"');`,
    `const fine = 'invalid_requests are counted';`,
  ].join('\n');
  assert.deepEqual(
    inlineOAuthStrings(sample).map(({ text, line }) => [text, line]),
    [
      ['invalid_grant', 1],
      ['no code', 1],
      ['login_required ', 2],
      ['Bearer error="invalid_token"', 3],
    ],
  );
});
