import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../app/gateway.js';
import { parseInput } from './api-failure.js';
import { apiHandler } from './api-route.js';
import { presentAuditEvent } from './presenters.js';
import { auditQuery } from './schemas.js';

/**
 * The audit log, newest first. Pages go backwards by id (`before`), not by
 * offset: events keep arriving, and an offset would shift under the reader.
 */
export function auditRoutes(app: FastifyInstance, gateway: Gateway): void {
  app.get(
    '/_sso/api/audit',
    apiHandler(gateway, async ({ request }) => {
      const { before, ...query } = parseInput(auditQuery, request.query, 'query');
      const events = await gateway.storage.audit.list({
        ...withoutUndefined(query),
        ...(before === undefined ? {} : { beforeId: before }),
      });
      const last = events.at(-1);
      // A full page may have more behind it; a short one is the end.
      const nextBefore = events.length === query.limit && last !== undefined ? last.id : null;
      return { body: { events: events.map(presentAuditEvent), nextBefore } };
    }),
  );
}

/** exactOptionalPropertyTypes: the store's filters are absent, never undefined. */
function withoutUndefined<T extends object>(
  value: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
