import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { callAdminApi } from '../../test-support/admin-api.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import { freePort } from '../../test-support/free-port.js';
import { readCertificate, samlOf } from '../../core/index.js';
import type { TestServer } from '../../foundation/outbound/test-support/http-fixture.js';
import { startTestServer } from '../../foundation/outbound/test-support/http-fixture.js';
import { identityProviderOf } from './idp-metadata.js';
import type { RunningSimpleSamlPhp } from './test-support/simplesamlphp.js';
import { simpleSamlPhpSkip, startSimpleSamlPhp } from './test-support/simplesamlphp.js';
import { responseFromIdp } from './test-support/saml-sign-in-steps.js';

/**
 * Entries of type saml that name only their identity provider's metadata
 * URL (saml.idpMetadataUrl), against a real SimpleSAMLphp publishing its
 * metadata at saml2/idp/metadata.php: the document fetched by the gateway,
 * kept, refreshed after an hour (the gateway's clock moved forward), a key
 * rollover taken up, and each way the fetch can fail coded.
 */
describe("an identity provider's metadata from its URL", { skip: simpleSamlPhpSkip }, () => {
  let gw: TestGateway;
  let idp: RunningSimpleSamlPhp;
  let token: string;
  let served: TestServer;
  /** What the served metadata URL answers: a status and a body. */
  let serving: { status: number; body: string } = { status: 200, body: '' };
  /** Added to the gateway's clock, to pass a refresh time without waiting. */
  let ahead = 0;
  /** A fetched copy is used for an hour (docs/entries.md#metadata-from-a-url). */
  const pastRefresh = 60 * 60 * 1000 + 1000;

  const acsUrl = (id: string) => `${gw.url}/_sso/callback/${id}`;
  const spEntityId = (id: string) => `${gw.url}/_sso/saml/${id}/metadata`;

  const api = (method: string, path: string, body?: unknown) =>
    callAdminApi(gw.url, token, method, path, body);

  async function createEntry(id: string, saml: Record<string, unknown>): Promise<void> {
    const created = await api('POST', 'entries', {
      type: 'saml',
      id,
      name: `SAML ${id}`,
      enabled: true,
      saml: { attributes: { name: 'displayName' }, ...saml },
      provisioning: { userIdScope: 'entry' },
    });
    assert.equal(created.status, 201, await created.text());
  }

  async function providerOf(id: string) {
    const entry = samlOf((await gw.gateway.entries.get(id)) ?? assert.fail(`no entry ${id}`));
    return identityProviderOf(entry ?? assert.fail('not saml'), gw.gateway.documents);
  }

  before(async () => {
    gw = await startTestGateway({ clock: () => Date.now() + ahead });
    token = await storedApiToken(gw, 'saml-metadata-url-tests');
    idp = await startSimpleSamlPhp(
      [{ username: 'alice', name: 'Alice Example', email: 'alice@example.test', groups: [] }],
      ['md-url', 'md-served'].map((id) => ({ entityId: spEntityId(id), acsUrl: acsUrl(id) })),
    );
    served = await startTestServer((_request, response) => {
      response.writeHead(serving.status, { 'content-type': 'application/samlmetadata+xml' });
      response.end(serving.body);
    });
  });
  after(async () => {
    await gw.close();
    await idp.stop();
    await served.close();
  });

  test('an entry with only the metadata URL signs in; a rolled-over key is taken up at the refresh', async () => {
    await createEntry('md-url', { idpMetadataUrl: idp.metadataUrl });
    const browser = gw.browser();
    const answer = await responseFromIdp(browser, gw.url, idp, 'md-url');
    const page = await browser.submit(answer.action, answer.fields);
    assert.equal(page.url, `${gw.url}/reports`, page.body);

    // The identity provider signs with a new key from now on; the gateway's
    // copy of its metadata still names the old certificate only.
    const rolled = await idp.rollKey();
    assert.deepEqual((await providerOf('md-url')).certificates, [idp.certificate]);
    const early = gw.browser();
    const refused = await early.submit(
      ...(await responseFromIdp(early, gw.url, idp, 'md-url').then(
        (form) => [form.action, form.fields] as const,
      )),
    );
    assert.equal(refused.status, 400, refused.body);
    assert.match(refused.body, /<code>saml_signature_invalid<\/code>/);

    // An hour on, the next use fetches the metadata again.
    ahead = pastRefresh;
    try {
      assert.deepEqual((await providerOf('md-url')).certificates, [readCertificate(rolled)]);
    } finally {
      ahead = 0;
    }
    const later = gw.browser();
    const second = await responseFromIdp(later, gw.url, idp, 'md-url');
    const signedIn = await later.submit(second.action, second.fields);
    assert.equal(signedIn.url, `${gw.url}/reports`, signedIn.body);
  });

  test('a failed refresh keeps the last good copy, and says so in the log', async () => {
    const xml = await (await fetch(idp.metadataUrl)).text();
    serving = { status: 200, body: xml };
    await createEntry('md-served', { idpMetadataUrl: `${served.url}/metadata.xml` });
    const first = await providerOf('md-served');
    const fetches = served.received.length;

    serving = { status: 503, body: 'down for maintenance' };
    ahead = pastRefresh;
    try {
      assert.deepEqual(await providerOf('md-served'), first);
    } finally {
      ahead = 0;
    }
    assert.equal(served.received.length, fetches + 1);
    const warned = gw.logLines.find((line) =>
      line.includes('refreshing metadata failed; the earlier copy stays in use'),
    );
    assert.ok(warned, gw.logLines.slice(-5).join('\n'));
    assert.match(warned, /"code":"saml_metadata_unavailable"/);
    assert.match(warned, /status 503/);
  });

  test("the document's cacheDuration brings its refresh forward", async () => {
    const xml = await (await fetch(idp.metadataUrl)).text();
    const withDuration = xml.replace(
      /<md:EntityDescriptor /,
      '<md:EntityDescriptor cacheDuration="PT2M" ',
    );
    assert.notEqual(withDuration, xml);
    serving = { status: 200, body: withDuration };
    await createEntry('md-cached', { idpMetadataUrl: `${served.url}/cached.xml` });
    const fetchesOf = () => served.received.filter((one) => one.url === '/cached.xml').length;
    await providerOf('md-cached');
    assert.equal(fetchesOf(), 1);
    ahead = 60 * 1000;
    try {
      await providerOf('md-cached');
      assert.equal(fetchesOf(), 1, 'fetched again within its cacheDuration');
      ahead = 2 * 60 * 1000 + 1000;
      await providerOf('md-cached');
      assert.equal(fetchesOf(), 2, 'not fetched again past its cacheDuration');
    } finally {
      ahead = 0;
    }
  });

  test('an unreachable, oversized or invalid metadata URL is a coded error', async (t) => {
    const closedPort = await freePort();
    const cases: [string, string, { status: number; body: string } | undefined, string, RegExp][] =
      [
        [
          'md-unreachable',
          `http://127.0.0.1:${closedPort}/metadata`,
          undefined,
          'saml_metadata_unavailable',
          /outbound_network/,
        ],
        [
          'md-oversized',
          `${served.url}/oversized`,
          { status: 200, body: `<x>${'a'.repeat(1024 * 1024)}</x>` },
          'saml_metadata_unavailable',
          /outbound_too_large/,
        ],
        [
          'md-doctype',
          `${served.url}/doctype`,
          {
            status: 200,
            body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "e">]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>',
          },
          'saml_metadata_invalid',
          /document type declaration/,
        ],
        [
          'md-html',
          `${served.url}/html`,
          { status: 200, body: '<html><body>Sign in</body></html>' },
          'saml_metadata_invalid',
          /not a SAML metadata document/,
        ],
        [
          'md-expired',
          `${served.url}/expired`,
          {
            status: 200,
            body: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x" validUntil="2001-01-01T00:00:00Z"/>',
          },
          'saml_metadata_invalid',
          /expired at 2001-01-01/,
        ],
      ];
    for (const [id, url, answer, code, message] of cases) {
      await t.test(id, async () => {
        if (answer !== undefined) serving = answer;
        await createEntry(id, { idpMetadataUrl: url });
        await assert.rejects(providerOf(id), (error: Error & { code?: string }) => {
          assert.equal(error.code, code);
          assert.match(error.message, message);
          return true;
        });
        // The sign-in stops on the coded page before the browser leaves.
        const page = await gw.browser().open(`${gw.url}/_sso/login/${id}?return_to=/`);
        assert.equal(page.status, 502, page.body);
        assert.match(page.body, new RegExp(`<code>${code}</code>`));
      });
    }
  });

  test('the admin API refuses a metadata URL beside pasted metadata, not http(s), or at a refused address', async () => {
    const problems = async (saml: Record<string, unknown>) => {
      const answer = await api('POST', 'entries', {
        type: 'saml',
        id: 'md-bad',
        name: 'bad',
        enabled: true,
        saml,
      });
      assert.equal(answer.status, 400);
      return JSON.stringify(await answer.json());
    };
    assert.match(
      await problems({ idpMetadataUrl: idp.metadataUrl, idpMetadataXml: '<md:EntityDescriptor>' }),
      /saml\.idpMetadataUrl.*cannot be given with idpMetadataXml/,
    );
    assert.match(
      await problems({ idpMetadataUrl: 'ftp://idp.example/metadata' }),
      /saml\.idpMetadataUrl.*absolute http\(s\) URL/,
    );
    assert.match(
      await problems({ idpMetadataUrl: 'http://169.254.169.254/metadata' }),
      /url_address_refused.*saml\.idpMetadataUrl|saml\.idpMetadataUrl.*url_address_refused/,
    );
  });
});
