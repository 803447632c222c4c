import { useState } from 'react';
import type { SyntheticEvent } from 'react';
import type { EntryView } from '../types';

export interface AuditFilters {
  readonly entryId: string;
  readonly outcome: string;
  readonly kind: string;
  readonly userId: string;
  /** datetime-local values, in the reader's time zone. */
  readonly since: string;
  readonly until: string;
}

export const noFilters: AuditFilters = {
  entryId: '',
  outcome: '',
  kind: '',
  userId: '',
  since: '',
  until: '',
};

interface AuditFilterFormProps {
  readonly entries: readonly EntryView[];
  readonly onApply: (filters: AuditFilters) => void;
}

/** The audit's filters; applied on submit so each change is not a query. */
export function AuditFilterForm({ entries, onApply }: AuditFilterFormProps) {
  const [filters, setFilters] = useState<AuditFilters>(noFilters);
  const set = (change: Partial<AuditFilters>) => {
    setFilters((current) => ({ ...current, ...change }));
  };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    onApply(filters);
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Audit filters">
      <div className="field">
        <label htmlFor="audit-entry">Entry</label>
        <select
          id="audit-entry"
          value={filters.entryId}
          onChange={(event) => {
            set({ entryId: event.target.value });
          }}
        >
          <option value="">Any entry</option>
          {entries.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.name} ({entry.id})
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="audit-outcome">Outcome</label>
        <select
          id="audit-outcome"
          value={filters.outcome}
          onChange={(event) => {
            set({ outcome: event.target.value });
          }}
        >
          <option value="">Any outcome</option>
          <option value="success">Success</option>
          <option value="failure">Failure</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="audit-kind">Event</label>
        <select
          id="audit-kind"
          value={filters.kind}
          onChange={(event) => {
            set({ kind: event.target.value });
          }}
        >
          <option value="">Any event</option>
          <option value="sign_in">Sign-in</option>
          <option value="sign_out">Sign-out</option>
          <option value="entry_change">Entry change</option>
          <option value="user_change">User change</option>
          <option value="token_change">API token change</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="audit-user">User</label>
        <input
          id="audit-user"
          value={filters.userId}
          placeholder="user id"
          onChange={(event) => {
            set({ userId: event.target.value });
          }}
        />
      </div>
      <div className="field">
        <label htmlFor="audit-since">From</label>
        <input
          id="audit-since"
          type="datetime-local"
          value={filters.since}
          onChange={(event) => {
            set({ since: event.target.value });
          }}
        />
      </div>
      <div className="field">
        <label htmlFor="audit-until">Until</label>
        <input
          id="audit-until"
          type="datetime-local"
          value={filters.until}
          onChange={(event) => {
            set({ until: event.target.value });
          }}
        />
      </div>
      <div className="filter-actions">
        <button type="submit" className="button">
          Apply filters
        </button>
      </div>
    </form>
  );
}
