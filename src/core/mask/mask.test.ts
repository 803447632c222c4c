import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskSecrets } from './mask.js';
import { isSensitiveKey } from './sensitive-key.js';

describe('maskSecrets', () => {
  it('masks every occurrence of each secret, longest first', () => {
    assert.equal(maskSecrets('a=s3cret! b=s3cret! c', ['s3cret!']), 'a=*** b=*** c');
    assert.equal(maskSecrets('xxabcdefxx', ['abcd', 'abcdef']), 'xx***xx');
    assert.equal(maskSecrets('url?x=p%40ss%2Fword', ['p@ss/word']), 'url?x=***');
  });

  it('ignores secrets shorter than 4 characters', () => {
    assert.equal(maskSecrets('a b c abc', ['a', 'abc', '']), 'a b c abc');
  });

  it('masks sensitive JSON values, quoted or bare, and keeps the rest', () => {
    const body =
      '{"access_token":"at-1","refresh_token": "rt-2","id_token":"x.y.z","client_secret":"cs","code":"c0de","state":"st","expires_in":7200,"token_type":"bearer","errcode":40029,"errmsg":"invalid code","user":{"name":"Ann","password":"pw"}}';
    const masked = maskSecrets(body);
    for (const leaked of ['at-1', 'rt-2', 'x.y.z', '"cs"', 'c0de', '"st"', '"pw"']) {
      assert.ok(!masked.includes(leaked), `${leaked} leaked in ${masked}`);
    }
    for (const kept of [
      '"expires_in":7200',
      '"token_type":"bearer"',
      '"errcode":40029',
      '"errmsg":"invalid code"',
      '"name":"Ann"',
    ]) {
      assert.ok(masked.includes(kept), `${kept} lost in ${masked}`);
    }
    assert.ok(masked.includes('"access_token":"***"'));
    // A whole document stays valid JSON; a cut excerpt is masked in place.
    assert.equal(maskSecrets('{"app_secret":12345}'), '{"app_secret":"***"}');
    assert.equal(maskSecrets('{"app_secret":12345,"a":'), '{"app_secret":***,"a":');
    assert.equal(
      maskSecrets('{"other":{"":[":"]},"access_token":"T "}'),
      '{"other":{"":[":"]},"access_token":"***"}',
    );
    assert.equal(maskSecrets('{"access_token":null}'), '{"access_token":null}');
  });

  it('masks escaped and unterminated JSON strings (cut excerpts)', () => {
    assert.equal(maskSecrets('{"access_token":"ab\\"cd"}'), '{"access_token":"***"}');
    assert.equal(maskSecrets('{"access_token":"abcdef'), '{"access_token":"***"');
    assert.equal(maskSecrets("{'refresh_token': 'r1'}"), "{'refresh_token': '***'}");
  });

  it('masks form and query values', () => {
    assert.equal(
      maskSecrets('access_token=abc&expires_in=3600&scope=read&refresh_token=def'),
      'access_token=***&expires_in=3600&scope=read&refresh_token=***',
    );
    assert.equal(
      maskSecrets('https://x/cb?code=AUTH&state=S1&x=1'),
      'https://x/cb?code=***&state=***&x=1',
    );
    assert.equal(maskSecrets('<p>access_token=abc</p>'), '<p>access_token=***</p>');
    assert.equal(maskSecrets('client%5Fsecret=zz'), 'client%5Fsecret=***');
    assert.equal(maskSecrets('errcode=40029&errmsg=bad'), 'errcode=40029&errmsg=bad');
  });

  it('masks authorization headers and JWT-shaped strings', () => {
    assert.equal(maskSecrets('Authorization: Bearer abc.def-ghi'), 'Authorization: Bearer ***');
    assert.equal(maskSecrets('basic dXNlcjpwYXNz=='), 'basic ***');
    assert.equal(maskSecrets('tok eyJhbGciOi.eyJzdWIiOi.c2ln end'), 'tok *** end');
  });

  it('leaves ordinary text alone', () => {
    const text =
      'The server said: invalid request (errcode 40029), see https://example.com/docs?page=2';
    assert.equal(maskSecrets(text), text);
  });

  it('is fast on large hostile input', () => {
    const started = performance.now();
    maskSecrets(
      '"'.repeat(200_000) + 'a'.repeat(200_000) + '='.repeat(200_000) + 'eyJ'.repeat(50_000),
    );
    assert.ok(performance.now() - started < 2000);
  });
});

describe('isSensitiveKey', () => {
  it('recognises credentials in any naming style', () => {
    for (const key of [
      'access_token',
      'accessToken',
      'refresh-token',
      'id_token',
      'client_secret',
      'appsecret',
      'app_secret',
      'code',
      'auth_code',
      'authCode',
      'state',
      'session_state',
      'password',
      'SAMLAssertion',
      'ticket',
      'code_verifier',
      'Authorization',
      'api_key',
      'Cookie',
    ]) {
      assert.ok(isSensitiveKey(key), key);
    }
  });
  it('keeps diagnostic keys visible', () => {
    for (const key of [
      'errcode',
      'error_code',
      'errorCode',
      'status_code',
      'token_type',
      'expires_in',
      'scope',
      'user_id',
      'email',
      'errmsg',
      'country_code',
      '',
    ]) {
      assert.ok(!isSensitiveKey(key), key);
    }
  });
});
