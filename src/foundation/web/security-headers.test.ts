import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { securityHeaders } from './security-headers.js';

const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

describe('securityHeaders', () => {
  test('over http: the protective set, no HSTS', () => {
    assert.deepEqual(securityHeaders({ https: false }), {
      'Cache-Control': 'no-store',
      Pragma: 'no-cache',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': CSP,
    });
  });

  test('over https: adds HSTS', () => {
    const headers = securityHeaders({ https: true });
    assert.equal(headers['Strict-Transport-Security'], 'max-age=31536000');
    assert.equal(headers['Content-Security-Policy'], CSP);
  });

  test('the CSP allows no script, no inline style and no framing', () => {
    const csp = securityHeaders({ https: false })['Content-Security-Policy'] ?? '';
    assert.doesNotMatch(csp, /script-src|unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
  });

  test('each call returns a fresh object', () => {
    const first = securityHeaders({ https: false });
    first['X-Frame-Options'] = 'changed';
    assert.equal(securityHeaders({ https: false })['X-Frame-Options'], 'DENY');
  });

  test('extra form-action origins for a sign-out that redirects to a third party', () => {
    const headers = securityHeaders({
      https: true,
      formActionOrigins: [
        'https://idp.example.com',
        'http://localhost:8080',
        'https://idp.example.com',
      ],
    });
    assert.match(
      headers['Content-Security-Policy'] ?? '',
      /; form-action 'self' https:\/\/idp\.example\.com http:\/\/localhost:8080; /,
    );
  });

  test('frame-src for the front-channel logout frames, their origins alone', () => {
    const csp =
      securityHeaders({
        https: true,
        frameOrigins: [
          'https://wiki.example.com',
          'http://127.0.0.1:8080',
          'https://wiki.example.com',
        ],
      })['Content-Security-Policy'] ?? '';
    assert.match(csp, /; frame-src https:\/\/wiki\.example\.com http:\/\/127\.0\.0\.1:8080; /);
    assert.doesNotMatch(
      securityHeaders({ https: true })['Content-Security-Policy'] ?? '',
      /frame-src/,
    );
    assert.throws(() => securityHeaders({ https: true, frameOrigins: ['https://x.example/path'] }));
  });

  test('rejects anything but a bare http(s) origin (no header injection)', () => {
    for (const bad of [
      'idp.example.com',
      'https://idp.example.com/',
      'https://idp.example.com/logout',
      "https://idp.example.com; script-src 'unsafe-inline'",
      'javascript:alert(1)',
      'HTTPS://IDP.EXAMPLE.COM',
      '*',
    ]) {
      assert.throws(
        () => securityHeaders({ https: true, formActionOrigins: [bad] }),
        TypeError,
        bad,
      );
    }
  });
});
