import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, run } from './test-support/helpers.js';

const TOKEN_BODY =
  '{"access_token":"t0k","token_type":"bearer","expires_in":7200,"data":{"token":"inner","items":[{"id":"a1"},{"id":"a2"}],"a.b":1}}';

describe('JSON_GET / PARSE_JSON', () => {
  it('reads first-level keys, quoted either way, and nests', () => {
    assert.equal(run("JSON_GET($response, 'access_token')", TOKEN_BODY), 't0k');
    assert.equal(run('JSON_GET($response, "expires_in")', TOKEN_BODY), 7200);
    assert.equal(run("JSON_GET(JSON_GET($response, 'data'), 'token')", TOKEN_BODY), 'inner');
    assert.equal(run("PARSE_JSON($response, 'token_type')", TOKEN_BODY), 'bearer');
  });

  it('parses a string value that holds JSON text', () => {
    assert.equal(run("JSON_GET(JSON_GET($response, 'inner'), 'x')", '{"inner":"{\\"x\\":5}"}'), 5);
  });

  it('indexes arrays by number or canonical decimal text', () => {
    const body = '{"list":["a","b"]}';
    assert.equal(run("JSON_GET(JSON_GET($response, 'list'), 1)", body), 'b');
    assert.equal(run("JSON_GET(JSON_GET($response, 'list'), '0')", body), 'a');
    expectError(() => run("JSON_GET(JSON_GET($response, 'list'), 2)", body), 'key_not_found');
    expectError(() => run("JSON_GET(JSON_GET($response, 'list'), '01')", body), 'key_not_found');
    expectError(
      () => run("JSON_GET(JSON_GET($response, 'list'), 'length')", body),
      'key_not_found',
    );
    assert.equal(run('JSON_GET($response, 1)', '{"1":"one"}'), 'one');
  });

  it('reports a missing key with the keys present', () => {
    const error = expectError(
      () => run("JSON_GET($response, 'access_token')", '{"token_type":"bearer","expires_in":1}'),
      'key_not_found',
      1,
    );
    assert.equal(
      error.message,
      "key 'access_token' not found; keys present: token_type, expires_in",
    );
  });

  it('lists at most 10 keys, each cut to 40 characters', () => {
    const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
    const body = JSON.stringify(
      Object.fromEntries([...keys.map((k) => [k, 1]), ['x'.repeat(100), 1]]),
    );
    const error = expectError(() => run("JSON_GET($response, 'nope')", body), 'key_not_found');
    assert.match(error.message, /k0, k1, .*k9 and 3 more$/);
    assert.doesNotMatch(error.message, /k10/);
    const long = expectError(
      () => run("JSON_GET($response, 'nope')", JSON.stringify({ ['y'.repeat(100)]: 1 })),
      'key_not_found',
    );
    assert.match(long.message, new RegExp(`keys present: ${'y'.repeat(40)}…$`));
  });

  it('refuses values that are not objects or arrays', () => {
    expectError(
      () => run("JSON_GET(JSON_GET($response, 'expires_in'), 'x')", TOKEN_BODY),
      'value_type',
    );
    expectError(() => run("JSON_GET(null, 'x')"), 'value_type');
    expectError(() => run("JSON_GET($response, 'x')", '"just text"'), 'value_type');
    expectError(() => run('JSON_GET($response, null)', '{}'), 'value_type');
  });

  it('reports non-JSON and puts the column on the failing call', () => {
    const error = expectError(
      () => run("CONCAT('x', JSON_GET($response, 'a'))", '<html>'),
      'response_not_json',
      13,
    );
    assert.equal(error.message, 'response is not JSON (first 80 characters: <html>)');
  });
});

describe('JSON_PATH', () => {
  it('walks keys and indexes', () => {
    assert.equal(run("JSON_PATH($response, 'data.items[1].id')", TOKEN_BODY), 'a2');
    assert.equal(run('JSON_PATH($response, "data[\'a.b\']")', TOKEN_BODY), 1);
    assert.equal(run("JSON_PATH($response, '[0]')", '[7]'), 7);
    assert.equal(run("JSON_PATH($response, CONCAT('data', '.token'))", TOKEN_BODY), 'inner');
  });

  it('names the part of the path that was reached', () => {
    const key = expectError(
      () => run("JSON_PATH($response, 'data.items[0].name')", TOKEN_BODY),
      'key_not_found',
    );
    assert.equal(key.message, "key 'name' not found in 'data.items[0]'; keys present: id");
    const index = expectError(
      () => run("JSON_PATH($response, 'data.items[5]')", TOKEN_BODY),
      'key_not_found',
    );
    assert.equal(index.message, "index 5 not found in 'data.items'; the array has 2 items");
    const top = expectError(
      () => run("JSON_PATH($response, 'nope.x')", TOKEN_BODY),
      'key_not_found',
    );
    assert.match(top.message, /^key 'nope' not found; keys present/);
  });

  it('refuses walking into a scalar and bad computed paths', () => {
    expectError(() => run("JSON_PATH($response, 'expires_in.x')", TOKEN_BODY), 'value_type');
    expectError(() => run("JSON_PATH($response, CONCAT('a', '..b'))", TOKEN_BODY), 'value_type');
    expectError(() => run('JSON_PATH($response, 1)', TOKEN_BODY), 'value_type');
  });
});

describe('text functions', () => {
  it('CONCAT stringifies scalars and refuses containers', () => {
    assert.equal(run("CONCAT('a', 1, true, null, 'b')"), 'a1truenullb'.replace('null', ''));
    assert.equal(
      run("CONCAT('Bearer ', JSON_GET($response, 'access_token'))", TOKEN_BODY),
      'Bearer t0k',
    );
    expectError(() => run("CONCAT(JSON_GET($response, 'data'))", TOKEN_BODY), 'value_type', 1);
  });

  it('CONCAT refuses results over 1 MiB', () => {
    const big = 'x'.repeat(600_000);
    expectError(() => run('CONCAT($response, $response)', big), 'response_too_large');
  });

  it('LOWER, UPPER, TRIM', () => {
    assert.equal(run("LOWER('AbC')"), 'abc');
    assert.equal(run("UPPER('straße')"), 'STRASSE');
    assert.equal(run("TRIM('  a b \n')"), 'a b');
    assert.equal(run('LOWER(null)'), null);
    assert.equal(run('UPPER(12)'), '12');
    expectError(() => run("TRIM(JSON_GET($response, 'data'))", TOKEN_BODY), 'value_type');
  });
});

describe('FIRST_NON_EMPTY / COALESCE', () => {
  it('returns the first present, non-null, non-empty value', () => {
    const body = '{"a":null,"b":"","c":"yes"}';
    assert.equal(
      run(
        "FIRST_NON_EMPTY(JSON_GET($response,'a'), JSON_GET($response,'b'), JSON_GET($response,'c'))",
        body,
      ),
      'yes',
    );
    assert.equal(run("COALESCE(JSON_GET($response,'missing'), 'fallback')", body), 'fallback');
    assert.equal(run("COALESCE(JSON_GET($response,'a'))", body), null);
    assert.equal(run('COALESCE(0, 1)'), 0);
    assert.equal(run('COALESCE(false)'), false);
  });

  it('is lazy: later arguments are not evaluated', () => {
    assert.equal(run("COALESCE('x', JSON_GET($response, 'a'))", 'not json'), 'x');
  });

  it('does not swallow other errors', () => {
    expectError(
      () => run("COALESCE(JSON_GET($response,'a'), 'x')", 'not json'),
      'response_not_json',
    );
    expectError(() => run("COALESCE(JSON_GET(1,'a'), 'x')"), 'value_type');
  });
});

describe('equality', () => {
  it('compares errcode 0 with 0 and "0"', () => {
    const body = '{"errcode":0,"errmsg":"ok"}';
    assert.equal(run("JSON_GET($response,'errcode') == 0", body), true);
    assert.equal(run('JSON_GET($response,\'errcode\') == "0"', body), true);
    assert.equal(run("JSON_GET($response,'errcode') != 0", body), false);
    assert.equal(run("JSON_GET($response,'errcode') == 40029", body), false);
    assert.equal(run("JSON_GET($response,'errcode') == '0.0'", body), false);
    assert.equal(run("EQUALS(JSON_GET($response,'errcode'), '0')", body), true);
    assert.equal(run("EQUALS('40029', JSON_GET($response,'errcode'))", '{"errcode":40029}'), true);
  });

  it('is deep over objects and arrays and strict about types otherwise', () => {
    assert.equal(
      run(
        "JSON_GET($response,'a') == JSON_GET($response,'b')",
        '{"a":{"x":[1,"2"]},"b":{"x":["1",2]}}',
      ),
      true,
    );
    assert.equal(
      run("JSON_GET($response,'a') == JSON_GET($response,'b')", '{"a":{"x":1},"b":{"y":1}}'),
      false,
    );
    assert.equal(
      run("JSON_GET($response,'a') == JSON_GET($response,'b')", '{"a":[1],"b":[1,2]}'),
      false,
    );
    assert.equal(run('null == false'), false);
    assert.equal(run("true == 'true'"), false);
    assert.equal(run("null == ''"), false);
    assert.equal(run('null == null'), true);
  });
});

describe('FORM_GET', () => {
  const body = 'access_token=abc%2Fdef&scope=read+write&expires_in=3600&flag';
  it('reads and decodes fields', () => {
    assert.equal(run("FORM_GET($response, 'access_token')", body), 'abc/def');
    assert.equal(run("FORM_GET($response, 'scope')", body), 'read write');
    assert.equal(run("FORM_GET($response, 'flag')", body), '');
    assert.equal(run("FORM_GET($response, 'a b')", 'a+b=1&a=2'), '1');
  });
  it('reports missing keys without showing values', () => {
    const error = expectError(() => run("FORM_GET($response, 'id_token')", body), 'key_not_found');
    assert.equal(
      error.message,
      "key 'id_token' not found; keys present: access_token, scope, expires_in, flag",
    );
  });
  it('refuses malformed escapes and non-text', () => {
    expectError(() => run("FORM_GET($response, 'a')", 'a=%zz'), 'value_type');
    expectError(() => run("FORM_GET($response, 'a')", '%E0%A4%A=1'), 'value_type');
    expectError(() => run("FORM_GET(JSON_GET($response, 'data'), 'a')", TOKEN_BODY), 'value_type');
  });
});

describe('JWT_CLAIMS_UNVERIFIED', () => {
  const b64 = (value: string): string => Buffer.from(value).toString('base64url');
  const jwt = `${b64('{"alg":"RS256"}')}.${b64('{"sub":"u1","email":"é@x"}')}.sig`;
  it('decodes the payload without verifying', () => {
    assert.equal(run(`JSON_GET(JWT_CLAIMS_UNVERIFIED('${jwt}'), 'sub')`), 'u1');
    const body = JSON.stringify({ id_token: jwt });
    assert.equal(
      run("JSON_GET(JWT_CLAIMS_UNVERIFIED(JSON_GET($response, 'id_token')), 'email')", body),
      'é@x',
    );
  });
  it('refuses malformed tokens', () => {
    expectError(() => run("JWT_CLAIMS_UNVERIFIED('a.b')"), 'jwt_malformed', 1);
    expectError(() => run("JWT_CLAIMS_UNVERIFIED('a.b.c.d.e')"), 'jwt_malformed');
    expectError(() => run("JWT_CLAIMS_UNVERIFIED('a.b*c.d')"), 'jwt_malformed');
    expectError(() => run("JWT_CLAIMS_UNVERIFIED('a..c')"), 'jwt_malformed');
    expectError(() => run(`JWT_CLAIMS_UNVERIFIED('a.${b64('not json')}.c')`), 'jwt_malformed');
    expectError(() => run(`JWT_CLAIMS_UNVERIFIED('a.${b64('[1]')}.c')`), 'jwt_malformed');
    expectError(
      () =>
        run(
          `JWT_CLAIMS_UNVERIFIED('a.${Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url')}.c')`,
        ),
      'jwt_malformed',
    );
    expectError(() => run('JWT_CLAIMS_UNVERIFIED(null)'), 'value_type');
  });
  it('never quotes the token in its messages', () => {
    const secret = 'c2VjcmV0LXRva2VuLXZhbHVl';
    const error = expectError(() => run(`JWT_CLAIMS_UNVERIFIED('x.${secret}.y')`), 'jwt_malformed');
    assert.ok(!error.message.includes(secret));
  });
});

describe('HAS_KEY', () => {
  it('says whether a first-level key or index is there, never failing on an absent one', () => {
    assert.equal(run("HAS_KEY($response, 'errcode')", '{"errcode":0}'), true);
    assert.equal(run("HAS_KEY($response, 'errcode')", '{"access_token":"t","openid":"o"}'), false);
    assert.equal(run("HAS_KEY($response, 'errcode')", '{"errcode":null}'), true);
    assert.equal(run("HAS_KEY(JSON_GET($response, 'list'), 1)", '{"list":["a","b"]}'), true);
    assert.equal(run("HAS_KEY(JSON_GET($response, 'list'), 2)", '{"list":["a","b"]}'), false);
    assert.equal(run("HAS_KEY($response, 'toString')", '{}'), false);
    assert.equal(run("HAS_KEY($response, 'x')", '42'), false);
  });

  it('text that is not JSON, and a key that is not text or a number, are errors', () => {
    expectError(() => run("HAS_KEY($response, 'x')", 'not json'), 'response_not_json');
    expectError(() => run('HAS_KEY($response, null)', '{}'), 'value_type');
  });

  it('makes a success condition that holds on answers without errcode', () => {
    const condition = "FIRST_NON_EMPTY(JSON_GET($response, 'errcode'), 0) == 0";
    assert.equal(run(condition, '{"access_token":"t","openid":"o","unionid":"u"}'), true);
    assert.equal(run(condition, '{"errcode":0,"errmsg":"ok"}'), true);
    assert.equal(run(condition, '{"errcode":40029,"errmsg":"invalid code"}'), false);
    assert.equal(run("HAS_KEY($response, 'access_token')", '{"errcode":40029}'), false);
  });
});
