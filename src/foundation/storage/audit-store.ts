import type { Insertable, Kysely, Selectable } from 'kysely';
import { compileOnce, oncePerDatabase } from './compile-once.js';
import { parseNullableJsonObject, toMillis } from './columns.js';
import type { AuditEventsTable, Database } from './schema.js';
import { auditKinds } from './types.js';
import type { AuditEvent, AuditKind, AuditStore } from './types.js';

const kinds: ReadonlySet<string> = new Set<AuditKind>(auditKinds);

function toKind(value: string): AuditKind {
  if (!kinds.has(value)) throw new Error(`Unknown audit kind in the database: ${value}`);
  return value as AuditKind;
}

function toOutcome(value: string): AuditEvent['outcome'] {
  if (value !== 'success' && value !== 'failure') {
    throw new Error(`Unknown audit outcome in the database: ${value}`);
  }
  return value;
}

const auditColumns = [
  'id',
  'at',
  'kind',
  'outcome',
  'entry_id',
  'user_id',
  'actor',
  'code',
  'reference',
  'duration_ms',
  'detail',
] as const;

function toEvent(row: Selectable<AuditEventsTable>): AuditEvent {
  return {
    id: row.id,
    at: toMillis(row.at),
    kind: toKind(row.kind),
    outcome: toOutcome(row.outcome),
    entryId: row.entry_id,
    userId: row.user_id,
    actor: row.actor,
    code: row.code,
    reference: row.reference,
    durationMs: row.duration_ms,
    detail: parseNullableJsonObject(row.detail, 'audit_events.detail'),
  };
}

/** The insert of every sign-in, compiled once (compile-once.ts). */
const appendQuery = oncePerDatabase((db) =>
  compileOnce((row: Insertable<AuditEventsTable>) =>
    db.insertInto('audit_events').values({
      at: row.at,
      kind: row.kind,
      outcome: row.outcome,
      entry_id: row.entry_id,
      user_id: row.user_id,
      actor: row.actor,
      code: row.code,
      reference: row.reference,
      duration_ms: row.duration_ms,
      detail: row.detail,
    }),
  ),
);

export function createAuditStore(db: Kysely<Database>): AuditStore {
  const append = appendQuery(db);
  return {
    async append(event) {
      await append.execute(db, {
        at: event.at,
        kind: event.kind,
        outcome: event.outcome,
        entry_id: event.entryId,
        user_id: event.userId,
        actor: event.actor,
        code: event.code,
        reference: event.reference,
        duration_ms: event.durationMs === null ? null : Math.round(event.durationMs),
        detail: event.detail === null ? null : JSON.stringify(event.detail),
      });
    },

    /**
     * Newest first by id (ids only grow, so paging with beforeId never skips
     * or repeats an event). `since` is inclusive, `until` exclusive.
     */
    async list(query) {
      let select = db.selectFrom('audit_events').select(auditColumns);
      if (query.kind !== undefined) select = select.where('kind', '=', query.kind);
      if (query.outcome !== undefined) select = select.where('outcome', '=', query.outcome);
      if (query.entryId !== undefined) select = select.where('entry_id', '=', query.entryId);
      if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
      if (query.reference !== undefined) select = select.where('reference', '=', query.reference);
      if (query.since !== undefined) select = select.where('at', '>=', query.since);
      if (query.until !== undefined) select = select.where('at', '<', query.until);
      if (query.beforeId !== undefined) select = select.where('id', '<', query.beforeId);
      const rows = await select.orderBy('id', 'desc').limit(query.limit).execute();
      return rows.map(toEvent);
    },

    async lastSignIns(entryId) {
      // One max() per outcome: with the (entry_id, kind, outcome, at) index
      // each is a single index lookup, however long the audit trail grows.
      const last = async (outcome: 'success' | 'failure') => {
        const row = await db
          .selectFrom('audit_events')
          .select((eb) => eb.fn.max('at').as('last'))
          .where('entry_id', '=', entryId)
          .where('kind', '=', 'sign_in')
          .where('outcome', '=', outcome)
          .executeTakeFirst();
        return row?.last == null ? null : toMillis(row.last);
      };
      const [success, failure] = await Promise.all([last('success'), last('failure')]);
      return { success, failure };
    },
  };
}
