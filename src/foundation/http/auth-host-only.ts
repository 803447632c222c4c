import type { FastifyInstance } from 'fastify';
import { SsogateError } from '../../core/index.js';
import { onAuthHost } from '../config/served-hosts.js';
import type { Gateway } from './gateway.js';
import { sendFailure } from './respond.js';

/**
 * The routes that answer on the auth host (the public URL's) only, once the
 * gateway serves other hosts too: the console, the admin API, the local
 * sign-in form's post, and the handoff's issuing step (sign-in/handoff.ts). An application on another host then never shares an
 * origin with them, so a script in its pages cannot call them with a
 * signed-in administrator's cookie (docs/proxy.md#many-hosts). Matched on
 * the route the router chose, so no spelling of the path slips past.
 */
const authHostRoutes = /^\/_sso\/((admin|api)(\/|$)|login\/local$|handoff$)/;

export function keepConsoleOnAuthHost(app: FastifyInstance, gateway: Gateway): void {
  const { hosts } = gateway.config;
  if (!hosts.several) return;
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (
      route === undefined ||
      !authHostRoutes.test(route) ||
      onAuthHost(hosts, request.headers.host)
    ) {
      return;
    }
    sendFailure(
      gateway,
      request,
      reply,
      new SsogateError('not_found', `${route} answers on ${hosts.auth} only`),
    );
    return reply;
  });
}
