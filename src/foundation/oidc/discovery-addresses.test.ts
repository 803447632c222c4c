import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isSsogateError } from '../../core/index.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { discoveryRefreshMs } from './provider-metadata.js';
import type { ForgingProvider } from './test-support/forging-provider.js';
import { startForgingProvider } from './test-support/forging-provider.js';

/** Every endpoint a discovery document names, by its field. */
const endpointFields = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'jwks_uri',
  'end_session_endpoint',
];

/** Hosts no endpoint may name: this host, the internal network, and forms that hide them. */
const refusedHosts = [
  '127.0.0.2:6379',
  'localhost',
  '169.254.169.254',
  '10.0.0.1',
  '[fd00::1]',
  '[::ffff:0:127.0.0.1]',
  '[2001::7f00:1]',
  '[2002:a00:1::]',
  '[64:ff9b:1::a00:1]',
  '[64:ff9b::a9fe:a9fe]',
];

/**
 * A discovery document is judged by the address policy when it is read:
 * an endpoint naming a refused address refuses the whole document with
 * oidc_discovery_invalid, before any of its endpoints is called, unless
 * SSOGATE_OUTBOUND_ALLOW lets that host through.
 */
describe('the addresses a discovery document names', () => {
  let now = Date.now();
  let strict: TestGateway;
  let allowing: TestGateway;
  let provider: ForgingProvider;
  before(async () => {
    provider = await startForgingProvider();
    // The test gateway allows 127.0.0.1, where the provider listens, and nothing else.
    strict = await startTestGateway({ clock: () => now });
    allowing = await startTestGateway({
      clock: () => now,
      env: { SSOGATE_OUTBOUND_ALLOW: '127.0.0.1,10.0.0.1,localhost' },
    });
  });
  after(async () => {
    await strict.close();
    await allowing.close();
    await provider.close();
  });

  /** The discovery as the gateway reads it now: the document, or the refusal's code and message. */
  const readDiscovery = async (gw: TestGateway) => {
    now += discoveryRefreshMs + 1_000; // past the last document's or failure's memory
    try {
      return { document: await gw.gateway.oidc.discovery(provider.issuer) };
    } catch (error) {
      assert.ok(isSsogateError(error), String(error));
      return { code: error.code, message: error.message };
    }
  };

  for (const field of endpointFields) {
    test(`a document whose ${field} names a refused address is refused when read`, async () => {
      for (const host of refusedHosts) {
        provider.discoveryOverrides = { [field]: `https://${host}/endpoint` };
        const read = await readDiscovery(strict);
        assert.equal(read.code, 'oidc_discovery_invalid', `${field} at ${host}`);
        assert.match(read.message, new RegExp(`${field}.*SSOGATE_OUTBOUND_ALLOW`));
        const status = strict.gateway.oidc.status(provider.issuer);
        assert.equal(status.state, 'failed');
        assert.equal(status.error?.code, 'oidc_discovery_invalid');
      }
    });
  }

  test('a key set that answers an error names the key set, its address and the status', async () => {
    provider.discoveryOverrides = { jwks_uri: `${provider.issuer}/keys-refused` };
    const { document } = await readDiscovery(strict);
    assert.ok(document);
    await assert.rejects(strict.gateway.oidc.keySet(document), (error: unknown) => {
      assert.ok(isSsogateError(error));
      assert.equal(error.code, 'oidc_discovery_failed');
      assert.equal(
        error.message,
        `the key set (jwks_uri) ${provider.issuer}/keys-refused answered status 404`,
      );
      assert.deepEqual(error.facts, { step: 'key_set', status: 404 });
      return true;
    });
  });

  test('a host the operator allowed is accepted, and names are left to the connection', async () => {
    for (const host of ['10.0.0.1', 'localhost:8443']) {
      provider.discoveryOverrides = { token_endpoint: `https://${host}/token` };
      const read = await readDiscovery(allowing);
      assert.equal(read.document?.tokenEndpoint, `https://${host}/token`, read.message);
    }
    provider.discoveryOverrides = { userinfo_endpoint: 'https://idp.example/userinfo' };
    const read = await readDiscovery(strict);
    assert.equal(read.document?.userInfoEndpoint, 'https://idp.example/userinfo', read.message);
  });
});
