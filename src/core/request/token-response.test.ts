import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isSsogateError } from '../errors/ssogate-error.js';
import { compileOAuth2Entry } from '../entry/validate-entry.js';
import { buildGetEntry, canarySecret } from '../test-support/entries.js';
import { processTokenResponse } from './token-response.js';

const secrets = [canarySecret, 'the-code'];

function rejectsWith(code: string, run: () => unknown): Error {
  let caught: unknown;
  assert.throws(run, (error: unknown) => {
    caught = error;
    return isSsogateError(error) && error.code === code;
  });
  return caught as Error;
}

describe('processTokenResponse', () => {
  const baseEntry = compileOAuth2Entry(buildGetEntry());

  test('extracts the access token from a typical JSON response', () => {
    const result = processTokenResponse(
      baseEntry,
      { status: 200, body: '{"access_token":"at-1","token_type":"bearer","expires_in":3600}' },
      { secrets },
    );
    assert.equal(result.accessToken, 'at-1');
    assert.deepEqual({ ...result.values }, {});
  });

  test('a non-2xx status is the server failing, its body masked in the message', () => {
    const error = rejectsWith('response_status', () =>
      processTokenResponse(
        baseEntry,
        { status: 500, body: `{"error":"boom","echo":"${canarySecret}","access_token":"leaked"}` },
        { secrets },
      ),
    );
    assert.match(error.message, /500/);
    assert.equal(error.message.includes(canarySecret), false);
    assert.equal(error.message.includes('leaked'), false);
    rejectsWith('response_status', () =>
      processTokenResponse(baseEntry, { status: 302, body: '' }, { secrets }),
    );
  });

  test('the success condition turns a 200 envelope error into the server error', () => {
    const entry = compileOAuth2Entry(
      buildGetEntry({
        tokenRequest: { successCondition: "JSON_GET($response, 'errcode') == 0" },
        tokenParse: "JSON_PATH($response, 'data.access_token')",
      }),
    );
    const error = rejectsWith('success_condition_failed', () =>
      processTokenResponse(
        entry,
        { status: 200, body: '{"errcode":40029,"errmsg":"invalid code"}' },
        { secrets },
      ),
    );
    assert.match(error.message, /invalid code/);
    const ok = processTokenResponse(
      entry,
      { status: 200, body: '{"errcode":0,"data":{"access_token":"at-2"}}' },
      { secrets },
    );
    assert.equal(ok.accessToken, 'at-2');
  });

  test("a 200 answer that cannot be read keeps the server's own explanation, masked", () => {
    const error = rejectsWith('key_not_found', () =>
      processTokenResponse(
        baseEntry,
        {
          status: 200,
          body: JSON.stringify({
            error: 'incorrect_client_credentials',
            error_description: `The client_secret ${canarySecret} is incorrect.`,
          }),
        },
        { secrets },
      ),
    );
    assert.ok(isSsogateError(error));
    const facts = error.facts ?? {};
    assert.equal(facts.error, 'incorrect_client_credentials');
    assert.match(String(facts.error_description), /^The client_secret .* is incorrect\.$/);
    assert.equal(JSON.stringify(error.facts).includes(canarySecret), false);
    // An answer with nothing to explain fails as before, with no facts.
    const plain = rejectsWith('key_not_found', () =>
      processTokenResponse(baseEntry, { status: 200, body: '{"token":"x"}' }, { secrets }),
    );
    assert.ok(isSsogateError(plain));
    assert.equal(plain.facts, undefined);
  });

  test('malformed bodies and tokens fail closed with their own codes', () => {
    const body = (text: string) => ({ status: 200, body: text });
    rejectsWith('response_not_json', () =>
      processTokenResponse(baseEntry, body('<html>'), { secrets }),
    );
    rejectsWith('key_not_found', () =>
      processTokenResponse(baseEntry, body('{"token":"x"}'), { secrets }),
    );
    rejectsWith('key_not_found', () =>
      processTokenResponse(baseEntry, body('{"__proto__":{"access_token":"x"}}'), { secrets }),
    );
    for (const token of ['123', '{}', '[]', '""', 'null', '"t\\r\\nX-Evil: 1"', '"中文"']) {
      rejectsWith('access_token_invalid', () =>
        processTokenResponse(baseEntry, body(`{"access_token":${token}}`), { secrets }),
      );
    }
    rejectsWith('access_token_invalid', () =>
      processTokenResponse(baseEntry, body(JSON.stringify({ access_token: 'x'.repeat(20_000) })), {
        secrets,
      }),
    );
  });

  test('named token values are taken as text', () => {
    const entry = compileOAuth2Entry(
      buildGetEntry({
        tokenValues: [
          { name: 'openid', expression: "JSON_GET($response, 'openid')" },
          { name: 'uid', expression: "JSON_GET($response, 'uid')" },
        ],
        userInfoUrl: 'https://as.example/u?t=${access_token}&o=${openid}&u=${uid}',
      }),
    );
    const result = processTokenResponse(
      entry,
      { status: 200, body: '{"access_token":"at","openid":"OPEN-1","uid":7}' },
      { secrets },
    );
    assert.deepEqual({ ...result.values }, { openid: 'OPEN-1', uid: '7' });
    rejectsWith('value_type', () =>
      processTokenResponse(
        entry,
        { status: 200, body: '{"access_token":"at","openid":{},"uid":7}' },
        { secrets },
      ),
    );
  });

  test('a form-encoded token response is read with FORM_GET', () => {
    const entry = compileOAuth2Entry(
      buildGetEntry({ tokenParse: "FORM_GET($response, 'access_token')" }),
    );
    const result = processTokenResponse(
      entry,
      { status: 200, body: 'access_token=gho_16C7e42F&scope=repo&token_type=bearer' },
      { secrets },
    );
    assert.equal(result.accessToken, 'gho_16C7e42F');
  });
});
