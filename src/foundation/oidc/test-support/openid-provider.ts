import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import type { TestBrowser } from '../../../test-support/browser.js';

/**
 * A real OpenID Provider on loopback (npm's oidc-provider) with its own login
 * and consent pages, for end-to-end tests of OpenID Connect entries. Accounts
 * can be disabled while the provider runs: a disabled account is unknown to
 * it, so its refresh tokens and user-info calls are refused. The `groups`
 * scope adds a `groups` claim: alice is in staff and sso-admins, anyone else
 * in staff alone.
 */
export interface OpenIdProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The account becomes unknown to the provider: refresh and user-info calls are refused. */
  disable(accountId: string): void;
  enable(accountId: string): void;
  close(): Promise<void>;
}

export interface OpenIdProviderOptions {
  /** The gateway's public URL: the client's redirect and logout URIs are under it. */
  readonly gatewayUrl: string;
  readonly entryId: string;
  /** Register the gateway's back-channel logout URI with the client. */
  readonly backchannelLogout?: boolean;
  /** Accounts that can sign in (any password); default alice and bob. */
  readonly accounts?: readonly string[];
}

export async function startOpenIdProvider(options: OpenIdProviderOptions): Promise<OpenIdProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    kid: 'test-rs256',
    alg: 'RS256',
    use: 'sig',
  };
  const known = new Set(options.accounts ?? ['alice', 'bob']);
  const disabled = new Set<string>();
  const clientId = 'ssogate';
  const clientSecret = 'provider-client-secret-0123456789';
  const callback = `${options.gatewayUrl}/_sso/callback/${options.entryId}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [callback],
        post_logout_redirect_uris: [`${options.gatewayUrl}/_sso/signed-out`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        ...(options.backchannelLogout === true
          ? {
              backchannel_logout_uri: `${options.gatewayUrl}/_sso/backchannel-logout/${options.entryId}`,
              backchannel_logout_session_required: true,
            }
          : {}),
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: ['provider-cookie-key-0123456789abcdef'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      groups: ['groups'],
    },
    scopes: ['openid', 'offline_access', 'email', 'profile', 'groups'],
    // The scopes' claims go into the id_token as well as the user-info
    // answer, as many providers send them, so that entries reading the
    // verified claims alone (`userInfo: claims`) have them too.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      backchannelLogout: { enabled: true },
    },
    pkce: { required: () => false },
    // The provider's outbound calls (back-channel logout notices) refuse
    // loopback addresses by default; here the gateway is on loopback.
    fetch: (url: string, init: RequestInit & { dispatcher?: unknown }) => {
      delete init.dispatcher;
      return fetch(url, init);
    },
    // Refresh tokens for every sign-in that asks offline_access, consent or not.
    issueRefreshToken: (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    findAccount: (_ctx, id) =>
      known.has(id) && !disabled.has(id)
        ? {
            accountId: id,
            claims: () => ({
              sub: id,
              name: `${id.charAt(0).toUpperCase()}${id.slice(1)} Provider`,
              email: `${id}@provider.test`,
              email_verified: true,
              groups: id === 'alice' ? ['staff', 'sso-admins'] : ['staff'],
            }),
          }
        : undefined,
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    disable(id) {
      disabled.add(id);
    },
    enable(id) {
      disabled.delete(id);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
      }),
  };
}

/**
 * Answers the provider's own login and consent pages as a person would: the
 * page the gateway sent the browser to, posted form by form until the
 * provider sends the browser back to the gateway.
 */
export async function signInAtProvider(
  browser: TestBrowser,
  start: string,
  login = 'alice',
): Promise<Awaited<ReturnType<TestBrowser['open']>>> {
  let page = await browser.open(start);
  for (let forms = 0; forms < 4; forms += 1) {
    const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
    if (action === undefined || !page.url.startsWith(new URL(page.url).origin)) return page;
    if (!/\/interaction\//.test(action)) return page;
    const target = new URL(action.replaceAll('&amp;', '&'), page.url).toString();
    const fields: Record<string, string> = /name="login"/.test(page.body)
      ? { login, password: 'any' }
      : {};
    for (const [, name, value] of page.body.matchAll(
      /<input type="hidden" name="([^"]+)" value="([^"]*)"/g,
    )) {
      if (name !== undefined && value !== undefined) fields[name] = value;
    }
    page = await browser.submit(target, fields);
  }
  return page;
}
