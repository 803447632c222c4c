import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as client from 'openid-client';
import { buildApp } from '../../../app/build-app.js';
import { createGateway } from '../../../app/create-gateway.js';
import { openStorage } from '../../../app/open-storage.js';
import { sha256Base64url } from '../../../foundation/crypto/hash.js';
import type { GatewayStorage } from '../../../app/open-storage.js';
import type { OidcClientRecord } from '../storage/types.js';
import type { TestBrowser } from '../../../test-support/browser.js';
import type { TestGateway } from '../../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../../test-support/gateway-fixture.js';
import { capturingLogger } from '../../../test-support/log-capture.js';
import { testBackendName } from '../../../test-support/test-backend.js';

/** The client secret of every confidential test client. */
export const clientSecret = 'ssgc_test-secret-0123456789abcdefghijklmnopqrstu';

/** A relying party's callback on loopback: nothing listens there; the browser stops before it. */
export const redirectUri = 'http://127.0.0.1:9/callback';

/** A gateway whose default entry signs in at the example server in its `errcode` envelope style. */
export async function startProviderGateway(
  options: {
    clock?: () => number;
    env?: Record<string, string>;
    usernames?: readonly string[];
    wrapStorage?: (storage: GatewayStorage) => GatewayStorage;
  } = {},
): Promise<TestGateway> {
  return startTestGateway({
    entries: (presets) => [{ ...presets.jsonStyle, id: 'corp', isDefault: true }],
    usernames: ['alice', 'bob'],
    ...options,
  });
}

/**
 * A provider gateway whose database a second one (secondGateway) can open
 * too: on SQLite a file rather than memory. `close` removes the file.
 */
export async function startSharedProviderGateway(): Promise<TestGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-op-'));
  const env: Record<string, string> = testBackendName().startsWith('sqlite')
    ? { SSOGATE_DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}` }
    : {};
  const gw = await startProviderGateway({ env });
  return {
    ...gw,
    browser: () => gw.browser(),
    async close() {
      await gw.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A POST to the token endpoint of the gateway at `gatewayUrl` (any instance),
 * the client authenticating with HTTP Basic, the test secret unless given.
 */
export function tokenRequest(
  gatewayUrl: string,
  clientId: string,
  fields: Record<string, string>,
  secret = clientSecret,
): Promise<Response> {
  return fetch(`${gatewayUrl}/_sso/oidc/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Registers a client straight in storage (the admin API has its own tests). */
export async function registerClient(
  gw: TestGateway,
  clientId: string,
  settings: Partial<OidcClientRecord> = {},
): Promise<OidcClientRecord> {
  const client = testClient(clientId, settings);
  await gw.storage.providerClients.create(client);
  return client;
}

/** A confidential client with the test secret, redirected to `redirectUri`. */
export function testClient(
  clientId: string,
  settings: Partial<OidcClientRecord> = {},
): OidcClientRecord {
  return {
    clientId,
    secretHash: sha256Base64url(clientSecret),
    name: clientId,
    redirectUris: [redirectUri],
    postLogoutRedirectUris: ['http://127.0.0.1:9/signed-out'],
    backchannelLogoutUri: null,
    frontchannelLogoutUri: null,
    frontchannelLogoutSessionRequired: false,
    allowedEntries: [],
    allowedUsers: [],
    allowedGroups: [],
    refreshTokens: false,
    subjectType: 'public',
    consent: false,
    createdAt: 0,
    updatedAt: 0,
    ...settings,
  };
}

/** A request to the token endpoint, the client authenticated with HTTP Basic. */
export function postToTokenEndpoint(
  gw: TestGateway,
  fields: Record<string, string>,
  clientId = 'app',
  secret = clientSecret,
): Promise<Response> {
  return tokenRequest(gw.url, clientId, fields, secret);
}

/**
 * Follows the browser from an authorization URL through the gateway (and
 * its sign-in) until it is sent to `target`; resolves that URL, or the
 * last answer when it stops elsewhere.
 */
export async function followTo(
  browser: TestBrowser,
  url: string,
  target = redirectUri,
): Promise<{ arrived?: URL; status: number; body: string; visited: string[] }> {
  let current = url;
  const visited: string[] = [];
  for (let hop = 0; hop < 12; hop++) {
    visited.push(current);
    const response = await browser.exchange('GET', current);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || location === null) {
      return { status: response.status, body: await response.text(), visited };
    }
    await response.arrayBuffer();
    const next = new URL(location, current);
    if (next.href.startsWith(target)) {
      return { arrived: next, status: response.status, body: '', visited };
    }
    current = next.href;
  }
  throw new Error(`more than 12 redirects from ${url}`);
}

/**
 * A relying party (npm's openid-client) that found the gateway at `issuer`
 * through its discovery; a confidential client with the test secret unless
 * `auth` says otherwise.
 */
export function discoverProvider(
  issuer: string,
  clientId: string,
  auth: client.ClientAuth = client.ClientSecretBasic(clientSecret),
): Promise<client.Configuration> {
  return client.discovery(new URL(issuer), clientId, undefined, auth, {
    // The gateway of a test listens on plain HTTP on loopback.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- only for a loopback test
    execute: [client.allowInsecureRequests],
  });
}

/** The relying party's authorization request with PKCE, state and nonce (and `extra` parameters). */
export async function authorizationRequest(
  config: client.Configuration,
  extra: Record<string, string> = {},
): Promise<{ url: URL; verifier: string; state: string; nonce: string }> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}

/**
 * The relying party's sign-in: an authorization request with PKCE, state
 * and nonce (and `extra` parameters), the browser followed through the
 * gateway back to `redirectUri`, and the code exchanged, the id_token
 * checked by openid-client.
 */
export async function codeFlow(
  config: client.Configuration,
  browser: TestBrowser,
  extra: Record<string, string> = {},
): Promise<{
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  nonce: string;
  visited: string[];
}> {
  const { url, verifier, state, nonce } = await authorizationRequest(config, extra);
  const { arrived, visited } = await followTo(browser, url.href);
  assert.ok(arrived !== undefined, 'the browser comes back to the client');
  const tokens = await client.authorizationCodeGrant(config, arrived, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
  return { tokens, nonce, visited };
}

/** A second gateway over the first one's database (and Redis) and configuration, on a port of its own. */
export async function secondGateway(
  first: TestGateway,
): Promise<{ url: string; close: () => Promise<void> }> {
  const storage = await openStorage(first.gateway.config);
  const app = await buildApp(createGateway(first.gateway.config, storage), {
    logger: capturingLogger().logger,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await storage.close();
    },
  };
}

/** The status the userinfo endpoint of the gateway at `gatewayUrl` answers an access token. */
export async function userinfoStatus(gatewayUrl: string, accessToken: string): Promise<number> {
  const response = await fetch(`${gatewayUrl}/_sso/oidc/userinfo`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  await response.arrayBuffer();
  return response.status;
}

/** A token endpoint's answer: its status and JSON body. */
export interface TokenAnswer {
  readonly status: number;
  readonly body: Record<string, string>;
}

/**
 * `count` token requests of the same grant at once (Promise.all), each on a
 * connection of its own as `fetch` opens them; `answered` is told of each
 * answer as it arrives.
 */
export function tokenRequestsAtOnce(
  gatewayUrl: string,
  clientId: string,
  fields: Record<string, string>,
  count: number,
  answered: () => void = () => {},
): Promise<TokenAnswer[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const response = await tokenRequest(gatewayUrl, clientId, fields);
      answered();
      return { status: response.status, body: (await response.json()) as Record<string, string> };
    }),
  );
}

/**
 * What the race of tokenRequestsAtOnce left: at most one answer issued
 * tokens, the others are invalid_grant; the replays among them revoked the
 * grant (RFC 9700 §4.14.2), so what was issued is dead at once, and the
 * access tokens issued `before` too. Presented again later, by the real
 * client, the grant is refused and stays revoked.
 */
export async function assertRaceLeftNothing(
  gatewayUrl: string,
  clientId: string,
  fields: Record<string, string>,
  answers: readonly TokenAnswer[],
  before: readonly string[],
): Promise<void> {
  const issued = answers.filter((answer) => answer.status === 200);
  assert.ok(issued.length <= 1, JSON.stringify(answers));
  for (const answer of answers.filter((each) => each.status !== 200)) {
    assert.equal(answer.body.error, 'invalid_grant', JSON.stringify(answer));
  }
  const assertDead = async () => {
    for (const { body } of issued) {
      const next = await tokenRequest(gatewayUrl, clientId, {
        grant_type: 'refresh_token',
        refresh_token: body.refresh_token ?? '',
      });
      assert.equal(next.status, 400, 'the chain the race started is dead');
      assert.equal(((await next.json()) as { error: string }).error, 'invalid_grant');
      assert.equal(await userinfoStatus(gatewayUrl, body.access_token ?? ''), 401);
    }
    for (const accessToken of before) {
      assert.equal(await userinfoStatus(gatewayUrl, accessToken), 401);
    }
  };
  await assertDead();
  const again = await tokenRequest(gatewayUrl, clientId, fields);
  assert.equal(again.status, 400);
  assert.equal(((await again.json()) as { error: string }).error, 'invalid_grant');
  await assertDead();
}

/** The client `app`'s plainest authorization request (code, scope openid) at the gateway at `gatewayUrl`. */
export function plainAuthorizeUrl(gatewayUrl: string): string {
  const authorize = new URL(`${gatewayUrl}/_sso/oidc/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: 'app',
    redirect_uri: redirectUri,
    scope: 'openid',
  }).toString();
  return authorize.href;
}

/** An id_token for alice of the client `app`, through the authorization and token endpoints. */
export async function idTokenOfAlice(gw: TestGateway): Promise<string> {
  const browser = gw.browser();
  await signInAtExample(browser, gw.example.url);
  const { arrived } = await followTo(browser, plainAuthorizeUrl(gw.url));
  const code = arrived?.searchParams.get('code');
  assert.ok(typeof code === 'string', 'a code comes back');
  const response = await postToTokenEndpoint(gw, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
  });
  assert.equal(response.status, 200);
  return ((await response.json()) as { id_token: string }).id_token;
}
