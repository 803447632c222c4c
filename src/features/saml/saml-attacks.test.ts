import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestBrowser } from '../../test-support/browser.js';
import { createEntryByApi } from '../../test-support/admin-api.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import type { CompiledSamlEntry } from '../../core/index.js';
import { samlOf } from '../../core/index.js';
import type { PendingSignIn } from '../../foundation/storage/types.js';
import { samlEndpoints } from './saml-endpoints.js';
import { readSamlAnswer } from './saml-response.js';
import { idpSettingsOf } from './test-support/saml-entries.js';
import { answerAtIdp, failsWith } from './test-support/saml-sign-in-steps.js';
import type { RunningSimpleSamlPhp } from './test-support/simplesamlphp.js';
import { formOf, simpleSamlPhpSkip, startSimpleSamlPhp } from './test-support/simplesamlphp.js';

/**
 * The known attacks on a SAML service provider, each on a Response the real
 * SimpleSAMLphp signed and then altered as the attack needs: a comment
 * inside the NameID, a document type with entities, a Response for another
 * service provider, an unsolicited Response, and an assertion whose own
 * signature is missing while the Response's holds (and the reverse).
 * The wrapping attacks and a changed attribute are in saml-sign-in.test.ts.
 */
describe('SAML Responses an attacker altered', { skip: simpleSamlPhpSkip }, () => {
  let gw: TestGateway;
  let idp: RunningSimpleSamlPhp;
  let token: string;

  const metadataUrl = (id: string) => `${gw.url}/_sso/saml/${id}/metadata`;
  const acsUrl = (id: string) => `${gw.url}/_sso/callback/${id}`;
  const xmlOf = (encoded: string) => Buffer.from(encoded, 'base64').toString('utf8');
  const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

  before(async () => {
    gw = await startTestGateway();
    token = await storedApiToken(gw, 'saml-attack-tests');
    idp = await startSimpleSamlPhp(
      [
        { username: 'alice.evil', name: 'Mallory', email: 'm@evil.test', groups: [] },
        { username: 'bob', name: 'Bob Example', email: 'bob@example.test', groups: ['staff'] },
      ],
      [
        { entityId: metadataUrl('corp-saml'), acsUrl: acsUrl('corp-saml') },
        // Its assertions unsigned, only the Response around them signed.
        {
          entityId: metadataUrl('corp-saml-rs'),
          acsUrl: acsUrl('corp-saml-rs'),
          signAssertion: false,
        },
        { entityId: 'https://other-sp.example/', acsUrl: 'https://other-sp.example/acs' },
      ],
    );
    for (const id of ['corp-saml', 'corp-saml-rs'])
      await createEntryByApi(gw.url, token, {
        type: 'saml',
        id,
        name: `Corp SAML ${id}`,
        enabled: true,
        saml: idpSettingsOf(idp),
      });
  });
  after(async () => {
    await gw.close();
    await idp.stop();
  });

  /** The form SimpleSAMLphp posts back after its login form is filled. */
  const signInAtIdp = async (browser: TestBrowser, start: string, username: string) =>
    answerAtIdp(browser, idp, await browser.open(start), username);

  const responseFromIdp = (browser: TestBrowser, entryId = 'corp-saml', username = 'bob') =>
    signInAtIdp(browser, `${gw.url}/_sso/login/${entryId}?return_to=/reports`, username);

  /** The entry and a pending sign-in that asked for this Response, for reading it directly. */
  async function readerFor(id: string, xml: string) {
    const entry = samlOf((await gw.gateway.entries.get(id)) ?? assert.fail('no entry'));
    assert.ok(entry !== undefined);
    const now = Date.now();
    const pending: PendingSignIn = {
      stateHash: 'unused',
      entryId: id,
      returnTo: '/',
      bindingHash: 'unused',
      redirectUri: acsUrl(id),
      codeVerifier: null,
      createdAt: now,
      expiresAt: now + 60_000,
      nonce: /InResponseTo="([^"]+)"/.exec(xml)?.[1] ?? 'none',
    };
    return (
      changed: Partial<CompiledSamlEntry['saml']> = {},
      endpoints = samlEndpoints(gw.url, entry),
      sent = xml,
    ) =>
      readSamlAnswer(
        { ...entry, saml: { ...entry.saml, ...changed } },
        { SAMLResponse: encode(sent) },
        pending,
        { endpoints, clock: Date.now, documents: gw.gateway.documents },
      );
  }

  test('a comment inside the NameID does not cut it short: alice<!---->.evil stays alice.evil', async () => {
    const browser = gw.browser();
    const answer = await responseFromIdp(browser, 'corp-saml', 'alice.evil');
    const xml = xmlOf(answer.fields.SAMLResponse ?? '');
    const nameId = />alice\.evil<\/saml:NameID>/;
    assert.match(xml, nameId);
    // Canonical XML without comments (the signatures' c14n) leaves the digests as they were.
    const commented = xml.replace(nameId, '>alice<!---->.evil</saml:NameID>');
    const page = await browser.submit(answer.action, {
      ...answer.fields,
      SAMLResponse: encode(commented),
    });
    assert.equal(page.url, `${gw.url}/reports`, page.body);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal((JSON.parse(me.body) as { userId: string }).userId, 'alice.evil');
    assert.equal(await gw.storage.users.findByUserId('alice'), undefined);
  });

  test('a document type is refused: an internal entity, an external one never fetched', async () => {
    let fetched = 0;
    const bait = createServer((_request, response) => {
      fetched += 1;
      response.end('alice');
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
    const baitUrl = `http://127.0.0.1:${(bait.address() as AddressInfo).port}/name`;
    try {
      for (const declare of [
        '<!DOCTYPE samlp:Response [<!ENTITY who "alice">]>',
        `<!DOCTYPE samlp:Response [<!ENTITY who SYSTEM "${baitUrl}">]>`,
        `<!DOCTYPE samlp:Response SYSTEM "${baitUrl}">`,
        '<!doctype samlp:Response [<!ENTITY a "aaaaaaaaaa"><!ENTITY who "&a;&a;&a;&a;">]>',
      ]) {
        const browser = gw.browser();
        const answer = await responseFromIdp(browser);
        const xml = xmlOf(answer.fields.SAMLResponse ?? '');
        const body = xml.replace(/^<\?xml[^>]*\?>\s*/, '');
        const attacked = `${declare}${body.replace('>bob</saml:NameID>', '>&who;</saml:NameID>')}`;
        failsWith(
          await browser.submit(answer.action, { ...answer.fields, SAMLResponse: encode(attacked) }),
          400,
          'saml_response_invalid',
        );
      }
      assert.equal(fetched, 0);
    } finally {
      bait.close();
    }
  });

  test('a Response for another service provider is refused by its Destination, Recipient and Audience', async () => {
    // SimpleSAMLphp signs in for https://other-sp.example/ unasked (IdP-initiated).
    const other = await signInAtIdp(
      gw.browser(),
      idp.idpInitiatedUrl('https://other-sp.example/'),
      'bob',
    );
    assert.equal(other.action, 'https://other-sp.example/acs');
    const xml = xmlOf(other.fields.SAMLResponse ?? '');
    assert.match(xml, /<saml:Audience>https:\/\/other-sp\.example\/<\/saml:Audience>/);
    const entry = samlOf((await gw.gateway.entries.get('corp-saml')) ?? assert.fail('no entry'));
    assert.ok(entry !== undefined);
    const ours = samlEndpoints(gw.url, entry);
    // Even when asked by this sign-in, and delivered where it was meant to go, its Audience is not us.
    const asked = xml.replace(/<samlp:Response /, '<samlp:Response InResponseTo="_asked" ');
    const pending: PendingSignIn = {
      stateHash: 'unused',
      entryId: entry.id,
      returnTo: '/',
      bindingHash: 'unused',
      redirectUri: acsUrl(entry.id),
      codeVerifier: null,
      createdAt: Date.now(),
      expiresAt: Date.now() + 60_000,
      nonce: '_asked',
    };
    const read = (endpoints = ours) =>
      readSamlAnswer(entry, { SAMLResponse: encode(asked) }, pending, {
        endpoints,
        clock: Date.now,
        documents: gw.gateway.documents,
      });
    await assert.rejects(read(), { code: 'saml_destination_mismatch' });
    // At its own ACS, the InResponseTo added by hand breaks the Response's
    // signature, not the assertion's, and the assertion's Audience is another's.
    await assert.rejects(read({ ...ours, acsUrl: 'https://other-sp.example/acs' }), {
      code: 'saml_audience_mismatch',
    });
    const unasked = (await readerFor('corp-saml', xml))(
      {},
      { ...ours, acsUrl: 'https://other-sp.example/acs' },
    );
    await assert.rejects(unasked, { code: 'saml_in_response_to_mismatch' });
  });

  test('an unsolicited Response is refused: IdP-initiated, or its InResponseTo taken out', async () => {
    const browser = gw.browser();
    const unsolicited = await signInAtIdp(
      browser,
      idp.idpInitiatedUrl(metadataUrl('corp-saml')),
      'bob',
    );
    assert.equal(unsolicited.action, acsUrl('corp-saml'));
    assert.doesNotMatch(xmlOf(unsolicited.fields.SAMLResponse ?? ''), /InResponseTo=/);
    const relay = await browser.submit(unsolicited.action, unsolicited.fields);
    // The cross-site post carries no cookie; the gateway's page posts it again, same-site.
    const again = formOf(relay.body);
    assert.equal(again.fields.ssogate_relayed, '1', relay.body);
    const posted = await browser.submit(new URL(again.action, gw.url).href, again.fields);
    assert.equal(posted.status, 400, posted.body);
    // No RelayState: no sign-in of this browser asked for it (docs/entries.md, unsolicited).
    assert.match(posted.body, /<code>state_invalid<\/code>/);

    // Within a sign-in the gateway started, the same answer without InResponseTo.
    const second = gw.browser();
    const answer = await responseFromIdp(second);
    const stripped = xmlOf(answer.fields.SAMLResponse ?? '').replace(/ InResponseTo="[^"]*"/g, '');
    failsWith(
      await second.submit(answer.action, { ...answer.fields, SAMLResponse: encode(stripped) }),
      400,
      'saml_in_response_to_mismatch',
    );
    // And the IdP-initiated one under a new sign-in's RelayState (a failed one's is used up).
    const third = gw.browser();
    const fresh = await responseFromIdp(third);
    failsWith(
      await third.submit(fresh.action, {
        SAMLResponse: unsolicited.fields.SAMLResponse ?? '',
        RelayState: fresh.fields.RelayState ?? '',
      }),
      400,
      'saml_in_response_to_mismatch',
    );
  });

  test('an unsigned assertion in a signed Response is refused unless wantAssertionsSigned is false', async () => {
    const browser = gw.browser();
    const answer = await responseFromIdp(browser, 'corp-saml-rs');
    const xml = xmlOf(answer.fields.SAMLResponse ?? '');
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] ?? '';
    assert.doesNotMatch(assertion, /<ds:Signature/);
    assert.match(xml, /<ds:Signature/);
    const read = await readerFor('corp-saml-rs', xml);
    assert.equal((await read({ wantAssertionsSigned: false })).userId, 'bob');
    await assert.rejects(read(), { code: 'saml_signature_invalid' });
    failsWith(await browser.submit(answer.action, answer.fields), 400, 'saml_signature_invalid');
  });

  test('a signed assertion in an unsigned Response is read; changed, it is refused', async () => {
    const browser = gw.browser();
    const answer = await responseFromIdp(browser);
    const xml = xmlOf(answer.fields.SAMLResponse ?? '');
    const start = xml.indexOf('<saml:Assertion');
    const head = xml.slice(0, start);
    assert.match(head, /<ds:Signature/);
    const unsignedResponse = `${head.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, '')}${xml.slice(start)}`;
    const read = await readerFor('corp-saml', xml);
    assert.equal((await read({}, undefined, unsignedResponse)).userId, 'bob');
    await assert.rejects(read({}, undefined, unsignedResponse.replace('>bob<', '>alice<')), {
      code: 'saml_signature_invalid',
    });
    const page = await browser.submit(answer.action, {
      ...answer.fields,
      SAMLResponse: encode(unsignedResponse),
    });
    assert.equal(page.url, `${gw.url}/reports`, page.body);
  });
});
