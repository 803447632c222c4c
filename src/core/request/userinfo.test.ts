import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isSsogateError } from '../errors/ssogate-error.js';
import { compileOAuth2Entry } from '../entry/validate-entry.js';
import { buildGetEntry, buildPostEntry, buildStandardEntry } from '../test-support/entries.js';
import { buildUserInfoRequest } from './userinfo-request.js';
import { readUserInfo } from './userinfo-response.js';

const noValues = Object.freeze({});

/** The values of a user-info call made with an access token and the token answer's values. */
function withToken(accessToken: string, named: Readonly<Record<string, string>>) {
  return { accessToken, code: undefined, appToken: undefined, named };
}

describe('buildUserInfoRequest', () => {
  test('GET carries the access token in the query, percent-encoded', () => {
    const entry = compileOAuth2Entry(buildGetEntry());
    const request = buildUserInfoRequest(entry, withToken('a+b/c', noValues));
    assert.equal(
      request.url,
      'https://as.example/oauth/userinfo?appid=app-1&access_token=a%2Bb%2Fc',
    );
  });

  test('POST carries it under the template parameter name in a JSON body', () => {
    const entry = compileOAuth2Entry(buildPostEntry());
    const request = buildUserInfoRequest(entry, withToken('tok', noValues));
    assert.equal(request.url, 'https://as.example/oauth/userinfo');
    assert.equal(request.body, '{"access_token":"tok"}');
  });

  test('a Bearer header, and a token value as a placeholder', () => {
    const entry = compileOAuth2Entry(
      buildStandardEntry({
        tokenValues: [{ name: 'openid', expression: "JSON_GET($response, 'openid')" }],
        userInfoUrl: 'https://as.example/userinfo?openid=${openid}',
      }),
    );
    const request = buildUserInfoRequest(entry, withToken('tok', { openid: 'o 1' }));
    assert.equal(request.headers.authorization, 'Bearer tok');
    assert.equal(request.url, 'https://as.example/userinfo?openid=o%201');
  });

  test('a token that looks like a placeholder is sent literally (single pass)', () => {
    const entry = compileOAuth2Entry(buildGetEntry());
    const request = buildUserInfoRequest(entry, withToken('${app_secret}', noValues));
    assert.ok(request.url.endsWith('access_token=%24%7Bapp_secret%7D'));
  });
});

describe('readUserInfo', () => {
  test('maps the "empty" case', () => {
    const entry = compileOAuth2Entry(buildGetEntry());
    const { user } = readUserInfo(
      entry,
      {
        status: 200,
        body: '{"errorcode":0,"user":{"userId":"u1","userName":"Li","enabled":true}}',
      },
      { secrets: [] },
    );
    assert.deepEqual([user.userId, user.userName, user.enabled], ['u1', 'Li', true]);
  });

  test('status and success condition are checked before mapping', () => {
    const entry = compileOAuth2Entry(
      buildStandardEntry({
        userInfoRequest: { successCondition: "JSON_GET($response,'ok') == true" },
      }),
    );
    const fails = (status: number, body: string, code: string) => {
      assert.throws(
        () => readUserInfo(entry, { status, body }, { secrets: [] }),
        (error: unknown) => isSsogateError(error) && error.code === code,
      );
    };
    fails(401, '{"error":"invalid_token"}', 'response_status');
    fails(200, '{"ok":false,"sub":"x"}', 'success_condition_failed');
    fails(200, '{"ok":true}', 'key_not_found');
    const { user } = readUserInfo(
      entry,
      { status: 200, body: '{"ok":true,"sub":"s-1","email":"e@x"}' },
      { secrets: [] },
    );
    assert.deepEqual([user.userId, user.email], ['s-1', 'e@x']);
  });
});
