import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CompiledHeader } from './header-template.js';
import { compileHeaderTemplate, renderHeaderValue } from './header-template.js';

function header(name: string, value: string): CompiledHeader {
  const result = compileHeaderTemplate(name, value, 'userInfoUrl', {
    field: 'userInfo.headers[0]',
  });
  assert.ok(result.ok, `${name}: ${value}`);
  return result.header;
}

function problems(
  name: string,
  value: string,
  kind: 'tokenUrl' | 'userInfoUrl' | 'authorizeUrl' = 'userInfoUrl',
) {
  const result = compileHeaderTemplate(name, value, kind, { field: 'h' });
  assert.ok(!result.ok);
  for (const problem of result.problems) assert.equal(problem.field, 'h');
  return result.problems.map((problem) => [problem.code, problem.column]);
}

describe('compileHeaderTemplate', () => {
  it('compiles a bearer header and renders the value raw', () => {
    const compiled = header('Authorization', 'Bearer ${access_token}');
    assert.deepEqual([...compiled.placeholders], ['access_token']);
    assert.equal(renderHeaderValue(compiled, { access_token: 'a/b+c=' }), 'Bearer a/b+c=');
    assert.equal(renderHeaderValue(compiled, { access_token: 'ü${appid}' }), 'Bearer ü${appid}');
  });

  it('requires an RFC 9110 token as name', () => {
    assert.deepEqual(problems('X Bad', 'v'), [['header_invalid', 2]]);
    assert.deepEqual(problems('', 'v'), [['header_invalid', 1]]);
    assert.deepEqual(problems('X:Y', 'v'), [['header_invalid', 2]]);
    assert.deepEqual(problems('X-${appid}', 'v'), [['header_invalid', 4]]);
    header("X-Ok!#$%&'*+.^_`|~9", 'v');
  });

  for (const name of ['Host', 'content-length', 'Transfer-Encoding', 'CONNECTION']) {
    it(`refuses the gateway-managed header ${name}`, () => {
      assert.deepEqual(problems(name, 'v'), [['header_invalid', 1]]);
    });
  }

  it('applies the URL placeholder rules of its kind', () => {
    assert.deepEqual(problems('Authorization', 'Bearer ${access_token}', 'tokenUrl'), [
      ['template_placeholder_not_allowed', 8],
    ]);
    assert.deepEqual(problems('X-Secret', '${app_secret}', 'authorizeUrl'), [
      ['template_placeholder_not_allowed', 1],
    ]);
    assert.deepEqual(problems('X-A', 'a ${nope} ${', 'tokenUrl'), [
      ['template_unknown_placeholder', 3],
      ['template_syntax', 11],
    ]);
    const extra = compileHeaderTemplate('X-Open', '${openid}', 'userInfoUrl', {
      extraPlaceholders: ['openid'],
    });
    assert.ok(extra.ok);
  });

  it('refuses control characters in the literal value', () => {
    assert.deepEqual(problems('X-A', 'a\r\nX-Evil: 1'), [['header_invalid', 2]]);
    assert.deepEqual(problems('X-A', '${appid}\u0000'), [['header_invalid', 9]]);
    header('X-Tab', 'a\tb');
  });
});

describe('renderHeaderValue', () => {
  const compiled = header('Authorization', 'Bearer ${access_token}');
  for (const token of ['t\r\nX-Evil: 1', 't\n', 't\r', '\u0000', 't\u007f', '\u0085', '中']) {
    it(`refuses the value ${JSON.stringify(token)}`, () => {
      assert.throws(() => renderHeaderValue(compiled, { access_token: token }), {
        code: 'header_invalid',
      });
    });
  }
  it('throws template_value_missing', () => {
    assert.throws(() => renderHeaderValue(compiled, {}), { code: 'template_value_missing' });
  });
});
