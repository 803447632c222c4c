import { useCallback } from 'react';
import { api, describeFailure } from '../api';
import { takeFlash } from '../flash';
import { Link } from '../link';
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
  const { busy, status, run: runAction } = useAction(takeFlash);
  const run = (done: string, call: () => Promise<unknown>) => runAction(call, () => done, reload);

  const act = (entry: EntryView, action: EntryAction) => {
    const path = `/entries/${encodeURIComponent(entry.id)}`;
    const calls: Record<EntryAction, [string, () => Promise<unknown>]> = {
      enable: [`${entry.name} is enabled.`, () => api('POST', `${path}/enable`)],
      disable: [`${entry.name} is disabled.`, () => api('POST', `${path}/disable`)],
      'make-default': [
        `${entry.name} is now the default: unsigned users go straight to it.`,
        () => api('POST', `${path}/default`),
      ],
      'clear-default': [
        `${entry.name} is no longer the default: unsigned users see the chooser.`,
        () => api('DELETE', `${path}/default`),
      ],
      delete: [`${entry.name} is deleted.`, () => api('DELETE', path)],
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
    void run(`${entries[index]?.name ?? moved} moved ${by < 0 ? 'up' : 'down'}.`, () =>
      api('PUT', '/entry-order', { body: { ids } }),
    );
  };

  return (
    <Page
      title="Single Sign-On"
      actions={
        <Link to="/entries/new" className="button">
          New entry
        </Link>
      }
    >
      <p className="lead">
        Each entry connects one OAuth2 server. Users see them in this order on the sign-in page; the
        default entry signs unsigned users in without a page of its own.
      </p>
      <StatusLine status={status} />
      {error === undefined ? null : <p className="status status-error">{describeFailure(error)}</p>}
      {entries === undefined ? (
        error === undefined ? (
          <p>Loading entries…</p>
        ) : null
      ) : entries.length === 0 ? (
        <p className="empty">
          No entry yet. <Link to="/entries/new">Connect your first OAuth2 server</Link>.
        </p>
      ) : (
        <table className="data-table entries-table">
          <caption className="visually-hidden">Sign-in entries, in chooser order</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Name</th>
              <th scope="col">Id</th>
              <th scope="col">Enabled</th>
              <th scope="col">Default</th>
              <th scope="col">Last successful sign-in</th>
              <th scope="col">Last failed sign-in</th>
              <th scope="col">Actions</th>
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
