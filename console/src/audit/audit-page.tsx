import { useCallback, useState } from 'react';
import { api, describeFailure } from '../api';
import { useI18n } from '../i18n/language';
import { EmptyState } from '../layout/empty-state';
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
  const { t } = useI18n();
  const words = t.audit;
  const filtered = Object.entries(filters).some(
    ([key, value]) => noFilters[key as keyof AuditFilters] !== value,
  );

  return (
    <Page title={t.nav.audit}>
      <AuditFilterForm
        entries={entries ?? []}
        onApply={(next) => {
          setFilters(next);
          setCursors([]);
        }}
      />
      {error === undefined ? null : <p className="status status-error">{describeFailure(error)}</p>}
      {data === undefined ? null : data.events.length === 0 ? (
        filtered ? (
          <p className="empty">{words.noMatch}</p>
        ) : (
          <EmptyState title={words.emptyTitle} text={words.emptyText} />
        )
      ) : (
        <table className="data-table audit-table">
          <caption className="visually-hidden">{words.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{words.time}</th>
              <th scope="col">{words.event}</th>
              <th scope="col">{words.outcome}</th>
              <th scope="col">{words.entry}</th>
              <th scope="col">{words.user}</th>
              <th scope="col">{words.codeAndReference}</th>
              <th scope="col">{words.details}</th>
            </tr>
          </thead>
          <tbody>
            {data.events.map((event) => (
              <AuditRow key={event.id} event={event} />
            ))}
          </tbody>
        </table>
      )}
      <nav className="pager" aria-label={t.shell.pages}>
        <button
          type="button"
          className="button secondary small"
          disabled={cursors.length === 0}
          onClick={() => {
            setCursors([]);
          }}
        >
          {words.newest}
        </button>
        <button
          type="button"
          className="button secondary small"
          disabled={data?.nextBefore === null || data === undefined}
          onClick={() => {
            if (data?.nextBefore != null) setCursors([...cursors, data.nextBefore]);
          }}
        >
          {words.older}
        </button>
      </nav>
    </Page>
  );
}
