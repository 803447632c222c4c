import type { FastifyInstance } from 'fastify';

/**
 * Registers a feature's routes as one encapsulated Fastify plugin: a hook,
 * parser or decorator the feature adds in it applies to its own routes and
 * to no other feature's, and its policies (auth-host-only.ts's scope, a
 * body limit of its own) are where its routes are registered. What the app
 * sets before (its error handler, security headers, body parsers) reaches
 * it. Awaited, so the plugin loads where app/build-app.ts registers it and
 * not when the app is ready: the routes and close hooks of the app keep
 * their order.
 */
export async function featureScope(
  app: FastifyInstance,
  routes: (scope: FastifyInstance) => void | Promise<void>,
): Promise<void> {
  await app.register(async (scope) => {
    await routes(scope);
  });
}
