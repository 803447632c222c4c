import { useCallback, useState } from 'react';
import type { SyntheticEvent } from 'react';
import { api, describeFailure, formatNumber } from '../api';
import type { ConsoleMessages } from '../i18n/catalogs';
import { useI18n } from '../i18n/language';
import { EmptyState } from '../layout/empty-state';
import { Page } from '../layout/page';
import { StatusLine } from '../layout/status-line';
import type { SessionsEnded, UserPage, UserView } from '../types';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';
import { Pager } from './pager';
import { UserRow } from './user-row';

export type UserAction =
  'lock' | 'unlock' | 'grant-admin' | 'revoke-admin' | 'end-sessions' | 'second-factors/reset';

const pageSize = 25;

/** What each action says when it worked. */
function doneMessages(
  words: ConsoleMessages['users'],
): Record<UserAction, (user: string, answer: unknown) => string> {
  return {
    lock: words.wasLocked,
    unlock: words.wasUnlocked,
    'grant-admin': words.wasGranted,
    'revoke-admin': words.wasRevoked,
    'end-sessions': (user, answer) => {
      const ended = (answer as SessionsEnded | undefined)?.sessionsEnded ?? 0;
      return words.sessionsEnded(ended, formatNumber(ended), user);
    },
    'second-factors/reset': (user, answer) => {
      const removed = (answer as { factorsRemoved?: number } | undefined)?.factorsRemoved ?? 0;
      return words.factorsReset(removed, formatNumber(removed), user);
    },
  };
}

/** Users: search, pages, lock and unlock, administrator rights, ending sessions. */
export function UsersPage() {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const { busy, status, run } = useAction();
  const { t } = useI18n();
  const words = t.users;
  const load = useCallback(
    (signal: AbortSignal) => {
      const query = new URLSearchParams({ limit: String(pageSize), offset: String(offset) });
      if (search !== '') query.set('search', search);
      return api<UserPage>('GET', `/users?${query.toString()}`, {
        signal,
      });
    },
    [search, offset],
  );
  const { data, error, reload } = useLoad(load);

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setSearch(typed.trim());
    setOffset(0);
  };

  const act = (user: UserView, action: UserAction) => {
    // A reset cannot be undone: the user enrols anew after signing in again.
    if (
      action === 'second-factors/reset' &&
      !window.confirm(words.resetFactorsConfirm(user.userId))
    )
      return Promise.resolve();
    return run(
      () => api('POST', `/users/${user.id}/${action}`),
      (answer) => doneMessages(words)[action](user.userId, answer),
      reload,
    );
  };

  return (
    <Page title={t.nav.users}>
      <form className="toolbar" role="search" onSubmit={submit}>
        <div className="field">
          <label htmlFor="user-search">{words.search}</label>
          <input
            id="user-search"
            type="search"
            value={typed}
            placeholder={words.searchPlaceholder}
            onChange={(event) => {
              setTyped(event.target.value);
            }}
          />
        </div>
        <button type="submit" className="button">
          {words.searchButton}
        </button>
      </form>
      <StatusLine status={status} />
      {error === undefined ? null : <p className="status status-error">{describeFailure(error)}</p>}
      {data === undefined ? null : data.users.length === 0 ? (
        search === '' ? (
          <EmptyState
            title={words.emptyTitle}
            text={words.emptyText}
            action={{ to: '/', label: words.emptyButton }}
          />
        ) : (
          <p className="empty">{words.noMatch(search)}</p>
        )
      ) : (
        <>
          <table className="data-table users-table">
            <caption className="visually-hidden">{words.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{words.user}</th>
                <th scope="col">{words.email}</th>
                <th scope="col">{words.source}</th>
                <th scope="col">{words.status}</th>
                <th scope="col">{words.lastSignIn}</th>
                <th scope="col">{words.actions}</th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((user) => (
                <UserRow
                  key={user.id}
                  user={user}
                  busy={busy}
                  onAction={(action) => {
                    void act(user, action);
                  }}
                />
              ))}
            </tbody>
          </table>
          <Pager offset={offset} pageSize={pageSize} total={data.total} onChange={setOffset} />
        </>
      )}
    </Page>
  );
}
