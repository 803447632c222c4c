import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AuditRetention } from '../foundation/config/load-config.js';
import type { Storage } from '../foundation/storage/types.js';

/** Rows per delete statement: small, so a batch holds the write lock only briefly. */
const auditPruneBatchSize = 500;

interface AuditPruneOptions {
  readonly batchSize?: number;
  /** Checked between batches: a stopping gateway does not wait for a long round. */
  readonly stopped?: () => boolean;
}

/**
 * Deletes the audit events past retention, batch after batch, yielding to
 * the event loop between batches so sign-ins are served in between. Resolves
 * how many went, or undefined when another instance is pruning (it does the
 * rest).
 */
export async function pruneAuditLog(
  storage: Storage,
  retention: AuditRetention,
  now: number,
  options: AuditPruneOptions = {},
): Promise<number | undefined> {
  if (retention.maxAgeMs === undefined && retention.maxRows === undefined) return 0;
  const limit = options.batchSize ?? auditPruneBatchSize;
  const batch = {
    before: retention.maxAgeMs === undefined ? undefined : now - retention.maxAgeMs,
    keepRows: retention.maxRows,
    limit,
  };
  let total = 0;
  for (;;) {
    const deleted = await storage.pruneAudit(batch);
    if (deleted === undefined) return total === 0 ? undefined : total;
    total += deleted;
    if (deleted < limit || options.stopped?.() === true) return total;
    await nextTurn();
  }
}
