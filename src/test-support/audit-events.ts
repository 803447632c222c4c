import type { AuditEvent, AuditQuery, AuditStore } from '../foundation/storage/types.js';
import { waitUntil } from './wait-until.js';

/** Long enough for a machine busy with the whole suite; only a missing event waits it out. */
const waitLimitMs = 15_000;
const pollEveryMs = 20;

/**
 * Waits for an audit event and returns it: the newest `query` finds (the
 * newest `query.limit`, default 1) that `matches` accepts.
 *
 * A page or an answer goes out before its audit event is written
 * (src/foundation/http/audit.ts appends after the work it records, and a networked
 * database takes a moment more), and the audit store has no way to tell of
 * an append, so this reads the store again until the event is there. On a
 * miss the failure shows what the store held instead.
 */
export async function waitForAuditEvent(
  audit: Pick<AuditStore, 'list'>,
  query: Omit<AuditQuery, 'limit'> & { readonly limit?: number },
  matches: (event: AuditEvent) => boolean = () => true,
): Promise<AuditEvent> {
  let events: readonly AuditEvent[] = [];
  return waitUntil(
    async () => {
      events = await audit.list({ ...query, limit: query.limit ?? 1 });
      return events.find(matches);
    },
    {
      message: () =>
        `an audit event like ${JSON.stringify(query)}; the store held ${JSON.stringify(events)}`,
      timeoutMs: waitLimitMs,
      intervalMs: pollEveryMs,
    },
  );
}
