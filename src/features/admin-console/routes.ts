import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { featureScope } from '../../foundation/http/feature-scope.js';
import { SsogateError } from '../../core/index.js';
import { authHostOnly } from '../../foundation/http/auth-host-only.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { NoSessionError, sendFailure, sendPage, wantsPage } from '../../foundation/http/respond.js';
import { consoleFactorHref, consoleFactorRefusal } from '../sessions/console-factor.js';
import { consoleSessionOf } from '../sessions/console-session.js';
import { csrfTokenFor } from '../sessions/session-service.js';
import { allowSignOutRedirect, shownUser } from '../sessions/sign-out-form.js';
import { chooserHref } from '../sign-in/auth-host-sign-in.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import { ConsoleFiles, defaultConsoleDir } from './console-files.js';
import { consoleContentSecurityPolicy, withBootData, withLanguage } from './console-page.js';
import { requestLanguage } from '../../foundation/http/page-context.js';

const CONSOLE_PATH = '/_sso/admin';
const ASSETS_PREFIX = `${CONSOLE_PATH}/assets/`;

interface ConsoleOptions {
  /** Where the built console is; default `dist/console/` at the package root. */
  readonly dir?: string;
}

/**
 * The admin console (`/_sso/admin/...`, docs/console.md), for administrators only,
 * with a second factor when SSOGATE_ADMIN_SECOND_FACTOR asks for one.
 * Every path under it but `assets/` is one of the app's own pages and gets
 * index.html; the app then talks to the admin API with the session cookie
 * and the CSRF token embedded here.
 * Registered as one encapsulated plugin (foundation/http/feature-scope.ts).
 */
export async function adminConsoleRoutes(
  app: FastifyInstance,
  gateway: Gateway,
  options: ConsoleOptions = {},
): Promise<void> {
  await featureScope(app, (scope) => {
    consoleRoutes(scope, gateway, options);
  });
}

function consoleRoutes(app: FastifyInstance, gateway: Gateway, options: ConsoleOptions = {}): void {
  const files = new ConsoleFiles(options.dir ?? defaultConsoleDir());
  const handler = async (request: FastifyRequest, reply: FastifyReply) =>
    serveConsole(gateway, files, request, reply);
  authHostOnly(app, gateway, (scope) => {
    scope.get(CONSOLE_PATH, handler);
    scope.get(`${CONSOLE_PATH}/*`, handler);
  });
}

async function serveConsole(
  gateway: Gateway,
  files: ConsoleFiles,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const active = await consoleSessionOf(gateway, request);
  if (active === undefined) {
    // The page asked for is where the administrator lands after signing in
    // (safeReturnTo lets /_sso/admin paths through and nothing else reserved).
    if (wantsPage(request)) return reply.redirect(chooserHref(safeReturnTo(request.url)), 302);
    sendFailure(gateway, request, reply, new NoSessionError());
    return reply;
  }
  if (!active.user.isAdmin) {
    await allowSignOutRedirect(gateway, reply, active.session.entryId);
    sendFailure(
      gateway,
      request,
      reply,
      new SsogateError('forbidden', `${active.user.userId} is not an administrator`),
      {
        tryAgainHref: '/',
        signedIn: { user: shownUser(active.user), signOutCsrf: csrfTokenFor(active.id) },
      },
    );
    return reply;
  }

  const path = request.url.split('?')[0] ?? '';
  const noFactor = consoleFactorRefusal(gateway, active, path);
  if (noFactor !== undefined) {
    // Sent to give it (or enrol one on first need), and back to this page.
    if (wantsPage(request))
      return reply.redirect(consoleFactorHref(safeReturnTo(request.url)), 302);
    sendFailure(gateway, request, reply, noFactor);
    return reply;
  }
  if (path.startsWith(ASSETS_PREFIX)) return sendAsset(gateway, files, request, reply, path);

  const indexHtml = await files.indexHtml();
  const page =
    indexHtml === undefined
      ? undefined
      : withBootData(withLanguage(indexHtml, requestLanguage(gateway, request)), {
          csrfToken: csrfTokenFor(active.id),
          publicUrl: gateway.config.publicUrl,
        });
  if (page === undefined) return notBuilt(gateway, files, request, reply);
  void reply.header(
    'content-security-policy',
    consoleContentSecurityPolicy(gateway.config.secureCookies),
  );
  return sendPage(reply, 200, page);
}

async function sendAsset(
  gateway: Gateway,
  files: ConsoleFiles,
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
): Promise<FastifyReply> {
  const asset = await files.asset(path.slice(ASSETS_PREFIX.length));
  if (asset === undefined) {
    sendFailure(gateway, request, reply, new SsogateError('not_found', `no console asset ${path}`));
    return reply;
  }
  // Vite names each asset after a hash of its content: a name never changes
  // meaning, so browsers may keep it for a year without asking again. Private:
  // only administrators fetch it.
  return reply
    .code(200)
    .type(asset.type)
    .header('cache-control', 'private, max-age=31536000, immutable')
    .send(asset.body);
}

function notBuilt(
  gateway: Gateway,
  files: ConsoleFiles,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  sendFailure(
    gateway,
    request,
    reply,
    new SsogateError(
      'console_not_built',
      `no console build at ${files.dir} (run npm run build:console)`,
    ),
    { tryAgainHref: CONSOLE_PATH },
  );
  return reply;
}
