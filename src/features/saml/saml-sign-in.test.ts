import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { TestBrowser } from '../../test-support/browser.js';
import { callAdminApi, createEntryByApi } from '../../test-support/admin-api.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import { samlOf } from '../../core/index.js';
import type { PendingSignIn } from '../../foundation/storage/types.js';
import { samlEndpoints } from './saml-endpoints.js';
import { readSamlAnswer } from './saml-response.js';
import type { RunningSimpleSamlPhp } from './test-support/simplesamlphp.js';
import { idpSettingsOf, unusedIdpCertificate } from './test-support/saml-entries.js';
import { failsWith, responseFromIdp as filledAtIdp } from './test-support/saml-sign-in-steps.js';
import { simpleSamlPhpSkip, startSimpleSamlPhp } from './test-support/simplesamlphp.js';

/**
 * Whole sign-ins of entries of type saml against a real SAML 2.0 identity
 * provider, Debian's SimpleSAMLphp: the AuthnRequest by HTTP-Redirect, its
 * login form filled, the signed Response posted to the callback; and each
 * Response the gateway must refuse, ending on its coded page.
 */
describe('signing in at a SAML identity provider', { skip: simpleSamlPhpSkip }, () => {
  let gw: TestGateway;
  let idp: RunningSimpleSamlPhp;
  let token: string;

  const metadataUrl = (id: string) => `${gw.url}/_sso/saml/${id}/metadata`;
  const acsUrl = (id: string) => `${gw.url}/_sso/callback/${id}`;

  function samlEntry(id: string, more: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      type: 'saml',
      id,
      name: `Corp SAML ${id}`,
      enabled: true,
      saml: {
        ...idpSettingsOf(idp),
        attributes: { name: 'displayName', email: 'mail', groups: 'groups' },
      },
      groupMapping: { adminGroups: ['admins'] },
      ...more,
    };
  }

  const api = (method: string, path: string, body?: unknown) =>
    callAdminApi(gw.url, token, method, path, body);

  before(async () => {
    gw = await startTestGateway();
    token = await storedApiToken(gw, 'saml-tests');
    idp = await startSimpleSamlPhp(
      [
        {
          username: 'alice',
          name: 'Alice Example',
          email: 'alice@example.test',
          groups: ['staff', 'admins'],
        },
        { username: 'bob', name: 'Bob Example', email: 'bob@example.test', groups: ['staff'] },
      ],
      [
        { entityId: metadataUrl('corp-saml'), acsUrl: acsUrl('corp-saml') },
        { entityId: 'urn:ssogate:test:uid', acsUrl: acsUrl('corp-saml-uid') },
        { entityId: metadataUrl('corp-saml-md'), acsUrl: acsUrl('corp-saml-md') },
      ],
    );
    for (const entry of [
      samlEntry('corp-saml'),
      samlEntry('corp-saml-uid', {
        saml: {
          ...idpSettingsOf(idp),
          spEntityId: 'urn:ssogate:test:uid',
          attributes: { userId: 'uid', name: 'displayName' },
        },
        groupMapping: undefined,
        // Its users are its own: bob here is not corp-saml's bob.
        provisioning: { userIdScope: 'entry' },
      }),
    ])
      await createEntryByApi(gw.url, token, entry);
  });
  after(async () => {
    await gw.close();
    await idp.stop();
  });

  const responseFromIdp = (browser: TestBrowser, entryId = 'corp-saml', username = 'alice') =>
    filledAtIdp(browser, gw.url, idp, entryId, username);

  const xmlOf = (encoded: string) => Buffer.from(encoded, 'base64').toString('utf8');
  const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

  test('a whole sign-in: the Response posted back, a session with groups and the admin flag', async (t) => {
    const browser = gw.browser();
    const answer = await responseFromIdp(browser);
    // A posted callback is capped at 16 KiB (form-post-callback.ts).
    const posted = new URLSearchParams(answer.fields).toString().length;
    t.diagnostic(`the posted Response form: ${posted} bytes`);
    assert.ok(posted < 16 * 1024, `${posted} bytes`);
    const page = await browser.submit(answer.action, answer.fields);
    assert.equal(page.status, 200, page.body);
    assert.equal(page.url, `${gw.url}/reports`);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.deepEqual(JSON.parse(me.body), {
      userId: 'alice',
      userName: 'Alice Example',
      email: 'alice@example.test',
      mobile: null,
      department: null,
      isAdmin: true,
      entryId: 'corp-saml',
    });
    const user = await gw.storage.users.findByUserId('alice');
    assert.deepEqual(user?.groups, ['staff', 'admins']);
    const event = await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'sign_in' },
      (one) => one.code === null && one.entryId === 'corp-saml',
    );
    assert.equal(event.outcome, 'success');
  });

  test('a member of no admin group is no administrator; the userId from an attribute', async () => {
    const browser = gw.browser();
    const answer = await responseFromIdp(browser, 'corp-saml', 'bob');
    await browser.submit(answer.action, answer.fields);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal((JSON.parse(me.body) as { isAdmin: boolean }).isAdmin, false);

    const other = gw.browser();
    const byUid = await responseFromIdp(other, 'corp-saml-uid', 'bob');
    const page = await other.submit(byUid.action, byUid.fields);
    assert.equal(page.url, `${gw.url}/reports`, page.body);
    const bob = JSON.parse(
      (await other.open(`${gw.url}/_sso/me`, { accept: 'application/json' })).body,
    ) as { userId: string; entryId: string };
    assert.equal(bob.userId, 'corp-saml-uid:bob');
    assert.equal(bob.entryId, 'corp-saml-uid');
  });

  test('a replayed Response is refused: its RelayState is used, and another sign-in did not ask for it', async () => {
    const browser = gw.browser();
    const answer = await responseFromIdp(browser);
    const first = await browser.submit(answer.action, answer.fields);
    assert.equal(first.url, `${gw.url}/reports`);
    failsWith(await browser.submit(answer.action, answer.fields), 400, 'state_invalid');

    // The same Response under a new sign-in's RelayState answers another AuthnRequest.
    const other = gw.browser();
    const fresh = await responseFromIdp(other);
    failsWith(
      await other.submit(answer.action, {
        ...answer.fields,
        RelayState: fresh.fields.RelayState ?? '',
      }),
      400,
      'saml_in_response_to_mismatch',
    );
  });

  test('an attribute changed after signing is refused', async () => {
    const browser = gw.browser();
    const answer = await responseFromIdp(browser, 'corp-saml', 'bob');
    const xml = xmlOf(answer.fields.SAMLResponse ?? '');
    assert.ok(xml.includes('>staff<'));
    const tampered = encode(xml.replace('>staff<', '>admins<'));
    failsWith(
      await browser.submit(answer.action, { ...answer.fields, SAMLResponse: tampered }),
      400,
      'saml_signature_invalid',
    );
    assert.equal((await gw.storage.users.findByUserId('bob'))?.isAdmin ?? false, false);
  });

  test('an unsigned assertion, and one wrapped around the signed one, are refused', async () => {
    const browser = gw.browser();
    const answer = await responseFromIdp(browser, 'corp-saml', 'bob');
    const xml = xmlOf(answer.fields.SAMLResponse ?? '');
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] ?? '';
    assert.ok(assertion.includes('<ds:Signature'), xml);
    const unsigned = assertion
      .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, '')
      .replace(/ID="[^"]*"/, 'ID="_evil"')
      .replace('>bob<', '>alice<');
    // Every signature removed: nothing is signed.
    const bare = xml
      .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, '')
      .replace('>bob<', '>alice<');
    failsWith(
      await browser.submit(answer.action, { ...answer.fields, SAMLResponse: encode(bare) }),
      400,
      'saml_signature_invalid',
    );
    // The evil assertion first, the signed one kept inside it where a
    // careless reader would still find a valid signature.
    const second = gw.browser();
    const again = await responseFromIdp(second, 'corp-saml', 'bob');
    const signed = xmlOf(again.fields.SAMLResponse ?? '');
    const original = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signed)?.[0] ?? '';
    const wrapped = signed.replace(
      original,
      unsigned.replace(
        '</saml:Assertion>',
        `<saml:Advice>${original}</saml:Advice></saml:Assertion>`,
      ),
    );
    failsWith(
      await second.submit(again.action, { ...again.fields, SAMLResponse: encode(wrapped) }),
      400,
      'saml_signature_invalid',
    );
  });

  test("a Response with another browser's RelayState is refused", async () => {
    const alices = gw.browser();
    const answer = await responseFromIdp(alices);
    const other = gw.browser();
    // The other browser has a binding cookie of its own from a sign-in it started.
    await other.open(`${gw.url}/_sso/login/corp-saml?return_to=/`, { maxHops: 0 });
    failsWith(await other.submit(answer.action, answer.fields), 400, 'state_invalid');
  });

  test('an entry that expects another audience or another issuer refuses the Response', async () => {
    const original = samlEntry('corp-saml');
    const saml = original.saml as Record<string, unknown>;
    const browser = gw.browser();
    const answer = await responseFromIdp(browser);
    const changed = await api('PUT', 'entries/corp-saml', {
      ...original,
      appsecret: null,
      extensionSecret: null,
      saml: { ...saml, spEntityId: 'https://elsewhere.example/sp' },
    });
    assert.equal(changed.status, 200, await changed.text());
    failsWith(await browser.submit(answer.action, answer.fields), 400, 'saml_audience_mismatch');

    const issuer = await api('PUT', 'entries/corp-saml', {
      ...original,
      appsecret: null,
      extensionSecret: null,
      saml: { ...saml, idpEntityId: 'https://another-idp.example/' },
    });
    assert.equal(issuer.status, 200, await issuer.text());
    const second = await responseFromIdp(browser);
    failsWith(await browser.submit(second.action, second.fields), 400, 'saml_issuer_mismatch');

    const back = await api('PUT', 'entries/corp-saml', {
      ...original,
      appsecret: null,
      extensionSecret: null,
    });
    assert.equal(back.status, 200, await back.text());
  });

  test("the assertion's times, the Destination and the Status are checked with their own codes", async () => {
    const answer = await responseFromIdp(gw.browser(), 'corp-saml', 'bob');
    const xml = xmlOf(answer.fields.SAMLResponse ?? '');
    const requestId = /InResponseTo="([^"]+)"/.exec(xml)?.[1];
    const entry = samlOf((await gw.gateway.entries.get('corp-saml')) ?? assert.fail('no entry'));
    assert.ok(entry !== undefined && requestId !== undefined);
    const now = Date.now();
    const pending: PendingSignIn = {
      stateHash: 'unused',
      entryId: entry.id,
      returnTo: '/',
      bindingHash: 'unused',
      redirectUri: acsUrl(entry.id),
      codeVerifier: null,
      createdAt: now,
      expiresAt: now + 60_000,
      nonce: requestId,
    };
    const endpoints = samlEndpoints(gw.url, entry);
    const read = (clock: () => number, at = endpoints, fields = answer.fields) =>
      readSamlAnswer(entry, fields, pending, {
        endpoints: at,
        clock,
        documents: gw.gateway.documents,
      });
    assert.equal((await read(() => now)).userId, 'bob');
    // SimpleSAMLphp's assertions last 5 minutes and start 30 seconds back; the skew is 60 seconds.
    await assert.rejects(
      read(() => now + 10 * 60_000),
      { code: 'saml_assertion_expired' },
    );
    await assert.rejects(
      read(() => now - 10 * 60_000),
      { code: 'saml_assertion_expired' },
    );
    await assert.rejects(
      read(() => now, { ...endpoints, acsUrl: `${gw.url}/_sso/callback/elsewhere` }),
      { code: 'saml_destination_mismatch' },
    );
    const refused = xml.replace(
      /<samlp:Status>[\s\S]*<\/samlp:Status>/,
      '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">' +
        '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode>' +
        '</samlp:Status>',
    );
    assert.notEqual(refused, xml);
    await assert.rejects(
      read(() => now, endpoints, { ...answer.fields, SAMLResponse: encode(refused) }),
      {
        code: 'saml_status',
        message: /Responder urn:oasis:names:tc:SAML:2\.0:status:AuthnFailed/,
      },
    );
  });

  test("an entry given the identity provider's metadata signs in with what it says", async () => {
    const metadata = await fetch(`${idp.url}/saml2/idp/metadata.php`);
    assert.equal(metadata.status, 200);
    const xml = await metadata.text();
    const created = await api('POST', 'entries', {
      ...samlEntry('corp-saml-md'),
      saml: { idpMetadataXml: xml, attributes: { name: 'displayName' } },
      groupMapping: undefined,
      provisioning: { userIdScope: 'entry' },
    });
    assert.equal(created.status, 201, await created.text());
    const browser = gw.browser();
    const answer = await responseFromIdp(browser, 'corp-saml-md', 'bob');
    const page = await browser.submit(answer.action, answer.fields);
    assert.equal(page.url, `${gw.url}/reports`, page.body);

    // Metadata without the signing key: the sign-in cannot start, and says why.
    const keyless = xml.replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, '');
    assert.notEqual(keyless, xml);
    const changed = await api('PUT', 'entries/corp-saml-md', {
      ...samlEntry('corp-saml-md'),
      appsecret: null,
      extensionSecret: null,
      saml: { idpMetadataXml: keyless },
      groupMapping: undefined,
      provisioning: { userIdScope: 'entry' },
    });
    assert.equal(changed.status, 200, await changed.text());
    const refused = await gw.browser().open(`${gw.url}/_sso/login/corp-saml-md?return_to=/`);
    assert.match(refused.body, /<code>saml_metadata_invalid<\/code>/);
    // Another certificate in the entry wins over the metadata's: the Response is refused.
    const wrongKey = await api('PUT', 'entries/corp-saml-md', {
      ...samlEntry('corp-saml-md'),
      appsecret: null,
      extensionSecret: null,
      saml: { idpMetadataXml: xml, idpCertificate: unusedIdpCertificate },
      groupMapping: undefined,
      provisioning: { userIdScope: 'entry' },
    });
    assert.equal(wrongKey.status, 200, await wrongKey.text());
    const other = gw.browser();
    const second = await responseFromIdp(other, 'corp-saml-md', 'bob');
    failsWith(await other.submit(second.action, second.fields), 400, 'saml_signature_invalid');
  });

  test('the metadata names the entityID and the AssertionConsumerService', async () => {
    const answer = await fetch(metadataUrl('corp-saml'));
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/samlmetadata\+xml/);
    const xml = await answer.text();
    assert.ok(xml.includes(`entityID="${metadataUrl('corp-saml')}"`), xml);
    assert.ok(
      xml.includes(
        `Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${acsUrl('corp-saml')}"`,
      ),
      xml,
    );
    assert.equal((await fetch(metadataUrl('nope'))).status, 404);
  });

  test('the admin API refuses a bad certificate or URL with coded problems', async () => {
    const bad = await api('POST', 'entries', {
      ...samlEntry('corp-saml-bad'),
      saml: {
        ssoUrl: 'ftp://idp.example/sso',
        idpEntityId: idp.entityId,
        idpCertificate:
          '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----',
      },
    });
    assert.equal(bad.status, 400);
    const body = (await bad.json()) as {
      error: { code: string; problems: { code: string; field: string }[] };
    };
    assert.equal(body.error.code, 'entry_invalid');
    assert.deepEqual(body.error.problems.map(({ code, field }) => [code, field]).sort(), [
      ['field_invalid', 'saml.idpCertificate'],
      ['field_invalid', 'saml.ssoUrl'],
    ]);
    const missing = await api('POST', 'entries', {
      ...samlEntry('corp-saml-bad'),
      saml: undefined,
    });
    assert.equal(missing.status, 400);
    assert.match(await missing.text(), /"field":"saml"/);
  });
});
