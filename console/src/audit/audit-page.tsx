import { useCallback, useState } from 'react';
import { api, describeFailure } from '../api';
import { Page } from '../layout/page';
import type { AuditEventPage, EntryList } from '../types';
import { useLoad } from '../use-load';
import { AuditFilterForm } from './audit-filters';
import type { AuditFilters } from './audit-query';
import { auditQuery, noFilters } from './audit-query';
import { AuditRow } from './audit-row';

const pageSize = 50;

/** Audit: sign-ins and changes, newest first, filtered by entry, outcome, user and time. */
export function AuditPage() {
  const [filters, setFilters] = useState<AuditFilters>(noFilters);
  // The `before` cursor of each page shown so far; the last one is the page on screen.
  const [cursors, setCursors] = useState<readonly number[]>([]);
  const before = cursors.at(-1);
  const load = useCallback(
    (signal: AbortSignal) => {
      const query = auditQuery(filters, pageSize, before);
      return api<AuditEventPage>('GET', `/audit?${query.toString()}`, { signal });
    },
    [filters, before],
  );
  const { data, error } = useLoad(load);
  const loadEntries = useCallback(
    (signal: AbortSignal) =>
      api<EntryList>('GET', '/entries', { signal }).then((body) => body.entries),
    [],
  );
  const { data: entries } = useLoad(loadEntries);

  return (
    <Page title="Audit">
      <AuditFilterForm
        entries={entries ?? []}
        onApply={(next) => {
          setFilters(next);
          setCursors([]);
        }}
      />
      {error === undefined ? null : <p className="status status-error">{describeFailure(error)}</p>}
      {data === undefined ? null : data.events.length === 0 ? (
        <p className="empty">No event matches these filters.</p>
      ) : (
        <table className="data-table audit-table">
          <caption className="visually-hidden">Audit events, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">Outcome</th>
              <th scope="col">Entry</th>
              <th scope="col">User</th>
              <th scope="col">Code and reference</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {data.events.map((event) => (
              <AuditRow key={event.id} event={event} />
            ))}
          </tbody>
        </table>
      )}
      <nav className="pager" aria-label="Pages">
        <button
          type="button"
          className="button secondary small"
          disabled={cursors.length === 0}
          onClick={() => {
            setCursors([]);
          }}
        >
          Newest
        </button>
        <button
          type="button"
          className="button secondary small"
          disabled={data?.nextBefore === null || data === undefined}
          onClick={() => {
            if (data?.nextBefore != null) setCursors([...cursors, data.nextBefore]);
          }}
        >
          Older
        </button>
      </nav>
    </Page>
  );
}
