import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import { sessionHash } from '../sessions/session-service.js';
import { base32Decode, totpCode } from '../second-factor/totp.js';
import {
  authorizationRequest,
  discoverProvider,
  followTo,
  redirectUri,
  registerClient,
  startProviderGateway,
} from './test-support/provider-fixture.js';

const multiFactor = 'http://schemas.openid.net/pape/policies/2007/06/multi-factor';
const phishingResistant = 'http://schemas.openid.net/pape/policies/2007/06/phishing-resistant';

/** A hidden field's value in a page. */
function field(body: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1];
  assert.ok(value !== undefined, `the page has a ${name} field`);
  return value.replaceAll('&amp;', '&');
}

/** The essential acr of the id_token, as the `claims` parameter asks for it (Core §5.5.1). */
function essentialAcr(...values: string[]): string {
  return JSON.stringify({ id_token: { acr: { essential: true, values } } });
}

/**
 * The gateway's OpenID Provider and `acr` (docs/openid-provider.md#assurance-acr),
 * driven by a relying party nobody here wrote (npm's openid-client): an acr
 * the session's second factor does not satisfy sends the browser to the
 * factor page, which enrols a first authenticator or asks for a code, and
 * back to finish the authorization request; the id_token states the acr
 * met, as `amr` does the methods.
 */
describe('OpenID Provider: acr and the second factor', () => {
  let gw: TestGateway;
  // The test's clock: codes are computed for it, and moved on between uses;
  // behind the relying party's, which checks the id_tokens by its own.
  let now = Date.now() - 10 * 60_000;
  let config: client.Configuration;
  before(async () => {
    gw = await startProviderGateway({ clock: () => now, usernames: ['alice', 'bob', 'carol'] });
    await registerClient(gw, 'app', { refreshTokens: true });
    await registerClient(gw, 'asks', { consent: true });
    config = await discoverProvider(gw.url, 'app');
  });
  after(() => gw.close());

  /** A browser signed in at the gateway as `username`, through the entry: no factor yet. */
  async function signedIn(username: string): Promise<TestBrowser> {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, username);
    const { arrived } = await followTo(browser, (await authorizationRequest(config)).url.href);
    assert.ok(arrived?.searchParams.has('code'), 'signed in, a code for a request without acr');
    return browser;
  }

  /** The authorization request's start: where the gateway sends the browser first. */
  async function start(browser: TestBrowser, extra: Record<string, string>) {
    const request = await authorizationRequest(config, extra);
    const first = await browser.exchange('GET', request.url.href);
    await first.arrayBuffer();
    return { ...request, location: new URL(first.headers.get('location') ?? '', gw.url) };
  }

  /** The client's redirect, followed from `path` on the gateway, exchanged for the tokens. */
  async function finish(
    browser: TestBrowser,
    path: string,
    request: { verifier: string; state: string; nonce: string },
  ) {
    const url = new URL(path, gw.url);
    const arrived = url.href.startsWith(redirectUri)
      ? url
      : (await followTo(browser, url.href)).arrived;
    assert.ok(arrived !== undefined, 'the browser comes back to the client');
    return client.authorizationCodeGrant(config, arrived, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
  }

  /** The error the client was sent back with, for the request started with `extra`. */
  async function refusal(browser: TestBrowser, extra: Record<string, string>) {
    const request = await authorizationRequest(config, extra);
    const { arrived } = await followTo(browser, request.url.href);
    assert.equal(arrived?.searchParams.get('state'), request.state);
    return arrived.searchParams.get('error');
  }

  /** Enrols a first authenticator on the factor page at `factorUrl`; its key, and where it goes back to. */
  async function enrolOnFactorPage(browser: TestBrowser, factorUrl: URL) {
    const page = await browser.open(factorUrl.href);
    assert.equal(page.status, 200);
    const key = /id="factor-secret">([A-Z2-7]+)</.exec(page.body)?.[1] ?? '';
    const secret = base32Decode(key);
    assert.ok(secret !== undefined, 'the enrolment page shows the key');
    const returnTo = field(page.body, 'return_to');
    const saved = await browser.submit(`${gw.url}/_sso/factor/enrol`, {
      csrf: field(page.body, 'csrf'),
      return_to: returnTo,
      enrolment: field(page.body, 'enrolment'),
      name: 'Phone',
      code: totpCode(secret, now),
    });
    assert.equal(saved.status, 200, 'the recovery codes, then on');
    return { secret, returnTo };
  }

  /** Gives a code on the factor page at `factorUrl`; where its 303 sends the browser. */
  async function codeOnFactorPage(browser: TestBrowser, factorUrl: URL, secret: Uint8Array) {
    now += 31_000;
    const page = await browser.open(`${factorUrl.href}&method=code`);
    assert.equal(page.status, 200);
    const posted = await browser.exchange('POST', `${gw.url}/_sso/factor`, {
      csrf: field(page.body, 'csrf'),
      return_to: field(page.body, 'return_to'),
      code: totpCode(secret, now),
    });
    await posted.arrayBuffer();
    assert.equal(posted.status, 303);
    return posted.headers.get('location') ?? '';
  }

  async function recordFactor(browser: TestBrowser, userId: string, method: string) {
    const id = browser.cookies(gw.url).get('ssogate_session') ?? '';
    const user = await gw.storage.users.findByUserId(userId);
    assert.ok(user !== undefined);
    await gw.storage.sessions.recordFactor(
      { idHash: sessionHash(id), userRowId: user.id },
      { method, at: now },
    );
  }

  test('discovery lists the acr values, the acr claim and the claims parameter', () => {
    const metadata = config.serverMetadata();
    assert.deepEqual(metadata.acr_values_supported, [multiFactor, phishingResistant]);
    assert.equal(metadata.claims_parameter_supported, true);
    assert.ok(metadata.claims_supported?.includes('acr'));
  });

  test('multi-factor asked of a sign-in without a factor: enrolled on the factor page, then the code', async () => {
    const browser = await signedIn('alice');
    // prompt=none cannot be sent to the factor page (Core §3.1.2.6).
    assert.equal(
      await refusal(browser, { acr_values: multiFactor, prompt: 'none' }),
      'interaction_required',
    );
    await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'oidc_code', outcome: 'failure' },
      (event) => [event.code, event.userId].join() === 'provider_interaction_required_factor,alice',
    );

    const request = await start(browser, { acr_values: `urn:unknown ${multiFactor}` });
    assert.equal(request.location.pathname, '/_sso/factor');
    const { secret, returnTo } = await enrolOnFactorPage(browser, request.location);
    assert.ok(returnTo.startsWith('/_sso/oidc/authorize?'), returnTo);
    assert.ok(new URLSearchParams(returnTo.split('?')[1]).has('ssogate_factor_after'));
    const tokens = await finish(browser, returnTo, request);
    const claims = tokens.claims();
    assert.equal(claims?.acr, multiFactor);
    assert.deepEqual(claims.amr, ['otp', 'mfa']);
    assert.equal(claims.ssogate_factor_time, Math.floor(now / 1000));

    // The grant keeps what was asked for: a refreshed id_token states the same.
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
    assert.equal(refreshed.claims()?.acr, multiFactor);

    // Held now: prompt=none is answered, and so is a request without acr_values, which states it too.
    const silent = await start(browser, { acr_values: multiFactor, prompt: 'none' });
    assert.equal(silent.location.origin, new URL(redirectUri).origin);
    assert.equal((await finish(browser, silent.location.href, silent)).claims()?.acr, multiFactor);

    // A new sign-in holds no factor: the page asks for a code this time, and the request comes back.
    const again = await signedIn('alice');
    const next = await start(again, { acr_values: multiFactor });
    assert.equal(next.location.pathname, '/_sso/factor');
    const back = await codeOnFactorPage(again, next.location, secret);
    assert.ok(back.startsWith('/_sso/oidc/authorize?'), back);
    const stepped = (await finish(again, back, next)).claims();
    assert.deepEqual([stepped?.acr, stepped?.amr], [multiFactor, ['otp', 'mfa']]);
  });

  test('values the gateway does not know are ignored, unless essential', async () => {
    const browser = await signedIn('bob');
    const request = await start(browser, { acr_values: 'urn:example:loa:3 urn:example:loa:2' });
    assert.equal(request.location.origin, new URL(redirectUri).origin, 'no factor page');
    const claims = (await finish(browser, request.location.href, request)).claims();
    assert.ok(claims !== undefined);
    assert.equal(claims.acr, undefined, 'one factor: no acr');
    assert.equal(claims.amr, undefined, "an entry's sign-in alone: its provider's methods, unsaid");

    // Core §5.5.1.1: an essential acr that cannot be satisfied fails the authentication.
    assert.equal(
      await refusal(browser, { claims: essentialAcr('urn:example:loa:3') }),
      'access_denied',
    );
    await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'oidc_code', outcome: 'failure' },
      (event) => [event.code, event.userId].join() === 'provider_acr_unsupported,',
    );
    for (const claims of ['not json', '[]', '{"id_token":{"acr":{"essential":"yes"}}}']) {
      assert.equal(await refusal(browser, { claims }), 'invalid_request', claims);
    }
    // Other members of `claims` are voluntary claims, answered as ever.
    const voluntary = await start(browser, { claims: '{"userinfo":{"email":null}}' });
    assert.equal(voluntary.location.origin, new URL(redirectUri).origin);
  });

  test('phishing-resistant: a passkey meets it; a code meets only multi-factor', async () => {
    const browser = await signedIn('carol');
    // Essential, from a sign-in without a factor: enrolled with a code, which does not meet it.
    const request = await start(browser, { claims: essentialAcr(phishingResistant) });
    assert.equal(request.location.pathname, '/_sso/factor');
    const { secret, returnTo } = await enrolOnFactorPage(browser, request.location);
    const { arrived } = await followTo(browser, new URL(returnTo, gw.url).href);
    assert.equal(arrived?.searchParams.get('error'), 'access_denied');
    await waitForAuditEvent(
      gw.storage.audit,
      { kind: 'oidc_code', outcome: 'failure' },
      (event) => [event.code, event.userId].join() === 'provider_acr_unmet,carol',
    );

    // Voluntary: the factor page once more, then the code, with what was met.
    const voluntary = await start(browser, { acr_values: phishingResistant });
    assert.equal(voluntary.location.pathname, '/_sso/factor');
    const back = await codeOnFactorPage(browser, voluntary.location, secret);
    assert.equal((await finish(browser, back, voluntary)).claims()?.acr, multiFactor);

    // A passkey (its ceremony has its own tests): either value, the first asked for that it meets.
    await recordFactor(browser, 'carol', 'webauthn');
    const strong = await start(browser, { claims: essentialAcr(phishingResistant) });
    const claims = (await finish(browser, strong.location.href, strong)).claims();
    assert.deepEqual([claims?.acr, claims?.amr], [phishingResistant, ['hwk', 'mfa']]);
    const either = await start(browser, { acr_values: `${multiFactor} ${phishingResistant}` });
    assert.equal((await finish(browser, either.location.href, either)).claims()?.acr, multiFactor);
  });

  test('the consent page comes after the factor; posted once the factor meets less, the request starts again', async () => {
    const browser = await signedIn('alice');
    await recordFactor(browser, 'alice', 'webauthn');
    const asks = await discoverProvider(gw.url, 'asks');
    const request = await authorizationRequest(asks, { claims: essentialAcr(phishingResistant) });
    const page = await followTo(browser, request.url.href);
    const token = /name="consent" value="([^"]+)"/.exec(page.body)?.[1];
    assert.ok(token !== undefined, 'the consent page, the factor held');
    // A code given meanwhile, in another tab: the sign-in holds less than was asked for.
    await recordFactor(browser, 'alice', 'totp');
    const posted = await browser.exchange('POST', `${gw.url}/_sso/oidc/consent`, {
      consent: token,
      decision: 'allow',
    });
    await posted.arrayBuffer();
    assert.equal(posted.status, 303);
    const again = new URL(posted.headers.get('location') ?? '', gw.url);
    assert.equal(again.pathname, '/_sso/oidc/authorize');
    const { visited } = await followTo(browser, again.href);
    assert.equal(new URL(visited.at(-1) ?? '').pathname, '/_sso/factor', 'the factor page again');
  });

  test('max_age: a factor older than it is asked for again, after a fresh sign-in', async () => {
    const browser = await signedIn('bob');
    await recordFactor(browser, 'bob', 'totp');
    const held = await start(browser, { acr_values: multiFactor, max_age: '600' });
    assert.equal(held.location.origin, new URL(redirectUri).origin);
    now += 11 * 60_000;
    // Past max_age: the sign-in first, whose new session holds no factor yet.
    const stale = await start(browser, { acr_values: multiFactor, max_age: '600' });
    assert.notEqual(stale.location.pathname, '/_sso/factor');
    const { visited, status } = await followTo(browser, stale.location.href);
    assert.equal(status, 200);
    assert.equal(new URL(visited.at(-1) ?? '').pathname, '/_sso/factor');
  });
});
