import type { FastifyInstance } from 'fastify';
import { adminApiCookieName } from '../../foundation/http/browser-cookies.js';
import type { ApiRouter } from './api-router.js';
import type { OpenApiDocument } from './openapi.js';
import { buildOpenApiDocument, openApiPath } from './openapi.js';

/**
 * The package's version, kept here rather than read from package.json at run
 * time (the built gateway may not ship it); openapi.test.ts keeps them equal.
 */
export const apiVersion = '0.1.0';

/**
 * GET /_sso/api/openapi.json (docs/admin-api.md). Public: it describes the routes, not
 * any data, and tools fetch it before they hold a token. Built once, after
 * every route is registered.
 */
export function openApiRoute(app: FastifyInstance, api: ApiRouter): void {
  let document: OpenApiDocument | undefined;
  app.get(openApiPath, async (_request, reply) => {
    document ??= buildOpenApiDocument(api.routes, {
      version: apiVersion,
      sessionCookie: adminApiCookieName(api.gateway),
    });
    return reply.header('cache-control', 'no-cache').send(document);
  });
}
