import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { featureScope } from '../../foundation/http/feature-scope.js';
import { SsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import { takeKeptSession } from './provider-logout.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { clearSessionCookie } from '../../foundation/http/browser-cookies.js';
import { fromAnotherSite } from '../../foundation/http/fetch-metadata.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendFailure, sendPage } from '../../foundation/http/respond.js';
import { signOutPage, signedOutPage } from '../../foundation/pages/index.js';
import type { SignOutScope } from '../../foundation/pages/index.js';
import { sessionIdOf, sessionOf } from './request-session.js';
import { clearConsoleSession, consoleSessionIdOf } from './console-session.js';
import { csrfTokenFor, endSession } from './session-service.js';
import { sendSignedOutWithFrames } from '../../foundation/http/sign-out-frames.js';
import { allowSignOutRedirect, shownUser } from './sign-out-form.js';

/**
 * GET /_sso/logout asks, POST /_sso/logout signs out, GET /_sso/signed-out
 * says so. A GET must change nothing (RFC 9110 §9.2.1): any page can make
 * a browser send one, with an image or a link, so it only shows a form that
 * posts with the session's form token.
 * Registered as one encapsulated plugin (foundation/http/feature-scope.ts).
 */
export async function sessionRoutes(app: FastifyInstance, gateway: Gateway): Promise<void> {
  await featureScope(app, (scope) => {
    signOutRoutes(scope, gateway);
  });
}

function signOutRoutes(app: FastifyInstance, gateway: Gateway): void {
  app.get('/_sso/logout', async (request, reply) => {
    const active = await sessionOf(gateway, request);
    if (active === undefined) {
      return reply.redirect('/_sso/signed-out', 302);
    }
    await allowSignOutRedirect(gateway, reply, active.session.entryId);
    return sendPage(
      reply,
      200,
      signOutPage({
        user: shownUser(active.user),
        signOutCsrf: csrfTokenFor(active.id),
        page: pageContext(gateway, request),
      }),
    );
  });

  // The post signs out: its own scope refuses it, before the route runs,
  // from another site or without the session's form token (signOutFormToken).
  void app.register((scope, _options, done) => {
    scope.addHook('preHandler', signOutFormToken(gateway));
    scope.post<{ Body: SignOutForm | undefined }>('/_sso/logout', async (request, reply) =>
      signOut(gateway, request, reply, signOutScope(request.body?.scope)),
    );
    done();
  });

  // Never redirects to sign-in by itself: that would sign the user straight back in.
  app.get<{ Querystring: { scope?: unknown } }>('/_sso/signed-out', async (request, reply) =>
    sendPage(
      reply,
      200,
      signedOutPage({
        scope: signOutScope(request.query.scope),
        page: pageContext(gateway, request),
      }),
    ),
  );
}

interface SignOutForm {
  readonly csrf?: unknown;
  readonly scope?: unknown;
}

/**
 * The sign-out's CSRF policy: a post from another site, or without the
 * form token of the gateway's or the console's session, is refused with
 * `csrf_failed`; with neither session there is nothing to protect.
 */
function signOutFormToken(gateway: Gateway) {
  return async (
    request: FastifyRequest<{ Body: SignOutForm | undefined }>,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> => {
    const token = request.body?.csrf ?? request.headers['x-csrf-token'];
    // The console's form carries its own session's token (console-session.ts).
    const ids = [sessionIdOf(gateway, request), consoleSessionIdOf(gateway, request)].filter(
      (id) => id !== undefined,
    );
    const refusal = fromAnotherSite(request)
      ? 'the sign-out was posted from another site'
      : ids.length > 0 && !ids.some((id) => token === csrfTokenFor(id))
        ? 'the sign-out form token does not match'
        : undefined;
    if (refusal !== undefined) {
      sendFailure(gateway, request, reply, new SsogateError('csrf_failed', refusal), {
        as: 'page',
        tryAgainHref: '/_sso/logout',
      });
      return reply;
    }
    return undefined;
  };
}

/**
 * "here" ends the gateway's session only; "everywhere" (the default, so a
 * form that posts the token alone keeps its meaning) also tells the server.
 */
function signOutScope(value: unknown): SignOutScope {
  return value === 'here' ? 'here' : 'everywhere';
}

async function signOut(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: SignOutScope,
): Promise<FastifyReply> {
  // 303 after a POST, never 307/308 (RFC 9700 §4.12).
  const status = 303;
  // The pages the sign-in's end adds: its clients' front-channel logout pages.
  const frames: string[] = [];
  const go = (url: string): FastifyReply =>
    frames.length === 0
      ? reply.redirect(url, status)
      : sendSignedOutWithFrames(gateway, reply, {
          scope,
          frames,
          ...(url.startsWith('/_sso/signed-out') ? {} : { continueTo: url }),
        });
  const ended =
    (await endSession(gateway.sessions, sessionIdOf(gateway, request), frames)) ??
    (await endSession(gateway.sessions, consoleSessionIdOf(gateway, request), frames));
  // The console's session is the same sign-in's, ended with it; its cookie goes too.
  clearSessionCookie(gateway, reply);
  clearConsoleSession(gateway, reply);
  if (scope === 'here') {
    // No Clear-Site-Data here: browsers keep cookies per host, not per port,
    // and it would also drop the session of a server on the same host.
    if (ended !== undefined) await auditSignOut(gateway, request, ended, scope);
    return go('/_sso/signed-out?scope=here');
  }
  void reply.header('clear-site-data', '"cookies"');
  if (ended === undefined) return go('/_sso/signed-out');
  await auditSignOut(gateway, request, ended, scope);
  const entry =
    ended.session.entryId === null ? undefined : await gateway.entries.get(ended.session.entryId);
  // Kept beside the sign-in's own session (keep-provider-session.ts): a
  // sign-out from an application host ends that host's session, whose
  // sign-in is the one the provider knows.
  const kept = await takeKeptSession(gateway, ended.session.signInHash ?? ended.session.idHash);
  // The entry's source says how its side ends: an OpenID Provider's
  // end_session_endpoint, a SAML identity provider's SingleLogoutService,
  // the entry's logout URL, or nothing. The gateway's session has ended
  // already, whatever the source answers.
  const logout =
    entry === undefined
      ? undefined
      : await gateway.sources(entry).signOutAtSource({
          publicUrl: gateway.config.publicUrl,
          random: gateway.random,
          documents: gateway.documents,
          idToken: kept === undefined || kept.idToken === '' ? undefined : kept.idToken,
          providerSession: kept,
          now: gateway.clock(),
          expectAnswer: async (key, until) => {
            await gateway.storage.upstreamSessions.useOnce(sha256Base64url(key), until);
          },
        });
  if (logout?.channel === 'front') return go(logout.url);
  if (logout?.channel === 'back') {
    // The secret stays server-side; the sign-out holds even if the server is down.
    try {
      await gateway.send(logout.request);
    } catch (error) {
      request.log.warn(
        { code: 'logout_notification_failed', entryId: ended.session.entryId },
        (error as Error).name,
      );
    }
  }
  return go('/_sso/signed-out');
}

async function auditSignOut(
  gateway: Gateway,
  request: FastifyRequest,
  ended: NonNullable<Awaited<ReturnType<typeof endSession>>>,
  scope: SignOutScope,
): Promise<void> {
  await audit(gateway, request, {
    kind: 'sign_out',
    outcome: 'success',
    entryId: ended.session.entryId,
    userId: ended.user.userId,
    detail: { scope },
  });
}
