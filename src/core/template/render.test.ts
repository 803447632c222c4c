import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SsogateError } from '../errors/ssogate-error.js';
import { compileTemplate } from './compile.js';
import type { TemplateKind } from './placeholders.js';
import { renderPostParameters, renderUrl } from './render.js';
import type { CompiledTemplate } from './types.js';

function compiled(source: string, kind: TemplateKind = 'tokenUrl'): CompiledTemplate {
  const result = compileTemplate(source, kind);
  assert.ok(result.ok, source);
  return result.template;
}

const tokenTemplate = compiled(
  'POST https://as.example/token?grant_type=authorization_code&code=${code}&client_id=${appid}&redirect_uri=${redirect_uri}',
);
const values = { code: 'c1', appid: 'app', redirect_uri: 'https://gw.example/_sso/callback/corp' };

describe('renderPostParameters', () => {
  it('sends the URL without its query, parameters in order with decoded values', () => {
    assert.deepEqual(renderPostParameters(tokenTemplate, values), {
      url: 'https://as.example/token',
      parameters: [
        ['grant_type', 'authorization_code'],
        ['code', 'c1'],
        ['client_id', 'app'],
        ['redirect_uri', 'https://gw.example/_sso/callback/corp'],
      ],
    });
  });

  for (const code of [
    'a&client_secret=x',
    'a","grant_type":"password',
    'a#b',
    '',
    '\r\n',
    '中文',
    '%41',
    '${app_secret}',
  ]) {
    it(`keeps the code ${JSON.stringify(code)} as one raw value`, () => {
      const { parameters } = renderPostParameters(tokenTemplate, { ...values, code });
      assert.equal(parameters.length, 4);
      assert.deepEqual(parameters[1], ['code', code]);
      const body = JSON.parse(JSON.stringify(Object.fromEntries(parameters))) as Record<
        string,
        string
      >;
      assert.equal(body['grant_type'], 'authorization_code');
      assert.equal(body['code'], code);
    });
  }

  it('decodes literal text per RFC 3986 (+ stays +), drops the fragment, allows no `=`', () => {
    const template = compiled(
      'POST https://api.example/p%20q/${appid}?scope=a+b%20c%E4%B8%AD&flag&t=x${access_token}y#frag',
      'userInfoUrl',
    );
    assert.deepEqual(renderPostParameters(template, { appid: 'a/b', access_token: '&=' }), {
      url: 'https://api.example/p%20q/a%2Fb',
      parameters: [
        ['scope', 'a+b c中'],
        ['flag', ''],
        ['t', 'x&=y'],
      ],
    });
  });

  it('has no parameters without a query', () => {
    assert.deepEqual(renderPostParameters(compiled('POST https://as.example/t#x?a=1'), {}), {
      url: 'https://as.example/t',
      parameters: [],
    });
  });

  it('refuses a GET template with a coded error', () => {
    assert.throws(() => renderPostParameters(compiled('https://as.example/t'), {}), {
      code: 'template_method',
    });
  });
});

describe('renderUrl', () => {
  it('renders a POST template in its GET shape', () => {
    assert.equal(
      renderUrl(tokenTemplate, { ...values, code: 'a&b' }),
      'https://as.example/token?grant_type=authorization_code&code=a%26b&client_id=app&redirect_uri=https%3A%2F%2Fgw.example%2F_sso%2Fcallback%2Fcorp',
    );
  });

  it('substitutes in a single pass', () => {
    const template = compiled('https://as.example/t?code=${code}&s=${app_secret}');
    const url = renderUrl(template, { code: '${app_secret}', app_secret: 'SECRET' });
    assert.equal(url, 'https://as.example/t?code=%24%7Bapp_secret%7D&s=SECRET');
    assert.equal(new URL(url).searchParams.get('code'), '${app_secret}');
  });

  it('throws template_value_missing naming the placeholder', () => {
    const template = compiled('https://as.example/t?code=${code}&secret=${app_secret}');
    const error = (() => {
      try {
        renderUrl(template, { code: 'c' });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    assert.ok(error instanceof SsogateError);
    assert.equal(error.code, 'template_value_missing');
    assert.match(error.message, /\$\{app_secret\}.*appsecret/);
    assert.equal(error.column, 42);
    assert.throws(() => renderPostParameters(tokenTemplate, { code: 'c' }), {
      code: 'template_value_missing',
    });
  });

  it('never takes a value from Object.prototype', () => {
    const result = compileTemplate('https://api.example/u?x=${constructor}', 'userInfoUrl', {
      extraPlaceholders: ['constructor'],
    });
    assert.ok(result.ok);
    assert.throws(() => renderUrl(result.template, {}), { code: 'template_value_missing' });
    assert.equal(renderUrl(result.template, { constructor: 'c' }), 'https://api.example/u?x=c');
  });

  it('encodes `.` and `..` as themselves (unreserved); URL parsers treat a whole such segment as a dot segment', () => {
    const template = compiled('https://api.example/u/${access_token}/me', 'userInfoUrl');
    assert.equal(renderUrl(template, { access_token: '..' }), 'https://api.example/u/../me');
  });

  it('accepts the empty value', () => {
    assert.equal(
      renderUrl(compiled('https://as.example/t?code=${code}'), { code: '' }),
      'https://as.example/t?code=',
    );
  });
});
