import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileTemplate } from './compile.js';
import { percentDecode } from './percent-decode.js';
import { percentEncode } from './percent-encode.js';
import { renderUrl } from './render.js';
import type { CompiledTemplate } from './types.js';

const special = '/ + & = ? # % 中文';
const specialEncoded = '%2F%20%2B%20%26%20%3D%20%3F%20%23%20%25%20%E4%B8%AD%E6%96%87';

function compiled(source: string): CompiledTemplate {
  const result = compileTemplate(source, 'authorizeUrl');
  assert.ok(result.ok, source);
  return result.template;
}

describe('percentEncode', () => {
  it('encodes all but the unreserved characters (RFC 3986 §2.3)', () => {
    assert.equal(percentEncode('AZaz09-._~'), 'AZaz09-._~');
    assert.equal(percentEncode(special), specialEncoded);
    assert.equal(percentEncode('中文'), '%E4%B8%AD%E6%96%87');
    assert.equal(percentEncode("!'()*"), '%21%27%28%29%2A');
    assert.equal(percentEncode(''), '');
    assert.equal(percentEncode('😀'), '%F0%9F%98%80');
    assert.equal(percentEncode('\r\n\u0000'), '%0D%0A%00');
  });

  it('encodes a lone surrogate as U+FFFD instead of throwing', () => {
    assert.equal(percentEncode('a\ud800b'), 'a%EF%BF%BDb');
    assert.equal(percentEncode('\udfff'), '%EF%BF%BD');
  });
});

describe('percentDecode', () => {
  it('decodes RFC 3986 escapes and leaves + alone', () => {
    assert.equal(percentDecode('a+b%20c%E4%B8%AD'), 'a+b c中');
    assert.equal(percentDecode('%EF%BB%BFx'), '\ufeffx');
    assert.equal(percentDecode('%zz'), '%zz');
    assert.equal(percentDecode('%FF'), undefined);
  });
});

describe('substituted values are percent-encoded wherever they stand', () => {
  it('in the path', () => {
    assert.equal(
      renderUrl(compiled('https://as.example/p/${appid}/x'), { appid: special }),
      `https://as.example/p/${specialEncoded}/x`,
    );
  });
  it('in the query, keeping an existing query', () => {
    const url = renderUrl(compiled('https://as.example/a?foo=1&client_id=${appid}'), {
      appid: special,
    });
    assert.equal(url, `https://as.example/a?foo=1&client_id=${specialEncoded}`);
    const params = new URL(url).searchParams;
    assert.equal(params.get('foo'), '1');
    assert.equal(params.get('client_id'), special);
  });
  it('in the fragment', () => {
    const url = renderUrl(compiled('https://as.example/a#s=${state}'), { state: special });
    assert.equal(url, `https://as.example/a#s=${specialEncoded}`);
    assert.equal(decodeURIComponent(new URL(url).hash.slice(3)), special);
  });
  it('encodes redirect_uri exactly once', () => {
    const redirect = 'https://gw.example/_sso/callback/corp?x=%41&y=1';
    const url = renderUrl(
      compiled('https://as.example/a?redirect_uri=${redirect_uri}&state=${state}'),
      {
        redirect_uri: redirect,
        state: 's',
      },
    );
    assert.equal(
      url,
      'https://as.example/a?redirect_uri=https%3A%2F%2Fgw.example%2F_sso%2Fcallback%2Fcorp%3Fx%3D%2541%26y%3D1&state=s',
    );
    assert.equal(new URL(url).searchParams.get('redirect_uri'), redirect);
  });
  it('leaves literal text as written', () => {
    const source = 'https://as.example/a%2Fb?scope=a+b%20c&x=${appid}#f';
    assert.equal(renderUrl(compiled(source), { appid: 'v' }), source.replace('${appid}', 'v'));
  });
});
