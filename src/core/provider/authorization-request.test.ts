import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  authorizationParameters,
  authorizationRefusal,
  promptsOf,
} from './authorization-request.js';
import { providerRefusal } from './refusals.js';

const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const plain = { response_type: 'code', scope: 'openid', client_id: 'app' };

describe('the authorization request', () => {
  test('a parameter given twice makes the whole request repeated', () => {
    assert.equal(authorizationParameters({ scope: ['openid', 'email'] }), 'repeated');
    assert.deepEqual({ ...(authorizationParameters({ a: '1' }) as object) }, { a: '1' });
    assert.deepEqual({ ...(authorizationParameters(undefined) as object) }, {});
  });

  test('the plainest request of a confidential client is not refused', () => {
    assert.equal(authorizationRefusal(plain, false), undefined);
    const everything = {
      ...plain,
      response_mode: 'form_post',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      prompt: 'login consent',
      max_age: '300',
    };
    assert.equal(authorizationRefusal(everything, true), undefined);
  });

  test('each problem has its code, in the order the client is told of them', () => {
    const cases: [Record<string, string>, boolean, string][] = [
      [{ request: 'x.y.z', response_type: 'token' }, false, 'provider_request_not_supported'],
      [{ request_uri: 'urn:x' }, false, 'provider_request_uri_not_supported'],
      [{ response_mode: 'fragment' }, false, 'provider_response_mode_unsupported'],
      [{ response_type: 'token' }, false, 'provider_unsupported_response_type'],
      [{ scope: 'email' }, false, 'provider_scope_without_openid'],
      [{ scope: 'openidx' }, false, 'provider_scope_without_openid'],
      [{}, true, 'provider_pkce_missing'],
      [{ code_challenge_method: 'S256' }, false, 'provider_pkce_method_alone'],
      [
        { code_challenge: challenge, code_challenge_method: 'plain' },
        true,
        'provider_pkce_challenge_invalid',
      ],
      [{ code_challenge: challenge }, true, 'provider_pkce_challenge_invalid'],
      [
        { code_challenge: 'short', code_challenge_method: 'S256' },
        true,
        'provider_pkce_challenge_invalid',
      ],
      [{ prompt: 'select_account' }, false, 'provider_prompt_unknown'],
      [{ prompt: 'none login' }, false, 'provider_prompt_none_combined'],
      [{ max_age: '-1' }, false, 'provider_max_age_invalid'],
      [{ max_age: '1e3' }, false, 'provider_max_age_invalid'],
    ];
    for (const [changed, publicClient, code] of cases) {
      assert.equal(authorizationRefusal({ ...plain, ...changed }, publicClient), code, code);
    }
  });

  test('the codes answer the errors clients have always been given', () => {
    const answered = (code: Parameters<typeof providerRefusal>[0]) => {
      const { status, error, description } = providerRefusal(code);
      return [status, error, description];
    };
    assert.deepEqual(answered('provider_pkce_missing'), [
      302,
      'invalid_request',
      'a public client must send a PKCE code_challenge (S256)',
    ]);
    assert.deepEqual(answered('provider_scope_without_openid'), [
      302,
      'invalid_scope',
      'the scope must include openid',
    ]);
    assert.deepEqual(answered('provider_access_denied'), [
      303,
      'access_denied',
      'the user denied the request',
    ]);
  });

  test('prompt is read as words', () => {
    assert.deepEqual(promptsOf({ prompt: ' login  consent ' }), ['login', 'consent']);
    assert.deepEqual(promptsOf({}), []);
  });
});
