import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK, JWTPayload } from 'jose';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** What the next token response's id_token is made of; each test changes it. */
export interface ForgeContext {
  readonly issuer: string;
  readonly clientId: string;
  /** The nonce the last authorization request carried. */
  readonly nonce: string;
  /** The published signing key and one the provider never published. */
  readonly publishedKey: SigningKey;
  readonly unpublishedKey: SigningKey;
  /** A second published key, Ed25519, under the kid `forge-ed` (alg EdDSA, RFC 8037). */
  readonly publishedEdKey: SigningKey;
  readonly now: number;
}

export interface ForgingProvider {
  readonly issuer: string;
  readonly clientId: string;
  /** How many times the key set was fetched. */
  readonly keySetFetches: number;
  /** Fields of the discovery document written over the provider's own. */
  discoveryOverrides: Record<string, string>;
  /** The key set answer's Cache-Control header; none by default. */
  keySetCacheControl: string | undefined;
  /** Replaces the `forge-1` key by a new one under the same kid; returns the old private key. */
  rotateKey(): Promise<SigningKey>;
  /** The private key now published under `forge-1`. */
  currentKey(): SigningKey;
  /** Stops publishing the key with this kid. */
  unpublish(kid: string): void;
  /** The id_token of the next token response; default: a valid one. */
  idToken: (context: ForgeContext) => Promise<string>;
  /** The user-info answer; default: alice's, matching the id_token's sub. */
  userInfo: Record<string, unknown>;
  /** Whether the authorization response carries `iss` (RFC 9207). */
  sendIss: boolean;
  close(): Promise<void>;
}

/** A signed id_token with these claims over the valid defaults. */
export async function signIdToken(
  context: ForgeContext,
  claims: JWTPayload = {},
  options: { key?: SigningKey; kid?: string; alg?: string } = {},
): Promise<string> {
  const seconds = Math.floor(context.now / 1000);
  return new SignJWT({
    iss: context.issuer,
    aud: context.clientId,
    sub: 'alice',
    nonce: context.nonce,
    iat: seconds,
    exp: seconds + 300,
    email: 'alice@forge.test',
    ...claims,
  })
    .setProtectedHeader({ alg: options.alg ?? 'ES256', kid: options.kid ?? 'forge-1' })
    .sign(options.key ?? context.publishedKey);
}

/**
 * A small OpenID Provider on loopback that signs id_tokens with keys of the
 * test's choosing: a valid token, or one forged, expired, for another
 * audience, nonce or issuer. It publishes discovery and a key set like a
 * real one; its authorization endpoint answers at once with a code.
 */
export async function startForgingProvider(
  options: {
    readonly issParameterSupported?: boolean;
    /** The time the tokens' iat and exp count from; default: the real time. */
    readonly clock?: () => number;
  } = {},
): Promise<ForgingProvider> {
  let published = await generateKeyPair('ES256');
  const unpublished = await generateKeyPair('ES256');
  const publishedEd = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const publishedJwk = async (key: typeof published): Promise<JWK> => ({
    ...(await exportJWK(key.publicKey)),
    kid: 'forge-1',
    alg: 'ES256',
    use: 'sig',
  });
  let publicJwks: JWK[] = [
    await publishedJwk(published),
    { ...(await exportJWK(publishedEd.publicKey)), kid: 'forge-ed', alg: 'EdDSA', use: 'sig' },
  ];
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let lastNonce = '';
  let keySetFetches = 0;
  const state: ForgingProvider = {
    issuer,
    clientId: 'forge-client',
    get keySetFetches() {
      return keySetFetches;
    },
    discoveryOverrides: {},
    keySetCacheControl: undefined,
    async rotateKey() {
      const old = published;
      published = await generateKeyPair('ES256');
      const jwk = await publishedJwk(published);
      publicJwks = publicJwks.map((key) => (key.kid === 'forge-1' ? jwk : key));
      return old.privateKey;
    },
    currentKey: () => published.privateKey,
    unpublish(kid) {
      publicJwks = publicJwks.filter((key) => key.kid !== kid);
    },
    idToken: (context) => signIdToken(context),
    userInfo: { sub: 'alice', name: 'Alice Forge' },
    sendIss: true,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
  const json = (response: ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(200, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      json(response, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        authorization_response_iss_parameter_supported: options.issParameterSupported ?? false,
        ...state.discoveryOverrides,
      });
    } else if (url.pathname === '/jwks') {
      keySetFetches += 1;
      json(
        response,
        { keys: publicJwks },
        state.keySetCacheControl === undefined ? {} : { 'cache-control': state.keySetCacheControl },
      );
    } else if (url.pathname === '/authorize') {
      lastNonce = url.searchParams.get('nonce') ?? '';
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', 'forged-code');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      if (state.sendIss) back.searchParams.set('iss', issuer);
      response.writeHead(302, { location: back.toString() });
      response.end();
    } else if (url.pathname === '/token') {
      request.resume();
      request.on('end', () => {
        void state
          .idToken({
            issuer,
            clientId: state.clientId,
            nonce: lastNonce,
            publishedKey: published.privateKey,
            unpublishedKey: unpublished.privateKey,
            publishedEdKey: publishedEd.privateKey,
            now: (options.clock ?? Date.now)(),
          })
          .then((idToken) => {
            json(response, {
              access_token: 'forge-access',
              token_type: 'Bearer',
              id_token: idToken,
            });
          });
      });
    } else if (url.pathname === '/userinfo') {
      json(response, state.userInfo);
    } else {
      response.writeHead(404).end();
    }
  });
  return state;
}
