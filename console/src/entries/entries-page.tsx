import { useCallback } from 'react';
import { api, describeFailure } from '../api';
import { takeFlash } from '../flash';
import { useI18n } from '../i18n/language';
import { Link } from '../link';
import { EmptyState } from '../layout/empty-state';
import { Page } from '../layout/page';
import { StatusLine } from '../layout/status-line';
import type { EntryList, EntryView } from '../types';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';
import { EntryRow } from './entry-row';

export type EntryAction = 'enable' | 'disable' | 'make-default' | 'clear-default' | 'delete';

/** System Settings › Security › Single Sign-On: the entries, in sign-in chooser order. */
export function EntriesPage() {
  const load = useCallback(
    (signal: AbortSignal) =>
      api<EntryList>('GET', '/entries', { signal }).then((body) => body.entries),
    [],
  );
  const { data: entries, error, reload } = useLoad(load);
  const { t } = useI18n();
  const words = t.entries;
  const { busy, status, run: runAction } = useAction(takeFlash);
  const run = (done: string, call: () => Promise<unknown>) => runAction(call, () => done, reload);

  const act = (entry: EntryView, action: EntryAction) => {
    const path = `/entries/${encodeURIComponent(entry.id)}`;
    const calls: Record<EntryAction, [string, () => Promise<unknown>]> = {
      enable: [words.isEnabled(entry.name), () => api('POST', `${path}/enable`)],
      disable: [words.isDisabled(entry.name), () => api('POST', `${path}/disable`)],
      'make-default': [words.isDefault(entry.name), () => api('POST', `${path}/default`)],
      'clear-default': [words.notDefault(entry.name), () => api('DELETE', `${path}/default`)],
      delete: [words.isDeleted(entry.name), () => api('DELETE', path)],
    };
    const [done, call] = calls[action];
    void run(done, call);
  };

  const move = (index: number, by: -1 | 1) => {
    if (entries === undefined) return;
    const ids = entries.map((entry) => entry.id);
    const [moved] = ids.splice(index, 1);
    if (moved === undefined) return;
    ids.splice(index + by, 0, moved);
    const name = entries[index]?.name ?? moved;
    void run(by < 0 ? words.movedUp(name) : words.movedDown(name), () =>
      api('PUT', '/entry-order', { body: { ids } }),
    );
  };

  return (
    <Page
      title={t.nav.entries}
      actions={
        <Link to="/entries/new" className="button">
          {words.newEntry}
        </Link>
      }
    >
      <p className="lead">{words.lead}</p>
      <StatusLine status={status} />
      {error === undefined ? null : <p className="status status-error">{describeFailure(error)}</p>}
      {entries === undefined ? (
        error === undefined ? (
          <p>{words.loading}</p>
        ) : null
      ) : entries.length === 0 ? (
        <EmptyState
          title={words.emptyTitle}
          text={words.emptyText}
          action={{ to: '/entries/new', label: words.emptyButton }}
        />
      ) : (
        <table className="data-table entries-table">
          <caption className="visually-hidden">{words.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{words.order}</th>
              <th scope="col">{words.name}</th>
              <th scope="col">{words.id}</th>
              <th scope="col">{words.enabled}</th>
              <th scope="col">{words.default}</th>
              <th scope="col">{words.lastSuccess}</th>
              <th scope="col">{words.lastFailure}</th>
              <th scope="col">{words.actions}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => (
              <EntryRow
                key={entry.id}
                entry={entry}
                first={index === 0}
                last={index === entries.length - 1}
                busy={busy}
                onAction={(action) => {
                  act(entry, action);
                }}
                onMove={(by) => {
                  move(index, by);
                }}
              />
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
