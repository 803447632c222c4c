import type { ApiRouter } from './api-router.js';
import { presentAuditEvent } from './presenters.js';
import { auditPageAnswer } from './response-schemas.js';
import { auditQuery } from './schemas.js';

/**
 * The audit log, newest first. Pages go backwards by id (`before`), not by
 * offset: events keep arriving, and an offset would shift under the reader.
 */
export function auditRoutes(api: ApiRouter): void {
  api.route(
    {
      method: 'GET',
      url: '/_sso/api/audit',
      tag: 'audit',
      summary: 'Audit events, newest first, filtered; `nextBefore` pages back',
      query: auditQuery,
      responses: { 200: { description: 'one page of events', schema: auditPageAnswer } },
    },
    async ({ query: { before, reference, ...query } }) => {
      const events = await api.gateway.storage.audit.list({
        ...withoutUndefined(query),
        ...(before === undefined ? {} : { beforeId: before }),
        ...(reference === undefined ? {} : { reference: canonicalReference(reference) }),
      });
      const last = events.at(-1);
      // A full page may have more behind it; a short one is the end.
      const nextBefore = events.length === query.limit && last !== undefined ? last.id : null;
      return { body: { events: events.map(presentAuditEvent), nextBefore } };
    },
  );
}

/**
 * A reference id as a user may read it out or type it: any case, and the
 * letters Crockford's base32 leaves out read as the digits they look like
 * (src/foundation/web/reference-id.ts).
 */
function canonicalReference(reference: string): string {
  return reference.toUpperCase().replace(/[IL]/g, '1').replace(/O/g, '0');
}

/** exactOptionalPropertyTypes: the store's filters are absent, never undefined. */
function withoutUndefined<T extends object>(
  value: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
