import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CryptoKey, JWK } from 'jose';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { authorize } from './authorize.js';
import { bearerUser } from './bearer.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { tokenLifetimeSeconds } from './defaults.js';
import { answerFault } from './fault-gate.js';
import type { OidcProfile } from './oidc-profiles.js';
import { emulatedTenant, oidcProfiles } from './oidc-profiles.js';
import { basicCredentials } from './standard-style.js';

/** The signing key, made at its first use: most runs of the server never sign. */
function lazySigningKey(): () => Promise<{ readonly key: CryptoKey; readonly jwk: JWK }> {
  let made: Promise<{ readonly key: CryptoKey; readonly jwk: JWK }> | undefined;
  return () => {
    made ??= (async () => {
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
      const jwk = {
        ...(await exportJWK(publicKey)),
        kid: 'example-rs256',
        alg: 'RS256',
        use: 'sig',
      };
      return { key: privateKey, jwk };
    })();
    return made;
  };
}

/** The server's own URL as the browser and the gateway reach it. */
function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * OpenID Providers (OpenID Connect Core 1.0, Discovery 1.0), one per profile
 * of oidc-profiles.ts, all signing RS256 id_tokens with one key: the
 * discovery document at the issuer, the authorization endpoint (with the
 * nonce kept beside the code), a token endpoint taking HTTP Basic or body
 * credentials, the keys, and user info with a Bearer token. A code it does
 * not know is refused in the provider's own words (`invalid_grant`).
 */
export function registerOidcStyles(app: FastifyInstance, context: RouteContext): void {
  const signingKey = lazySigningKey();
  for (const profile of oidcProfiles) registerProfile(app, context, profile, signingKey);
}

function registerProfile(
  app: FastifyInstance,
  context: RouteContext,
  profile: OidcProfile,
  signingKey: ReturnType<typeof lazySigningKey>,
): void {
  const issuerOf = (request: FastifyRequest) => `${origin(request)}${profile.issuerPath}`;
  const discoveryPath = `${profile.issuerPath.replace(/\/+$/, '')}/.well-known/openid-configuration`;

  app.get(discoveryPath, (request, reply) => {
    const base = origin(request);
    return reply.send({
      issuer: issuerOf(request),
      authorization_endpoint: `${base}${profile.authorizePath}`,
      token_endpoint: `${base}${profile.tokenPath}`,
      userinfo_endpoint: `${base}${profile.userInfoPath}`,
      jwks_uri: `${base}${profile.jwksPath}`,
      ...(profile.endSessionPath === undefined
        ? {}
        : { end_session_endpoint: `${base}${profile.endSessionPath}` }),
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      ...(profile.issParameter === true
        ? { authorization_response_iss_parameter_supported: true }
        : {}),
    });
  });

  app.get(profile.jwksPath, async (_request, reply) =>
    reply.send({ keys: [(await signingKey()).jwk] }),
  );

  app.get(profile.authorizePath, async (request, reply) => {
    await authorize(request, reply, context, {
      clientParameter: 'client_id',
      standard: true,
      ...(profile.issParameter === true ? { issuer: issuerOf(request) } : {}),
    });
    return reply;
  });

  app.post(profile.tokenPath, async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    reply.header('cache-control', 'no-store');
    const [clientId, secret] = basicCredentials(request) ?? [
      field(request.body, 'client_id'),
      field(request.body, 'client_secret'),
    ];
    if (!context.state.authenticateClient(clientId, secret) || clientId === undefined) {
      return reply.code(401).send({ error: 'invalid_client' });
    }
    if (field(request.body, 'grant_type') !== 'authorization_code') {
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    }
    const check = context.state.redeemCode(
      field(request.body, 'code'),
      clientId,
      field(request.body, 'redirect_uri'),
      field(request.body, 'code_verifier'),
    );
    if (!check.ok) return refuseGrant(reply, profile);
    const now = Math.floor(Date.now() / 1000);
    const { key } = await signingKey();
    const idToken = await new SignJWT({
      ...profile.idTokenClaims(check.user, clientId, emulatedTenant),
      ...(check.nonce === undefined ? {} : { nonce: check.nonce }),
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'example-rs256', typ: 'JWT' })
      .setIssuer(issuerOf(request))
      .setAudience(clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    return reply.send({
      access_token: context.state.issueToken(clientId, check.user),
      token_type: 'Bearer',
      expires_in: tokenLifetimeSeconds,
      id_token: idToken,
      scope: 'openid profile email',
    });
  });

  app.get(profile.userInfoPath, async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const issued = bearerUser(request, context);
    if (issued === undefined) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer error="invalid_token"')
        .send({ error: 'invalid_token' });
    }
    return reply.send(profile.userInfo(issued.user, issued.appid));
  });
}

function refuseGrant(reply: FastifyReply, profile: OidcProfile): FastifyReply {
  return reply.code(profile.invalidGrant.status).send(profile.invalidGrant.body);
}
