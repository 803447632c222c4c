import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { compileEntry } from '../../core/index.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import {
  keySetDefaultLifetimeMs,
  keySetLifetimeMs,
  keySetMinLifetimeMs,
  discoveryRefreshMs,
} from './provider-metadata.js';
import type { ForgingProvider } from './test-support/forging-provider.js';
import { signIdToken, startForgingProvider } from './test-support/forging-provider.js';

/**
 * The provider's key set as two gateway instances keep it, each in its own
 * memory: replaced whole at each fetch, so a key the provider stopped
 * publishing stops verifying once the copy is older than its max-age, and
 * fetched again on a signature failure, so a key rotated under the same kid
 * does not break sign-in until a restart.
 */
describe("the provider's key set: replaced, aged and fetched again", () => {
  // The gateways' and the provider's clock, moved past a max-age where a test needs it.
  let now = Date.now();
  const clock = () => now;
  let first: TestGateway;
  let second: TestGateway;
  const providers: ForgingProvider[] = [];
  before(async () => {
    first = await startTestGateway({ clock });
    second = await startTestGateway({ clock });
  });
  after(async () => {
    await first.close();
    await second.close();
    for (const provider of providers) await provider.close();
  });

  /** A provider of its own for each test, as entry `id` at both gateways. */
  const providerFor = async (id: string): Promise<ForgingProvider> => {
    const provider = await startForgingProvider({ clock });
    providers.push(provider);
    for (const gw of [first, second]) {
      await gw.storage.entries.create(
        compileEntry({
          id,
          name: id,
          enabled: true,
          appid: provider.clientId,
          appsecret: 'forge-secret',
          oidc: { issuer: provider.issuer },
          provisioning: { userIdScope: 'entry' },
        }).input,
        providers.length,
      );
      gw.gateway.entries.invalidate();
    }
    return provider;
  };
  const signIn = async (gw: TestGateway, id: string) => {
    const page = await gw.browser().open(`${gw.url}/_sso/login/${id}`);
    return { status: page.status, body: page.body };
  };
  const assertSignsIn = async (gw: TestGateway, id: string, why: string) => {
    const page = await signIn(gw, id);
    assert.equal(page.status, 200, `${why}: ${page.body.slice(0, 300)}`);
  };
  const assertRefused = async (gw: TestGateway, id: string, why: string) => {
    const page = await signIn(gw, id);
    assert.equal(page.status, 502, `${why}: ${page.body.slice(0, 300)}`);
    assert.match(page.body, /id_token_invalid_signature/, why);
  };

  test('a key rotated under the same kid: the next sign-in succeeds on both instances, and the old key is refused', async () => {
    const provider = await providerFor('rotating');
    for (const gw of [first, second]) await assertSignsIn(gw, 'rotating', 'before the rotation');
    const oldKey = await provider.rotateKey();
    for (const gw of [first, second]) await assertSignsIn(gw, 'rotating', 'after the rotation');
    assert.equal(provider.keySetFetches, 4, 'each instance fetched the key set once more');
    provider.idToken = (context) => signIdToken(context, {}, { key: oldKey });
    for (const gw of [first, second]) await assertRefused(gw, 'rotating', 'the rotated-out key');
  });

  test('a logout token signed with a key rotated under the same kid is verified; one signed with the old key is not', async () => {
    const provider = await providerFor('logout-rotating');
    await assertSignsIn(second, 'logout-rotating', 'fills the key set in memory');
    const oldKey = await provider.rotateKey();
    const logoutToken = (key: Parameters<SignJWT['sign']>[0]) =>
      new SignJWT({
        iss: provider.issuer,
        aud: provider.clientId,
        sub: 'alice',
        jti: randomUUID(),
        events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
      })
        .setProtectedHeader({ alg: 'ES256', kid: 'forge-1', typ: 'logout+jwt' })
        .setIssuedAt(Math.floor(now / 1000))
        .sign(key);
    const post = async (token: string) =>
      (
        await fetch(`${second.url}/_sso/backchannel-logout/logout-rotating`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ logout_token: token }).toString(),
        })
      ).status;
    assert.equal(await post(await logoutToken(provider.currentKey())), 200, 'the new key');
    assert.equal(await post(await logoutToken(oldKey)), 400, 'the rotated-out key');
  });

  test("a key the provider stopped publishing is refused once the copy is older than the answer's max-age", async () => {
    const provider = await providerFor('aging');
    provider.keySetCacheControl = 'public, max-age=300';
    provider.idToken = (context) =>
      signIdToken(context, {}, { key: context.publishedEdKey, kid: 'forge-ed', alg: 'EdDSA' });
    await assertSignsIn(first, 'aging', 'while published');
    const fetches = provider.keySetFetches;
    provider.unpublish('forge-ed');
    now += 299_000;
    await assertSignsIn(first, 'aging', 'within the max-age, the copy holds the key');
    assert.equal(provider.keySetFetches, fetches, 'not fetched within the max-age');
    now += 2_000;
    await assertRefused(first, 'aging', 'past the max-age');
    assert.ok(provider.keySetFetches > fetches, 'fetched again past the max-age');
  });

  test('a max-age below a minute counts as a minute; none counts as the documented default', async () => {
    const short = await providerFor('short');
    short.keySetCacheControl = 'max-age=5';
    const unmarked = await providerFor('unmarked');
    await assertSignsIn(first, 'short', 'first sign-in');
    await assertSignsIn(first, 'unmarked', 'first sign-in');
    const fetched = [short.keySetFetches, unmarked.keySetFetches];
    now += 30_000;
    await assertSignsIn(first, 'short', 'half a minute later');
    assert.equal(short.keySetFetches, fetched[0], 'max-age=5 kept for the least lifetime');
    now += 31_000;
    await assertSignsIn(first, 'short', 'past a minute');
    assert.equal(short.keySetFetches, (fetched[0] ?? 0) + 1, 'fetched again past a minute');
    await assertSignsIn(first, 'unmarked', 'past a minute');
    assert.equal(unmarked.keySetFetches, fetched[1], 'no Cache-Control: kept longer');
    now += keySetDefaultLifetimeMs;
    await assertSignsIn(first, 'unmarked', 'past the default lifetime');
    assert.equal(unmarked.keySetFetches, (fetched[1] ?? 0) + 1, 'fetched again past the default');
  });

  test('bad signatures under a known kid fetch the key set again at most once a minute', async () => {
    const provider = await providerFor('flood');
    await assertSignsIn(first, 'flood', 'first sign-in');
    const fetches = provider.keySetFetches;
    provider.idToken = (context) => signIdToken(context, {}, { key: context.unpublishedKey });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await assertRefused(first, 'flood', `forged token ${attempt}`);
    }
    assert.equal(provider.keySetFetches, fetches + 1, 'one fetch for five forged tokens');
    now += 61_000;
    await assertRefused(first, 'flood', 'a minute later');
    assert.equal(provider.keySetFetches, fetches + 2, 'one more after the minute');
  });

  test('the lifetime read from Cache-Control: max-age less Age, within a minute and a day', () => {
    const cases: [Record<string, string>, number][] = [
      [{}, keySetDefaultLifetimeMs],
      [{ 'cache-control': 'max-age=300' }, 300_000],
      [{ 'cache-control': 'public, max-age=600, must-revalidate' }, 600_000],
      [{ 'cache-control': 'max-age=600', age: '100' }, 500_000],
      [{ 'cache-control': 'max-age=5' }, keySetMinLifetimeMs],
      [{ 'cache-control': 'max-age=0' }, keySetMinLifetimeMs],
      [{ 'cache-control': 'no-store' }, keySetMinLifetimeMs],
      [{ 'cache-control': 'no-cache, max-age=3600' }, keySetMinLifetimeMs],
      [{ 'cache-control': 'max-age=99999999' }, discoveryRefreshMs],
      [{ 'cache-control': 'max-age=soon' }, keySetDefaultLifetimeMs],
      [{ 'cache-control': 'private' }, keySetDefaultLifetimeMs],
    ];
    for (const [headers, expected] of cases) {
      assert.equal(keySetLifetimeMs(headers), expected, JSON.stringify(headers));
    }
  });
});
