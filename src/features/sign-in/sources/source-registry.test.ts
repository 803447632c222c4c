import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileEntry } from '../../../core/index.js';
import { buildGetEntry } from '../../../core/test-support/entries.js';
import { samlEntryInput } from '../../saml/test-support/saml-entries.js';
import { sourceKinds, sourceOf } from './source-registry.js';

const oauth2 = compileEntry(buildGetEntry());
const openIdConnect = compileEntry(
  buildGetEntry({ id: 'idp', oidc: { issuer: 'https://idp.example' } }),
);
const extension = compileEntry({
  id: 'acme',
  name: 'Acme',
  enabled: true,
  type: 'extension',
  extensionUrl: 'https://ext.corp.example/acme',
  extensionSecret: 'a-signing-secret-of-enough-length-000',
});
const saml = compileEntry(samlEntryInput());

const ldap = compileEntry({
  id: 'corp',
  name: 'Corp',
  enabled: true,
  type: 'ldap',
  appsecret: 'service account password',
  ldap: {
    url: 'ldaps://ldap.corp.example',
    bindDn: 'cn=gateway,ou=services,dc=corp,dc=example',
    baseDn: 'ou=people,dc=corp,dc=example',
    userFilter: '(&(objectClass=person)(uid={username}))',
  },
});

describe('sign-in sources', () => {
  test('each kind of entry has its source, and every source kind is listed', () => {
    const kinds = [oauth2, openIdConnect, extension, ldap, saml].map(
      (entry) => sourceOf(entry).kind,
    );
    assert.deepEqual(
      kinds.map(({ kind }) => kind),
      ['oauth2', 'openid-connect', 'extension', 'ldap', 'saml'],
    );
    assert.deepEqual(sourceKinds, kinds);
    for (const kind of sourceKinds) {
      assert.equal(JSON.stringify(JSON.parse(JSON.stringify(kind))), JSON.stringify(kind));
    }
  });

  test('the callback is found by the state, or by the browser without one', () => {
    assert.equal(sourceOf(oauth2).callback.correlationField, 'state');
    assert.equal(sourceOf(extension).callback.correlationField, 'state');
    // An LDAP entry's callback is its password form's post, on a route of its own.
    assert.equal(sourceOf(ldap).callback.correlationField, 'state');
    assert.deepEqual(sourceOf(ldap).callback.methods, []);
    const stateless = compileEntry(
      buildGetEntry({
        authorizeUrl: 'https://as.example/authorize?appid=${appid}&redirect_uri=${redirect_uri}',
      }),
    );
    assert.equal(sourceOf(stateless).callback.correlationField, undefined);
    assert.deepEqual(sourceOf(oauth2).callback.methods, ['GET']);
    const posted = compileEntry(buildGetEntry({ responseMode: 'form_post' }));
    assert.deepEqual(sourceOf(posted).callback.methods, ['GET', 'POST']);
  });

  test('a SAML Response is posted only, and found by its RelayState', () => {
    assert.deepEqual(sourceOf(saml).callback.methods, ['POST']);
    assert.equal(sourceOf(saml).callback.correlationField, 'RelayState');
  });

  test('only an OpenID Connect source takes logout notifications and has doctor checks', () => {
    assert.equal(sourceOf(openIdConnect).logoutNotifications?.issuer, 'https://idp.example');
    assert.deepEqual(sourceOf(openIdConnect).doctorChecks, [
      { check: 'openid-discovery', issuer: 'https://idp.example' },
    ]);
    for (const entry of [oauth2, extension, saml]) {
      assert.equal(sourceOf(entry).logoutNotifications, undefined);
      assert.deepEqual(sourceOf(entry).doctorChecks, []);
    }
  });

  test('the OAuth2 steps and the test panel go together', () => {
    for (const entry of [oauth2, openIdConnect, extension, saml]) {
      const source = sourceOf(entry);
      assert.equal(source.oauth2Steps !== undefined, source.kind.testPanel, source.kind.kind);
    }
  });
});
