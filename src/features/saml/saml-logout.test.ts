import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, sign, verify } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { createEntryByApi } from '../../test-support/admin-api.js';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { BrowserResponse, TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import type { SignInEnded } from '../../foundation/storage/sign-in-ends.js';
import { csrfTokenFor, sessionHash } from '../sessions/session-service.js';
import type { RunningSimpleSamlPhp, TestKeyPair } from './test-support/simplesamlphp.js';
import {
  formOf,
  makeKeyPair,
  simpleSamlPhpSkip,
  startSimpleSamlPhp,
} from './test-support/simplesamlphp.js';

const rsaSha256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/**
 * SAML single logout by the HTTP-Redirect binding (SAML Profiles §4.4)
 * against a real identity provider, Debian's SimpleSAMLphp, its service
 * provider metadata naming the gateway's SingleLogoutService: the
 * gateway's sign-out sending a LogoutRequest and taking the answer; the
 * identity provider's own logout ending the gateway's sessions; and each
 * LogoutRequest the gateway must refuse, with its code.
 */
describe('SAML single logout', { skip: simpleSamlPhpSkip }, () => {
  let gw: TestGateway;
  let idp: RunningSimpleSamlPhp;
  let token: string;
  /** The key pair of the entry slo-signed, whose messages the IdP requires signed. */
  let spKeys: TestKeyPair;
  const events: SignInEnded[] = [];

  const metadataUrl = (id: string) => `${gw.url}/_sso/saml/${id}/metadata`;
  const acsUrl = (id: string) => `${gw.url}/_sso/callback/${id}`;
  const sloUrl = (id: string) => `${gw.url}/_sso/saml/${id}/logout`;

  before(async () => {
    gw = await startTestGateway();
    gw.gateway.signInEnds.listen((event) => {
      events.push(event);
      return Promise.resolve();
    });
    token = await storedApiToken(gw, 'saml-logout-tests');
    spKeys = await makeKeyPair('ssogate slo-signed');
    idp = await startSimpleSamlPhp(
      ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'].map((username) => ({
        username,
        name: `${username} Example`,
        email: `${username}@example.test`,
        groups: ['staff'],
      })),
      [
        { entityId: metadataUrl('slo'), acsUrl: acsUrl('slo'), logoutUrl: sloUrl('slo') },
        {
          entityId: metadataUrl('slo-unsigned'),
          acsUrl: acsUrl('slo-unsigned'),
          logoutUrl: sloUrl('slo-unsigned'),
          signLogout: false,
        },
        {
          entityId: metadataUrl('slo-signed'),
          acsUrl: acsUrl('slo-signed'),
          logoutUrl: sloUrl('slo-signed'),
          signingCertificate: spKeys.certificate,
        },
      ],
    );
    const metadata = await (await fetch(idp.metadataUrl)).text();
    for (const id of ['slo', 'slo-unsigned', 'slo-signed'])
      await createEntryByApi(gw.url, token, {
        type: 'saml',
        id,
        name: `Corp SAML ${id}`,
        enabled: true,
        ...(id === 'slo-signed' ? { appsecret: spKeys.privateKey } : {}),
        saml: {
          idpMetadataXml: metadata,
          ...(id === 'slo-signed' ? { spCertificate: spKeys.certificate } : {}),
        },
      });
  });
  after(async () => {
    await gw.close();
    await idp.stop();
  });

  /** A browser signed in through `entryId` as `username`, at the IdP and at the gateway. */
  async function signIn(username: string, entryId = 'slo'): Promise<TestBrowser> {
    const browser = gw.browser();
    const login = await browser.open(`${gw.url}/_sso/login/${entryId}?return_to=/reports`);
    return signInAt(browser, login, username, entryId);
  }

  /** The rest of a sign-in from the IdP's password page. */
  async function signInAt(
    browser: TestBrowser,
    login: BrowserResponse,
    username: string,
    entryId: string,
  ): Promise<TestBrowser> {
    assert.equal(login.status, 200, `${login.body}\n${await idp.log()}`);
    const form = formOf(login.body);
    const posted = await browser.submit(new URL(form.action, login.url).href, {
      ...form.fields,
      username,
      password: `${username}-password`,
    });
    const answer = formOf(posted.body);
    assert.equal(answer.action, acsUrl(entryId), `${posted.body}\n${await idp.log()}`);
    const page = await browser.submit(answer.action, answer.fields);
    assert.equal(page.url, `${gw.url}/reports`, page.body);
    return browser;
  }

  async function signedInAs(browser: TestBrowser): Promise<string | undefined> {
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    if (me.status !== 200) return undefined;
    return (JSON.parse(me.body) as { userId: string }).userId;
  }

  function failsWith(response: BrowserResponse, code: string): void {
    assert.equal(response.status, 400, response.body);
    assert.match(response.body, new RegExp(`<code>${code}</code>`));
  }

  /** The IdP's LogoutRequest on its way to the gateway, read from a redirect's query. */
  function logoutRequestOf(url: string): string {
    const encoded = new URL(url).searchParams.get('SAMLRequest') ?? '';
    return inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  }

  /** A message by the HTTP-Redirect binding, signed with the IdP's key unless told. */
  function redirectQuery(
    xml: string,
    options: { signed?: boolean; kind?: 'SAMLRequest' | 'SAMLResponse' } = {},
  ): string {
    const message = `${options.kind ?? 'SAMLRequest'}=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`;
    if (options.signed === false) return message;
    const octets = `${message}&SigAlg=${encodeURIComponent(rsaSha256)}`;
    const signature = sign('sha256', Buffer.from(octets), idp.privateKey).toString('base64');
    return `${octets}&Signature=${encodeURIComponent(signature)}`;
  }

  /**
   * A redirect-bound URL the gateway sent, checked to be signed with the
   * entry's key by RSA-SHA256 over the query as sent (SAML Bindings
   * §3.4.4.1), and the same URL with its signature taken off.
   */
  function signedByEntry(url: string): { unsigned: string } {
    const query = new URL(url).search.slice(1);
    const match = /^(.*)&SigAlg=([^&]*)&Signature=([^&]*)$/.exec(query);
    assert.ok(match !== null, `not signed: ${url}`);
    const [, message = '', sigAlg = '', signature = ''] = match;
    assert.equal(decodeURIComponent(sigAlg), rsaSha256);
    assert.match(message, /^SAML(Request|Response)=[^&]+(&RelayState=[^&]*)?$/);
    assert.ok(
      verify(
        'sha256',
        Buffer.from(`${message}&SigAlg=${sigAlg}`),
        new X509Certificate(spKeys.certificate).publicKey,
        Buffer.from(decodeURIComponent(signature), 'base64'),
      ),
      'the signature does not hold by the entry certificate',
    );
    return { unsigned: url.replace(/&SigAlg=[^&]*&Signature=[^&]*$/, '') };
  }

  function idpLogoutRequest(
    nameId: string,
    more: { issuer?: string; destination?: string; issued?: Date; id?: string } = {},
  ): string {
    const id = more.id ?? `_test${Math.random().toString(16).slice(2)}`;
    return [
      `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"`,
      ` ID="${id}" Version="2.0" IssueInstant="${(more.issued ?? new Date()).toISOString()}"`,
      ` Destination="${more.destination ?? sloUrl('slo')}">`,
      `<saml:Issuer>${more.issuer ?? idp.entityId}</saml:Issuer>`,
      `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${nameId}</saml:NameID>`,
      '</samlp:LogoutRequest>',
    ].join('');
  }

  test('the service provider metadata names the SingleLogoutService, by HTTP-Redirect', async () => {
    const metadata = await (await fetch(metadataUrl('slo'))).text();
    assert.match(
      metadata,
      new RegExp(
        `<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${sloUrl('slo')}"`,
      ),
    );
  });

  test('the sign-in keeps the NameID and SessionIndex beside its session', async () => {
    const browser = await signIn('alice');
    const sessionId = browser.cookies(gw.url).get('ssogate_session') ?? '';
    const kept = await gw.storage.upstreamSessions.get(sessionHash(sessionId));
    assert.equal(kept?.subject, 'alice');
    assert.deepEqual(kept.subjectQualifiers, {
      format: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      spNameQualifier: metadataUrl('slo'),
    });
    assert.match(kept.providerSid ?? '', /^_/);
    assert.equal(kept.idToken, '');
  });

  test('signing out of the gateway sends a LogoutRequest; the answer lands on the signed-out page', async () => {
    const browser = await signIn('bob');
    const sessionId = browser.cookies(gw.url).get('ssogate_session') ?? '';
    const page = await browser.submit(`${gw.url}/_sso/logout`, { csrf: csrfTokenFor(sessionId) });
    assert.equal(page.status, 200, `${page.body}\n${await idp.log()}`);
    assert.equal(page.url, `${gw.url}/_sso/signed-out`, await idp.log());
    const [toIdp] = page.hops;
    // The IdP's LogoutResponse, after its own steps (resumelogout.php).
    const fromIdp = page.hops.find((hop) =>
      hop.location?.startsWith(`${sloUrl('slo')}?SAMLResponse=`),
    );
    const request = new URL(toIdp?.location ?? '');
    assert.equal(`${request.origin}${request.pathname}`, idp.sloUrl);
    const sent = logoutRequestOf(request.href);
    // The NameID as the assertion gave it, qualifiers and all (SAML Core §3.7.1).
    assert.match(
      sent,
      new RegExp(
        `<saml:NameID SPNameQualifier="${metadataUrl('slo')}" Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">bob</saml:NameID>`,
      ),
    );
    assert.match(sent, /<samlp:SessionIndex>_[^<]+<\/samlp:SessionIndex>/);
    assert.ok(fromIdp !== undefined, JSON.stringify(page.hops));
    assert.equal(await signedInAs(browser), undefined);
    assert.equal(await gw.storage.sessions.get(sessionHash(sessionId)), undefined);
    // Signed out at the IdP too: a new sign-in asks for the password again.
    const again = await browser.open(`${gw.url}/_sso/login/slo`);
    assert.notEqual(formOf(again.body).action, acsUrl('slo'));
    assert.match(again.body, /name="password"/);

    // The same LogoutResponse again answers nothing the gateway awaits.
    failsWith(await browser.open(fromIdp.location ?? ''), 'saml_in_response_to_mismatch');
  });

  test("the identity provider's logout ends the gateway's session, raised as saml_logout", async () => {
    const browser = await signIn('carol');
    const sessionId = browser.cookies(gw.url).get('ssogate_session') ?? '';
    const other = await signIn('dave');
    events.length = 0;
    const page = await browser.open(idp.idpLogoutUrl(`${gw.url}/_sso/signed-out`));
    assert.equal(page.url, `${gw.url}/_sso/signed-out`, `${page.body}\n${await idp.log()}`);
    const toGateway = page.hops.find((hop) => hop.url.startsWith(`${sloUrl('slo')}?`));
    assert.ok(toGateway !== undefined, JSON.stringify(page.hops));
    assert.match(logoutRequestOf(toGateway.url), />carol<\/saml:NameID>/);
    assert.match(
      toGateway.location ?? '',
      /^http:\/\/127\.0\.0\.1:\d+\/saml2\/idp\/SingleLogoutService\.php\?SAMLResponse=/,
    );
    // The session check refuses it now, though the browser still holds its cookie.
    assert.equal(browser.cookies(gw.url).get('ssogate_session'), sessionId);
    assert.equal(await signedInAs(browser), undefined);
    assert.equal(await signedInAs(other), 'dave');
    assert.deepEqual(
      events.map((event) => event.reason),
      ['saml_logout'],
    );
    const audited = await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'sign_out' },
      (event) => event.entryId === 'slo' && event.detail?.channel === 'saml',
    );
    assert.equal(audited.detail?.sessionsEnded, 1);

    // Replayed: the same signed LogoutRequest once more is refused.
    failsWith(await gw.browser().open(toGateway.url), 'saml_logout_replayed');
  });

  test('an unsigned LogoutRequest is refused, and the session stays', async () => {
    const browser = await signIn('erin', 'slo-unsigned');
    const page = await browser.open(idp.idpLogoutUrl(`${gw.url}/_sso/signed-out`));
    failsWith(page, 'saml_logout_signature_invalid');
    assert.equal(await signedInAs(browser), 'erin');
  });

  test('a forged, stale, misdirected or foreign LogoutRequest is refused', async () => {
    const browser = await signIn('dave');
    const at = `${sloUrl('slo')}?`;
    const open = (query: string) => gw.browser().open(`${at}${query}`);
    // Signed by the IdP's key, then changed: another user named.
    const signed = redirectQuery(idpLogoutRequest('bob'));
    const forged = signed.replace(
      /^SAMLRequest=[^&]+/,
      `SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(idpLogoutRequest('dave'))).toString('base64'))}`,
    );
    failsWith(await open(forged), 'saml_logout_signature_invalid');
    failsWith(
      await open(redirectQuery(idpLogoutRequest('dave'), { signed: false })),
      'saml_logout_signature_invalid',
    );
    failsWith(
      await open(redirectQuery(idpLogoutRequest('dave', { issuer: 'https://other-idp.example/' }))),
      'saml_issuer_mismatch',
    );
    failsWith(
      await open(redirectQuery(idpLogoutRequest('dave', { destination: sloUrl('slo-unsigned') }))),
      'saml_destination_mismatch',
    );
    failsWith(
      await open(
        redirectQuery(idpLogoutRequest('dave', { issued: new Date(Date.now() - 3600_000) })),
      ),
      'saml_logout_expired',
    );
    failsWith(await open('SAMLRequest=not-deflate'), 'saml_logout_invalid');
    for (const text of ['', 'not xml', '<LogoutRequest ID="_x"/>']) {
      failsWith(await open(redirectQuery(text)), 'saml_logout_invalid');
    }
    assert.equal(await signedInAs(browser), 'dave');

    // The same request as it should be: dave's sessions from this entry end.
    const good = await open(redirectQuery(idpLogoutRequest('dave')));
    assert.equal(good.hops[0]?.status, 302);
    assert.ok(
      good.hops.some((hop) => (hop.location ?? '').startsWith(`${idp.sloUrl}?SAMLResponse=`)),
    );
    assert.equal(await signedInAs(browser), undefined);
  });

  test('a LogoutResponse to no request the gateway sent is refused', async () => {
    const xml = [
      `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"`,
      ` ID="_r1" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${sloUrl('slo')}" InResponseTo="_never-sent">`,
      `<saml:Issuer>${idp.entityId}</saml:Issuer>`,
      '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>',
      '</samlp:LogoutResponse>',
    ].join('');
    const query = `SAMLResponse=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`;
    failsWith(await gw.browser().open(`${sloUrl('slo')}?${query}`), 'saml_in_response_to_mismatch');
  });

  test("the identity provider's refusal lands on the signed-out-here page; a forged answer is refused", async () => {
    const browser = await signIn('alice');
    const sessionId = browser.cookies(gw.url).get('ssogate_session') ?? '';
    const out = await browser.exchange('POST', `${gw.url}/_sso/logout`, {
      csrf: csrfTokenFor(sessionId),
    });
    assert.equal(out.status, 303);
    // The gateway's session ended before the browser left for the IdP.
    assert.equal(await gw.storage.sessions.get(sessionHash(sessionId)), undefined);
    const sent = logoutRequestOf(out.headers.get('location') ?? '');
    const requestId = /ID="([^"]+)"/.exec(sent)?.[1] ?? '';
    const refusal = redirectQuery(
      [
        `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"`,
        ` ID="_r2" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${sloUrl('slo')}" InResponseTo="${requestId}">`,
        `<saml:Issuer>${idp.entityId}</saml:Issuer>`,
        '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder"/></samlp:Status>',
        '</samlp:LogoutResponse>',
      ].join(''),
      { kind: 'SAMLResponse' },
    );
    // Its signature altered: refused, and the request still awaits its answer.
    const forged = refusal.replace(
      /Signature=[^&]+$/,
      `Signature=${encodeURIComponent(Buffer.alloc(256, 1).toString('base64'))}`,
    );
    failsWith(await browser.open(`${sloUrl('slo')}?${forged}`), 'saml_logout_signature_invalid');
    const answered = await browser.open(`${sloUrl('slo')}?${refusal}`);
    assert.equal(answered.url, `${gw.url}/_sso/signed-out?scope=here`, answered.body);
    assert.equal(await signedInAs(browser), undefined);
  });

  test('with a key pair, the metadata publishes its certificate for signing and AuthnRequestsSigned', async () => {
    const metadata = await (await fetch(metadataUrl('slo-signed'))).text();
    const body = spKeys.certificate
      .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
      .replace(/\s+/g, '');
    assert.match(metadata, /AuthnRequestsSigned="true"/);
    for (const use of ['signing', 'encryption']) {
      const descriptor = new RegExp(`<KeyDescriptor use="${use}">([\\s\\S]*?)</KeyDescriptor>`);
      const certificate = /<ds:X509Certificate>([^<]*)</.exec(descriptor.exec(metadata)?.[1] ?? '');
      assert.equal(certificate?.[1]?.replace(/\s+/g, ''), body, metadata);
    }
    assert.doesNotMatch(metadata, /PRIVATE KEY/);
    const without = await (await fetch(metadataUrl('slo'))).text();
    assert.match(without, /AuthnRequestsSigned="false"/);
    assert.doesNotMatch(without, /KeyDescriptor/);
  });

  test('a signed AuthnRequest is accepted by the IdP that requires it; unsigned, it is refused', async () => {
    const browser = gw.browser();
    const start = await browser.exchange(
      'GET',
      `${gw.url}/_sso/login/slo-signed?return_to=/reports`,
    );
    assert.equal(start.status, 302, await start.text());
    const toIdp = start.headers.get('location') ?? '';
    assert.ok(toIdp.startsWith(`${idp.ssoUrl}?SAMLRequest=`), toIdp);
    const { unsigned } = signedByEntry(toIdp);
    // The control: the same AuthnRequest without its signature is refused.
    const refused = await browser.open(unsigned);
    assert.doesNotMatch(refused.body, /name="password"/, refused.body);
    assert.match(refused.body, /no signature found on message/, refused.body);
    const login = await browser.open(toIdp);
    assert.match(login.body, /name="password"/, `${login.body}\n${await idp.log()}`);
    await signInAt(browser, login, 'frank', 'slo-signed');
    assert.equal(await signedInAs(browser), 'frank');
  });

  test("with a key pair, the gateway's LogoutRequest is signed: the IdP that requires it ends its session; unsigned, it refuses it", async () => {
    const browser = await signIn('grace', 'slo-signed');
    const sessionId = browser.cookies(gw.url).get('ssogate_session') ?? '';
    const out = await browser.exchange('POST', `${gw.url}/_sso/logout`, {
      csrf: csrfTokenFor(sessionId),
    });
    assert.equal(out.status, 303);
    const toIdp = out.headers.get('location') ?? '';
    assert.ok(toIdp.startsWith(`${idp.sloUrl}?SAMLRequest=`), toIdp);
    const { unsigned } = signedByEntry(toIdp);

    // The control: the same LogoutRequest unsigned is refused, and the IdP's session stays.
    const refused = await browser.open(unsigned);
    assert.notEqual(refused.url, `${gw.url}/_sso/signed-out`);
    assert.match(refused.body, /no signature found on message/, refused.body);
    const stillThere = gw.browser();
    for (const [name, value] of browser.cookies(idp.url))
      stillThere.setCookie(idp.url, name, value);
    const silent = await stillThere.open(`${gw.url}/_sso/login/slo-signed`);
    assert.equal(formOf(silent.body).action, acsUrl('slo-signed'), silent.body);

    // Signed, it is taken: the IdP's LogoutResponse lands on the signed-out page.
    const page = await browser.open(toIdp);
    assert.equal(page.url, `${gw.url}/_sso/signed-out`, `${page.body}\n${await idp.log()}`);
    assert.equal(await signedInAs(browser), undefined);
    const again = await browser.open(`${gw.url}/_sso/login/slo-signed`);
    assert.notEqual(formOf(again.body).action, acsUrl('slo-signed'));
    assert.match(again.body, /name="password"/);
  });

  test("with a key pair, the gateway's LogoutResponse to the IdP's logout is signed, and the IdP that requires it completes", async () => {
    const browser = await signIn('heidi', 'slo-signed');
    const page = await browser.open(idp.idpLogoutUrl(`${gw.url}/_sso/signed-out`));
    assert.equal(page.url, `${gw.url}/_sso/signed-out`, `${page.body}\n${await idp.log()}`);
    const answer = page.hops.find((hop) => hop.url.startsWith(`${sloUrl('slo-signed')}?`));
    assert.ok(
      answer?.location?.startsWith(`${idp.sloUrl}?SAMLResponse=`),
      JSON.stringify(page.hops),
    );
    signedByEntry(answer?.location ?? '');
    assert.equal(await signedInAs(browser), undefined);
    const again = await browser.open(`${gw.url}/_sso/login/slo-signed`);
    assert.match(again.body, /name="password"/);
  });
});
