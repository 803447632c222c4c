import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { featureScope } from '../../foundation/http/feature-scope.js';
import { audit } from '../../foundation/http/audit.js';
import {
  ensureBinding,
  loginFormToken,
  setSessionCookie,
} from '../../foundation/http/browser-cookies.js';
import { authHostOnly } from '../../foundation/http/auth-host-only.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendPage } from '../../foundation/http/respond.js';
import { chooserPage, pageMessages } from '../../foundation/pages/index.js';
import { recordLocalSignInFailure, recordLocalSignInSuccess } from '../rate-limit/failure-limit.js';
import { sessionIdOf } from '../sessions/request-session.js';
import { allowSignInFormRedirects } from '../sign-in/application-origins.js';
import { handsOffHere, sendToHandoff } from '../sign-in/handoff-start.js';
import { formBinding, withinFailureLimit } from '../sign-in/password-form-guards.js';
import { startSession } from '../sessions/session-service.js';
import { startConsoleSession } from '../sessions/console-session.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import { decoyPasswordHash, verifyPassword } from './password-hash.js';

interface LocalSignInForm {
  readonly username?: unknown;
  readonly password?: unknown;
  readonly return_to?: unknown;
  readonly csrf?: unknown;
}

/**
 * GET /_sso/login (the chooser) and POST /_sso/login/local (docs/design.md#the-http-surface).
 * Registered as one encapsulated plugin (foundation/http/feature-scope.ts).
 */
export async function localSignInRoutes(app: FastifyInstance, gateway: Gateway): Promise<void> {
  await featureScope(app, (scope) => {
    chooserAndFormRoutes(scope, gateway);
  });
}

function chooserAndFormRoutes(app: FastifyInstance, gateway: Gateway): void {
  app.get<{ Querystring: Record<string, unknown> }>('/_sso/login', async (request, reply) => {
    const returnTo = safeReturnTo(request.query.return_to);
    // On an application host the sign-in is the auth host's: the browser
    // is handed off there (the chooser shows on the auth host when it is
    // not signed in yet) and comes back to this host's page.
    const { host } = request.headers;
    if (handsOffHere(gateway, host)) return sendToHandoff(gateway, request, reply, host, returnTo);
    return renderChooser(gateway, request, reply, returnTo, 200);
  });

  // The post makes the sign-in's own session: on the auth host only.
  authHostOnly(app, gateway, (scope) => {
    localSignInPost(scope, gateway);
  });
}

function localSignInPost(app: FastifyInstance, gateway: Gateway): void {
  // Its policies, in this order, before the route runs: the form token
  // (CSRF), then the limit on failed passwords.
  app.addHook('preHandler', localFormToken(gateway));
  app.addHook('preHandler', underFailureLimit(gateway));
  app.post<{ Body: LocalSignInForm | undefined }>('/_sso/login/local', async (request, reply) => {
    const form = request.body ?? {};
    const returnTo = safeReturnTo(form.return_to);
    const username = formUsername(form);
    const password = typeof form.password === 'string' ? form.password.slice(0, 1024) : '';
    const limits = { store: gateway.storage.failureCounts, clock: gateway.clock };

    const user = username === '' ? undefined : await gateway.storage.users.findByUserId(username);
    const localHash = user?.sourceEntryId === null ? user.passwordHash : null;
    // Always one scrypt check, so timing tells nothing about which part was wrong.
    const matches = await verifyPassword(password, localHash ?? (await decoyPasswordHash()));
    if (user === undefined || localHash === null || !matches || !user.enabled) {
      await recordLocalSignInFailure(limits, request.ip, username);
      await audit(gateway, request, {
        kind: 'sign_in',
        outcome: 'failure',
        userId: username,
        code: 'local_sign_in_failed',
      });
      return renderChooser(gateway, request, reply, returnTo, 401, username, true);
    }
    await recordLocalSignInSuccess(limits, request.ip, username);
    const started = await startSession(gateway.sessions, user, null, sessionIdOf(gateway, request));
    setSessionCookie(gateway, reply, started.id);
    await startConsoleSession(gateway, reply, started.active.session);
    await audit(gateway, request, { kind: 'sign_in', outcome: 'success', userId: user.userId });
    // 303: the browser follows with a GET and never re-posts the password (RFC 9700 §4.12).
    return reply.redirect(returnTo, 303);
  });
}

/** The username as the form gives it: trimmed, at most 255 characters. */
function formUsername(form: LocalSignInForm): string {
  return typeof form.username === 'string' ? form.username.trim().slice(0, 255) : '';
}

type LocalSignInRequest = FastifyRequest<{ Body: LocalSignInForm | undefined }>;

/** The form's token must be the one of the browser's binding cookie: else `csrf_failed`. */
function localFormToken(gateway: Gateway) {
  return async (
    request: LocalSignInRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> => {
    const csrf = (request.body ?? {}).csrf;
    const binding = formBinding(gateway, request, reply, csrf, '/_sso/login');
    return binding === undefined ? reply : undefined;
  };
}

/**
 * The limit on failed passwords of the client's address for this account
 * (rate-limit/failure-limit.ts): while it must wait, the post is refused
 * and audited.
 */
function underFailureLimit(gateway: Gateway) {
  return async (
    request: LocalSignInRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> => {
    const username = formUsername(request.body ?? {});
    const check = { account: username, userId: username, tryAgainHref: '/_sso/login' };
    return (await withinFailureLimit(gateway, request, reply, check)) ? undefined : reply;
  };
}

async function renderChooser(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  returnTo: string,
  status: number,
  username?: string,
  failed = false,
): Promise<FastifyReply> {
  const page = pageContext(gateway, request);
  const error = failed ? pageMessages(page.language).chooser.wrongPassword : undefined;
  const entries = (await gateway.entries.list()).filter((entry) => entry.enabled);
  const binding = ensureBinding(gateway, request, reply);
  // The local form's post ends where the sign-in continues: an application
  // host, or an OpenID Provider client (sign-in/application-origins.ts).
  await allowSignInFormRedirects(gateway, reply);
  return sendPage(
    reply,
    status,
    chooserPage({
      entries: entries.map(({ id, name }) => ({ id, name })),
      returnTo,
      page,
      localForm: {
        csrfToken: loginFormToken(binding),
        ...(error === undefined ? {} : { error }),
        ...(username === undefined ? {} : { username }),
      },
    }),
  );
}
