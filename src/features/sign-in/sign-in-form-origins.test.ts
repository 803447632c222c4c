import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { registerClient } from '../openid-provider/test-support/provider-fixture.js';

/** The form-action directive of a page's policy. */
function formAction(policy: unknown): string {
  return /form-action ([^;]*)/.exec(String(policy))?.[1] ?? '';
}

/**
 * A sign-in by a form of the gateway (the local accounts' form on the
 * chooser, a directory's password form, the page relaying a posted
 * callback) may continue an authorization request of the OpenID Provider:
 * the post's redirects then end at the client's redirect URI, and browsers
 * apply CSP form-action to them. Each page allows every registered client's
 * http(s) origin (application-origins.ts), as
 * openid-provider/directory-and-saml-provider-browser.test.ts shows in Chromium.
 */
describe("the sign-in forms allow the OpenID Provider's clients", () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ standard }) => [
        { ...standard, id: 'posted', responseMode: 'form_post' },
        {
          type: 'ldap',
          id: 'corp',
          name: 'Corporate directory',
          enabled: true,
          appsecret: 'service secret',
          ldap: {
            url: 'ldap://127.0.0.1:9',
            bindDn: 'cn=gateway,dc=example,dc=org',
            baseDn: 'dc=example,dc=org',
            userFilter: '(uid={username})',
          },
        },
      ],
    });
    await registerClient(gw, 'wiki', {
      redirectUris: ['https://wiki.example.com/cb', 'https://wiki.example.com/other'],
    });
    await registerClient(gw, 'phone', {
      redirectUris: ['com.example.phone:/cb', 'http://127.0.0.1:7070/cb'],
    });
  });
  after(async () => gw.close());

  // The clients in their order (by client id), each origin once; no custom scheme.
  const expected = "'self' http://127.0.0.1:7070 https://wiki.example.com";

  test("the chooser's local form", async () => {
    const chooser = await gw.app.inject({ method: 'GET', url: '/_sso/login' });
    assert.equal(chooser.statusCode, 200, chooser.body);
    assert.equal(formAction(chooser.headers['content-security-policy']), expected);
  });

  test("a directory's password form", async () => {
    const form = await gw.app.inject({ method: 'GET', url: '/_sso/ldap/corp?state=x' });
    assert.equal(form.statusCode, 200, form.body);
    assert.equal(formAction(form.headers['content-security-policy']), expected);
  });

  test('the page relaying a posted callback', async () => {
    const relay = await gw.app.inject({
      method: 'POST',
      url: '/_sso/callback/posted',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'code=c&state=s',
    });
    assert.equal(relay.statusCode, 200, relay.body);
    assert.equal(formAction(relay.headers['content-security-policy']), expected);
  });
});
