import { useCallback, useState } from 'react';
import type { SyntheticEvent } from 'react';
import { api, describeFailure } from '../api';
import { Page } from '../layout/page';
import { StatusLine } from '../layout/status-line';
import type { SessionsEnded, UserPage, UserView } from '../types';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';
import { Pager } from './pager';
import { UserRow } from './user-row';

export type UserAction = 'lock' | 'unlock' | 'grant-admin' | 'revoke-admin' | 'end-sessions';

const pageSize = 25;

const done: Record<UserAction, (user: string, answer: unknown) => string> = {
  lock: (user) => `${user} is locked and signed out everywhere.`,
  unlock: (user) => `${user} is unlocked.`,
  'grant-admin': (user) => `${user} is now an administrator.`,
  'revoke-admin': (user) => `${user} is no longer an administrator.`,
  'end-sessions': (user, answer) => {
    const ended = (answer as SessionsEnded | undefined)?.sessionsEnded ?? 0;
    return `${ended} session${ended === 1 ? '' : 's'} of ${user} ended.`;
  },
};

/** Users: search, pages, lock and unlock, administrator rights, ending sessions. */
export function UsersPage() {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const { busy, status, run } = useAction();
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

  const act = (user: UserView, action: UserAction) =>
    run(
      () => api('POST', `/users/${user.id}/${action}`),
      (answer) => done[action](user.userId, answer),
      reload,
    );

  return (
    <Page title="Users">
      <form className="toolbar" role="search" onSubmit={submit}>
        <div className="field">
          <label htmlFor="user-search">Search users</label>
          <input
            id="user-search"
            type="search"
            value={typed}
            placeholder="user id, name or e-mail"
            onChange={(event) => {
              setTyped(event.target.value);
            }}
          />
        </div>
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <StatusLine status={status} />
      {error === undefined ? null : <p className="status status-error">{describeFailure(error)}</p>}
      {data === undefined ? null : data.users.length === 0 ? (
        <p className="empty">No user {search === '' ? 'yet' : `matches “${search}”`}.</p>
      ) : (
        <>
          <table className="data-table users-table">
            <caption className="visually-hidden">Users, newest first</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">E-mail</th>
                <th scope="col">Source</th>
                <th scope="col">Status</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">Actions</th>
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
