import type { FastifyInstance } from 'fastify';
import { featureScope } from '../../foundation/http/feature-scope.js';
import { SsogateError, checkLogoutTokenClaims, isSsogateError } from '../../core/index.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { verifyProviderJwt } from '../../foundation/oidc/verify-jwt.js';
import { endProviderSessions } from './end-sign-ins.js';

/** How old a logout token may be when it arrives. */
const logoutTokenMaxAgeSeconds = 10 * 60;

interface EntryParams {
  readonly id: string;
}

/**
 * POST /_sso/backchannel-logout/{entryId}: OpenID Connect Back-Channel
 * Logout 1.0. The provider posts a signed logout token; once verified
 * (signature, issuer, audience, event, sid or sub, no nonce, a jti never
 * seen), the sessions it names are deleted from storage, which every
 * instance reads, so each refuses them from its next check on. Answers 200
 * when done, 400 with a coded error otherwise (§2.8), never cached.
 * Registered as one encapsulated plugin (foundation/http/feature-scope.ts).
 */
export async function backchannelLogoutRoutes(
  app: FastifyInstance,
  gateway: Gateway,
): Promise<void> {
  await featureScope(app, (scope) => {
    backchannelLogoutRoute(scope, gateway);
  });
}

function backchannelLogoutRoute(app: FastifyInstance, gateway: Gateway): void {
  app.post<{ Params: EntryParams; Body: Record<string, unknown> | undefined }>(
    '/_sso/backchannel-logout/:id',
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const entryId = request.params.id;
      try {
        const ended = await endNamedSessions(gateway, entryId, request.body?.logout_token);
        await audit(gateway, request, {
          kind: 'sign_out',
          outcome: 'success',
          entryId,
          userId: null,
          detail: { channel: 'backchannel', sessionsEnded: ended },
        });
        return await reply.code(200).send();
      } catch (error) {
        const coded = isSsogateError(error)
          ? error
          : new SsogateError('logout_token_invalid', 'the logout token could not be checked');
        request.log.warn({ code: coded.code, entryId }, coded.message);
        return reply.code(400).send({ error: 'invalid_request', code: coded.code });
      }
    },
  );
}

async function endNamedSessions(
  gateway: Gateway,
  entryId: string,
  token: unknown,
): Promise<number> {
  const entry = await gateway.entries.get(entryId);
  const provider = entry === undefined ? undefined : gateway.sources(entry).logoutNotifications;
  if (provider === undefined) {
    throw new SsogateError(
      'logout_token_invalid',
      `entry ${entryId} is not an OpenID Connect entry`,
    );
  }
  if (typeof token !== 'string' || token === '') {
    throw new SsogateError('logout_token_invalid', 'the request carries no single logout_token');
  }
  const claims = await verifyProviderJwt(
    gateway.oidc,
    provider.discovery,
    token,
    'logout_token_invalid',
  );
  const target = checkLogoutTokenClaims(claims, {
    issuer: provider.issuer,
    clientId: provider.clientId,
    now: gateway.clock(),
    clockSkewSeconds: provider.clockSkewSeconds,
    maxAgeSeconds: logoutTokenMaxAgeSeconds,
  });
  const store = gateway.storage.upstreamSessions;
  const fresh = await store.useOnce(
    sha256Base64url(`logout-jti:${provider.issuer}:${target.jti}`),
    target.rememberUntil * 1000,
  );
  if (!fresh) throw new SsogateError('logout_token_invalid', 'this logout token was used already');
  const hashes = await store.sessionsOf(entryId, { sid: target.sid, subject: target.subject });
  await endProviderSessions(gateway, hashes);
  return hashes.length;
}
