import type { FastifyInstance } from 'fastify';
import { featureScope } from '../../foundation/http/feature-scope.js';
import { SsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure, sendPage } from '../../foundation/http/respond.js';
import { signedOutPage } from '../../foundation/pages/index.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { endProviderSessions } from './end-sign-ins.js';

interface EntryParams {
  readonly id: string;
}

/**
 * GET /_sso/frontchannel-logout/{entryId}?iss=...&sid=...: OpenID Connect
 * Front-Channel Logout 1.0 §2, the gateway as the relying party of an
 * entry's provider, which loads this URL in an iframe of its sign-out page.
 * In a frame of another site the browser sends no SameSite=Lax cookie, so
 * the session is found by what the provider names: `iss` must be the
 * entry's issuer and `sid` the provider session its id_token carried
 * (§3: the provider must send them); every gateway session of that provider
 * session ends, in storage, for every instance. The page may be framed by
 * the issuer's origin alone (this route's CSP) and is never cached.
 * Registered as one encapsulated plugin (foundation/http/feature-scope.ts).
 */
export async function frontchannelLogoutRoutes(
  app: FastifyInstance,
  gateway: Gateway,
): Promise<void> {
  await featureScope(app, (scope) => {
    frontchannelLogoutRoute(scope, gateway);
  });
}

function frontchannelLogoutRoute(app: FastifyInstance, gateway: Gateway): void {
  app.get<{ Params: EntryParams; Querystring: Record<string, unknown> }>(
    '/_sso/frontchannel-logout/:id',
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const entryId = request.params.id;
      const entry = await gateway.entries.get(entryId);
      const issuer =
        entry === undefined ? undefined : gateway.sources(entry).logoutNotifications?.issuer;
      const { iss, sid } = request.query;
      const refusal =
        issuer === undefined
          ? `entry ${entryId} is not an OpenID Connect entry`
          : iss !== issuer
            ? 'iss is not the entry issuer'
            : typeof sid !== 'string' || sid === ''
              ? 'the request names no single sid'
              : undefined;
      if (refusal !== undefined || typeof sid !== 'string' || issuer === undefined) {
        sendFailure(
          gateway,
          request,
          reply,
          new SsogateError('frontchannel_logout_invalid', refusal ?? 'invalid'),
          { as: 'page' },
        );
        return reply;
      }
      const store = gateway.storage.upstreamSessions;
      const hashes = await store.sessionsOf(entryId, { sid });
      await endProviderSessions(gateway, hashes);
      await audit(gateway, request, {
        kind: 'sign_out',
        outcome: 'success',
        entryId,
        userId: null,
        detail: { channel: 'frontchannel', sessionsEnded: hashes.length },
      });
      // Framed by the provider's sign-out page: its origin may frame this page, no other.
      void reply.header(
        'content-security-policy',
        `default-src 'none'; style-src 'self'; img-src 'self' data:; frame-ancestors ${new URL(issuer).origin}; base-uri 'none'`,
      );
      return sendPage(
        reply,
        200,
        signedOutPage({ scope: 'here', page: pageContext(gateway, request) }),
      );
    },
  );
}
