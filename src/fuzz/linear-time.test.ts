import { describe, test } from 'node:test';
import { parseUntrustedJson } from '../core/index.js';
import { assertLinearGrowth, repeatTo } from '../core/test-support/growth.js';
import { normaliseTarget } from '../features/access-rules/request-path.js';
import { callbackQuery } from '../features/sign-in/callback-query.js';
import { parseCookieHeader, safeReturnTo } from '../foundation/web/index.js';

/** The parser's answer, or its coded refusal: either way the time is what is measured. */
function settle(parse: () => unknown): void {
  try {
    parse();
  } catch {
    // A refusal is an answer too.
  }
}

/**
 * The parsers a browser or a third-party server reaches, on hostile input
 * made sixteen times longer, take less than half of the 256 times the CPU
 * time that quadratic work would (src/core/test-support/growth.ts). Templates and mapping text have their
 * own growth tests beside them; expressions are refused past 4,096
 * characters, so their time is bounded by that.
 */
describe('parsers of remote input run in linear time', () => {
  const hostile: Record<string, (size: number) => () => unknown> = {
    'callback query: one name repeated': (size) => () =>
      callbackQuery(`/_sso/callback/e?${repeatTo('a=&', size)}`),
    'callback query: many names': (size) => () =>
      callbackQuery(
        `/_sso/callback/e?${Array.from({ length: Math.floor(size / 8) }, (_, i) => `n${i}=1`).join('&')}`,
      ),
    'callback query: one long escaped value': (size) => () =>
      callbackQuery(`/_sso/callback/e?code=${repeatTo('%e4%b8%ad', size)}`),
    'return_to: dot segments': (size) => () => safeReturnTo(`/${repeatTo('.//', size)}x`),
    'return_to: escaped dots and slashes': (size) => () =>
      safeReturnTo(`/${repeatTo('%2e%2e%2f', size)}`),
    'request path: dot-dot segments': (size) => () =>
      normaliseTarget(`/${repeatTo('a/../', size)}`),
    'request path: empty segments': (size) => () => normaliseTarget(`/${repeatTo('/', size)}x`),
    'request path: escaped dots': (size) => () => normaliseTarget(`/${repeatTo('%2e/', size)}x`),
    'untrusted JSON: many keys': (size) => () =>
      parseUntrustedJson(`{${repeatTo('"k":1,', size)}"z":2}`),
    'untrusted JSON: a long escaped string': (size) => () =>
      parseUntrustedJson(`"${repeatTo('\\u0041\\n', size)}"`),
    // Unclosed brackets are not here: JSON.parse refuses them before the
    // gateway's own scan runs, and V8's time for that refusal went from 6 to
    // 190 times for sixteen times the input, run to run. The 1 MB input of
    // parsers.fuzz.test.ts bounds it.
    'untrusted JSON: long digit runs': (size) => () =>
      parseUntrustedJson(`[${repeatTo('12345678901234567890,', size)}1]`),
  };
  for (const [name, input] of Object.entries(hostile)) {
    test(name, () => {
      assertLinearGrowth(name, (size) => {
        settle(input(size));
      });
    });
  }

  test('cookie header: many pairs and one long value', () => {
    // The header is read up to 8 KiB (src/foundation/web/cookies.ts); longer ones cost the cut.
    assertLinearGrowth('cookie header', (size) => {
      parseCookieHeader(`${repeatTo('a=b; ', size)}s=${'v'.repeat(size)}`);
    });
  });
});
