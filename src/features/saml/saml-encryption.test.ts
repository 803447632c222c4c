import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { callAdminApi } from '../../test-support/admin-api.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import type { RunningSimpleSamlPhp, TestKeyPair } from './test-support/simplesamlphp.js';
import {
  makeKeyPair,
  simpleSamlPhpSkip,
  startSimpleSamlPhp,
} from './test-support/simplesamlphp.js';
import { idpSettingsOf } from './test-support/saml-entries.js';
import { responseFromIdp } from './test-support/saml-sign-in-steps.js';

/**
 * Encrypted assertions (SAML Core §2.3.4) against a real SimpleSAMLphp that
 * encrypts to the certificate its service provider's configuration names:
 * the entry's key pair (saml.spCertificate, the key its write-only
 * appsecret) published in the gateway's metadata and used to decrypt;
 * an assertion encrypted to another key, or to an entry without a key,
 * refused with its code. Keys are made by openssl for the run.
 */
describe('encrypted SAML assertions', { skip: simpleSamlPhpSkip }, () => {
  let gw: TestGateway;
  let idp: RunningSimpleSamlPhp;
  let token: string;
  let ours: TestKeyPair;
  let another: TestKeyPair;

  const acsUrl = (id: string) => `${gw.url}/_sso/callback/${id}`;
  const spMetadataUrl = (id: string) => `${gw.url}/_sso/saml/${id}/metadata`;
  const bodyOf = (pem: string) =>
    pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

  const api = (method: string, path: string, body?: unknown) =>
    callAdminApi(gw.url, token, method, path, body);

  function entry(id: string, keys: TestKeyPair | undefined): Record<string, unknown> {
    return {
      type: 'saml',
      id,
      name: `SAML ${id}`,
      enabled: true,
      ...(keys === undefined ? {} : { appsecret: keys.privateKey }),
      saml: {
        ...idpSettingsOf(idp),
        ...(keys === undefined ? {} : { spCertificate: keys.certificate }),
        attributes: { name: 'displayName' },
      },
      provisioning: { userIdScope: 'entry' },
    };
  }

  before(async () => {
    [ours, another] = await Promise.all([
      makeKeyPair('ssogate-sp.test'),
      makeKeyPair('other.test'),
    ]);
    gw = await startTestGateway();
    token = await storedApiToken(gw, 'saml-encryption-tests');
    idp = await startSimpleSamlPhp(
      [{ username: 'alice', name: 'Alice Example', email: 'alice@example.test', groups: [] }],
      [
        { id: 'enc', to: ours },
        { id: 'enc-other', to: another },
        { id: 'enc-keyless', to: ours },
      ].map(({ id, to }) => ({
        entityId: spMetadataUrl(id),
        acsUrl: acsUrl(id),
        encryptionCertificate: to.certificate,
      })),
    );
    for (const [id, keys] of [
      ['enc', ours],
      ['enc-other', ours],
      ['enc-keyless', undefined],
    ] as const) {
      const created = await api('POST', 'entries', entry(id, keys));
      assert.equal(created.status, 201, await created.text());
    }
  });
  after(async () => {
    await gw.close();
    await idp.stop();
  });

  test('an encrypted assertion is decrypted with the entry key and signs in', async () => {
    const browser = gw.browser();
    const answer = await responseFromIdp(browser, gw.url, idp, 'enc');
    const xml = Buffer.from(answer.fields.SAMLResponse ?? '', 'base64').toString('utf8');
    assert.match(xml, /<saml:EncryptedAssertion/);
    assert.doesNotMatch(xml, /<saml:Assertion/);
    const page = await browser.submit(answer.action, answer.fields);
    assert.equal(page.url, `${gw.url}/reports`, page.body);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    // The entry's users are its own (userIdScope entry): its id before theirs.
    assert.equal((JSON.parse(me.body) as { userId: string }).userId, 'enc:alice');
  });

  test('an assertion encrypted to another key, or to an entry without one, is refused', async () => {
    for (const id of ['enc-other', 'enc-keyless']) {
      const browser = gw.browser();
      const answer = await responseFromIdp(browser, gw.url, idp, id);
      const page = await browser.submit(answer.action, answer.fields);
      assert.equal(page.status, 400, page.body);
      assert.match(page.body, /<code>saml_decryption_failed<\/code>/);
    }
  });

  test('an assertion whose key is encrypted by RSA PKCS#1 v1.5 is refused before decrypting', async () => {
    const browser = gw.browser();
    const answer = await responseFromIdp(browser, gw.url, idp, 'enc');
    const xml = Buffer.from(answer.fields.SAMLResponse ?? '', 'base64').toString('utf8');
    const weak = xml.replace(
      'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
      'http://www.w3.org/2001/04/xmlenc#rsa-1_5',
    );
    assert.notEqual(weak, xml, xml);
    const page = await browser.submit(answer.action, {
      ...answer.fields,
      SAMLResponse: Buffer.from(weak, 'utf8').toString('base64'),
    });
    assert.equal(page.status, 400, page.body);
    assert.match(page.body, /<code>saml_decryption_failed<\/code>/);
    const logged = gw.logLines.find((line) => line.includes('encrypted by rsa-1_5'));
    assert.ok(logged, gw.logLines.slice(-3).join('\n'));
  });

  test('the metadata publishes the encryption certificate; the key goes out nowhere', async () => {
    const metadata = await (await fetch(spMetadataUrl('enc'))).text();
    assert.match(metadata, /<KeyDescriptor use="encryption">/);
    assert.ok(metadata.replace(/\s+/g, '').includes(bodyOf(ours.certificate)), metadata);
    assert.doesNotMatch(metadata, /PRIVATE KEY/);
    const keyless = await (await fetch(spMetadataUrl('enc-keyless'))).text();
    assert.doesNotMatch(keyless, /KeyDescriptor/);

    const shown = await (await api('GET', 'entries/enc')).text();
    assert.doesNotMatch(shown, /PRIVATE KEY/);
    assert.match(shown, /"appsecretSet":true/);
    const keyBody = ours.privateKey.split('\n')[1] ?? assert.fail('no key body');
    assert.ok(!gw.logLines.some((line) => line.includes(keyBody)), 'the key in a log line');

    // An edit that does not resend the key keeps it.
    const withoutKey = { ...entry('enc', ours), appsecret: undefined };
    const kept = await api('PUT', 'entries/enc', { ...withoutKey, name: 'SAML enc, renamed' });
    assert.equal(kept.status, 200, await kept.text());
    assert.match(await (await fetch(spMetadataUrl('enc'))).text(), /use="encryption"/);
  });

  test('the admin API refuses half a key pair, or a key the certificate does not certify', async () => {
    const problems = async (body: Record<string, unknown>) => {
      const answer = await api('POST', 'entries', { ...body, id: 'enc-bad' });
      assert.equal(answer.status, 400);
      const text = await answer.text();
      for (const key of [ours.privateKey, another.privateKey]) {
        assert.ok(!text.includes(key.split('\n')[1] ?? ''), 'the key in the answer');
      }
      return text;
    };
    const base = entry('enc-bad', undefined);
    const saml = base.saml as Record<string, unknown>;
    assert.match(
      await problems({ ...base, saml: { ...saml, spCertificate: ours.certificate } }),
      /"appsecret".*is required with saml\.spCertificate/,
    );
    assert.match(
      await problems({ ...base, appsecret: ours.privateKey }),
      /saml\.spCertificate.*is required with an appsecret/,
    );
    assert.match(
      await problems({
        ...base,
        appsecret: another.privateKey,
        saml: { ...saml, spCertificate: ours.certificate },
      }),
      /is not the private key of saml\.spCertificate/,
    );
    assert.match(
      await problems({
        ...base,
        appsecret: 'not a key',
        saml: { ...saml, spCertificate: ours.certificate },
      }),
      /must be a private key, PEM/,
    );
    // The key signs the gateway's messages too: RSA or EC only.
    const edwards = await makeKeyPair('ssogate ed25519', 'ed25519');
    assert.match(
      await problems({
        ...base,
        appsecret: edwards.privateKey,
        saml: { ...saml, spCertificate: edwards.certificate },
      }),
      /"appsecret".*must be an RSA or EC key/,
    );
  });
});
