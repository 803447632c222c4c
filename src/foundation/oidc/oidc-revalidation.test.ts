import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { OidcTestSetup } from './test-support/oidc-gateway.js';
import { startOidcSetup } from './test-support/oidc-gateway.js';
import { signInAtProvider } from './test-support/openid-provider.js';

/**
 * Re-validation against a real provider: with `oidc.revalidateMinutes`, a
 * session is re-checked with its refresh token at its first use after the
 * interval, and ends once the provider no longer knows the account.
 */
describe('OpenID Connect re-validation at a real provider', () => {
  let setup: OidcTestSetup;
  // The gateway's clock: moved past the re-validation interval by the test.
  let now = Date.now();
  before(async () => {
    setup = await startOidcSetup(
      (provider) => ({
        // offline_access needs prompt=consent at this provider (OpenID Connect Core §11).
        authorizeUrl:
          `${provider.issuer}/auth?response_type=code&client_id=\${appid}&redirect_uri=\${redirect_uri}` +
          '&scope=openid%20email%20profile%20offline_access&prompt=consent&state=${state}',
        oidc: { issuer: provider.issuer, revalidateMinutes: 5, revalidateGraceMinutes: 10 },
      }),
      { gateway: { clock: () => now } },
    );
  });
  after(async () => setup.close());

  test('a session is re-checked after the interval, and ends once the account is disabled at the provider', async () => {
    const { gw, provider } = setup;
    const browser = gw.browser();
    const page = await signInAtProvider(browser, `${gw.url}/_sso/login/oidc`, 'alice');
    assert.equal(page.url, `${gw.url}/`, page.body.slice(0, 300));
    const me = async () =>
      (await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' })).status;
    const kept = async () => {
      const [hash] = await gw.storage.upstreamSessions.sessionsOf('oidc', { subject: 'alice' });
      return hash === undefined ? undefined : gw.storage.upstreamSessions.get(hash);
    };
    const first = await kept();
    assert.ok(first?.refreshToken !== null && first !== undefined, 'a refresh token is kept');
    assert.notEqual(first.refreshToken, first.idToken);

    now += 6 * 60_000;
    assert.equal(await me(), 200);
    const rechecked = await kept();
    assert.equal(rechecked?.checkedAt, now, 'the provider vouched for the session again');

    provider.disable('alice');
    assert.equal(await me(), 200, 'not due yet: the session stands until the next re-check');
    now += 6 * 60_000;
    assert.equal(await me(), 401, 'the provider refused: the session ended');
    assert.equal(await kept(), undefined);
  });
});
