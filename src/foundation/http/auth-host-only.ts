import type { FastifyInstance } from 'fastify';
import { SsogateError } from '../../core/index.js';
import { onAuthHost } from '../config/served-hosts.js';
import type { Gateway } from './gateway.js';
import { sendFailure } from './respond.js';

/**
 * Registers `routes` in a scope of their own (Fastify's encapsulation: a
 * plugin's hooks apply to its routes and nothing else) that answers on the
 * auth host (the public URL's) only, once the gateway serves other hosts
 * too (docs/proxy.md#many-hosts). Every route that turns the browser's
 * session into something worth more than that host's own pages lives here:
 * the console, the admin API, the local sign-in form's post, the handoff's
 * issuing step, and the OpenID Provider's endpoints that read the browser's
 * session (authorization, consent, end-session). A session handed to an
 * application host (a name under a wildcard, one team's proxy) then buys
 * nothing on the others, and a script on an application host never shares
 * an origin with these routes.
 *
 * On any other host a GET (or HEAD) is redirected to the same path and
 * query on the public URL, where the auth host's own session decides; any
 * other method is `404 not_found`. Being where a route is registered, the
 * rule cannot be forgotten by a new route, nor slipped past by a spelling of
 * its path.
 */
export function authHostOnly(
  app: FastifyInstance,
  gateway: Gateway,
  routes: (scope: FastifyInstance) => void,
): void {
  void app.register((scope, _options, done) => {
    const { hosts, publicUrl } = gateway.config;
    if (hosts.several) {
      const origin = new URL(publicUrl).origin;
      scope.addHook('onRequest', async (request, reply) => {
        if (onAuthHost(hosts, request.headers.host)) return;
        if (request.method === 'GET' || request.method === 'HEAD') {
          // request.url is a path the router matched under /_sso: appended
          // to the origin, never read as a URL of its own.
          void reply.header('cache-control', 'no-store');
          return reply.redirect(`${origin}${request.url}`, 302);
        }
        const route = request.routeOptions.url ?? request.url;
        sendFailure(
          gateway,
          request,
          reply,
          new SsogateError('not_found', `${route} answers on ${hosts.auth} only`),
        );
        return reply;
      });
    }
    routes(scope);
    done();
  });
}
