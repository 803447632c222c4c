import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SsogateError } from '../errors/ssogate-error.js';
import { compileTemplate } from './compile.js';
import { compileHeaderTemplate, renderHeaderValue } from './header-template.js';
import { templateKinds } from './placeholders.js';
import { templateFragments, textOf } from '../test-support/fuzz-inputs.js';
import { renderPostParameters, renderUrl } from './render.js';
import type { CompiledTemplate } from './types.js';

const fragmentString = textOf(templateFragments, { maxPieces: 20, randomLength: 3 });
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({
    unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    maxLength: 30,
  }),
  fragmentString,
);
// Values are well-formed here; lone surrogates are encoded as U+FFFD (see percent-encode.test.ts).
const value = fc.oneof(
  fc.string({ unit: 'binary' }),
  // The shared fragments hold a lone surrogate; values here stay well-formed.
  fragmentString.filter((text) => !/\p{Cs}/u.test(text)),
  fc.constantFrom('.', '..', '', '${code}', '%41', '+'),
);

function mustCompile(
  source: string,
  kind: 'tokenUrl' | 'userInfoUrl' = 'tokenUrl',
): CompiledTemplate {
  const result = compileTemplate(source, kind);
  assert.ok(result.ok, source);
  return result.template;
}

describe('properties', () => {
  it('compileTemplate never throws and reports positioned problems', () => {
    fc.assert(
      fc.property(anyString, fc.constantFrom(...templateKinds), (source, kind) => {
        const result = compileTemplate(source, kind, { field: 'f', extraPlaceholders: ['openid'] });
        if (result.ok) return;
        assert.ok(result.problems.length > 0);
        for (const problem of result.problems) {
          assert.ok(problem instanceof SsogateError);
          assert.equal(problem.field, 'f');
          assert.ok(
            problem.column !== undefined &&
              problem.column >= 1 &&
              problem.column <= source.length + 1,
          );
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('renderUrl output parses and gives back every value exactly', () => {
    const template = mustCompile(
      'https://as.example/p-${appid}/x?code=${code}&s=${app_secret}&r=${redirect_uri}#f=${code}',
    );
    fc.assert(
      fc.property(value, value, value, value, (appid, code, secret, redirect) => {
        const url = new URL(
          renderUrl(template, { appid, code, app_secret: secret, redirect_uri: redirect }),
        );
        assert.equal(url.origin, 'https://as.example');
        assert.equal(decodeURIComponent(url.pathname), `/p-${appid}/x`);
        assert.deepEqual(
          [...url.searchParams],
          [
            ['code', code],
            ['s', secret],
            ['r', redirect],
          ],
        );
        assert.equal(decodeURIComponent(url.hash), `#f=${code}`);
      }),
      { numRuns: 1000 },
    );
  });

  it('renderPostParameters keeps every value as one raw parameter', () => {
    // `/t-${appid}`, not `/t/${appid}`: a value `.` or `..` filling a whole path
    // segment is a dot segment to every URL parser (RFC 3986 §5.2.4), even as %2E.
    const template = mustCompile(
      'POST https://as.example/t-${appid}?grant_type=authorization_code&code=${code}&pair=${code}${appid}',
    );
    fc.assert(
      fc.property(value, value, (appid, code) => {
        const { url, parameters } = renderPostParameters(template, { appid, code });
        assert.equal(decodeURIComponent(new URL(url).pathname), `/t-${appid}`);
        assert.deepEqual(parameters, [
          ['grant_type', 'authorization_code'],
          ['code', code],
          ['pair', code + appid],
        ]);
      }),
      { numRuns: 500 },
    );
  });

  it('render functions throw nothing but SsogateError', () => {
    const url = mustCompile(
      'POST https://api.example/u?t=${access_token}&a=${appid}',
      'userInfoUrl',
    );
    const headerResult = compileHeaderTemplate(
      'Authorization',
      'Bearer ${access_token}',
      'userInfoUrl',
    );
    assert.ok(headerResult.ok);
    const values = fc.dictionary(fc.constantFrom('access_token', 'appid', 'other'), anyString);
    fc.assert(
      fc.property(values, (given) => {
        for (const render of [
          () => renderUrl(url, given),
          () => renderPostParameters(url, given),
          () => renderHeaderValue(headerResult.header, given),
        ]) {
          try {
            render();
          } catch (error) {
            assert.ok(error instanceof SsogateError, String(error));
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('a rendered header never holds CR, LF or NUL', () => {
    const headerResult = compileHeaderTemplate(
      'Authorization',
      'Bearer ${access_token}',
      'userInfoUrl',
    );
    assert.ok(headerResult.ok);
    fc.assert(
      fc.property(anyString, (token) => {
        try {
          assert.doesNotMatch(
            renderHeaderValue(headerResult.header, { access_token: token }),
            /[\r\n\0]/,
          );
        } catch (error) {
          assert.ok(error instanceof SsogateError && error.code === 'header_invalid');
        }
      }),
    );
  });
});
