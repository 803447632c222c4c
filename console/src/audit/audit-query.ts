import type { AuditQuery } from '../types.js';

export interface AuditFilters {
  readonly entryId: string;
  readonly outcome: string;
  readonly kind: string;
  readonly userId: string;
  /** The reference id an error page showed the user. */
  readonly reference: string;
  /** datetime-local values, in the reader's time zone. */
  readonly since: string;
  readonly until: string;
}

export const noFilters: AuditFilters = {
  entryId: '',
  outcome: '',
  kind: '',
  userId: '',
  reference: '',
  since: '',
  until: '',
};

/** `2024-05-01T12:00` from a datetime-local input, as an ISO time in UTC. */
function isoFrom(local: string): string | undefined {
  if (local === '') return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/**
 * The query of GET /_sso/api/audit for the filters, a page of `limit` events
 * older than the `before` cursor (absent: the newest). A filter left blank,
 * or a time the browser cannot read, is not sent.
 */
export function auditQuery(
  filters: AuditFilters,
  limit: number,
  before: number | undefined,
): URLSearchParams {
  const query = new URLSearchParams({ limit: String(limit) });
  const set = (name: keyof AuditQuery, value: string | undefined) => {
    if (value !== undefined && value !== '') query.set(name, value);
  };
  set('entryId', filters.entryId);
  set('outcome', filters.outcome);
  set('kind', filters.kind);
  set('userId', filters.userId.trim());
  // As read out or pasted from the error page: any case, spaces around it.
  set('reference', filters.reference.trim().toUpperCase());
  set('since', isoFrom(filters.since));
  set('until', isoFrom(filters.until));
  set('before', before === undefined ? undefined : String(before));
  return query;
}
