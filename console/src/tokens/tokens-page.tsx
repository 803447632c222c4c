import { useCallback, useState } from 'react';
import type { SyntheticEvent } from 'react';
import { api, describeFailure, formatTime } from '../api';
import { Page } from '../layout/page';
import { StatusLine } from '../layout/status-line';
import type { ApiTokenView, TokenCreated, TokenList } from '../types';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';
import { NewTokenSecret } from './new-token-secret';

/** API tokens: create one (its secret shown once), list them, revoke. */
export function TokensPage() {
  const load = useCallback(
    (signal: AbortSignal) =>
      api<TokenList>('GET', '/tokens', { signal }).then((body) => body.tokens),
    [],
  );
  const { data: tokens, error, reload } = useLoad(load);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; secret: string } | undefined>();
  const { busy, status, run } = useAction();

  const create = async (event: SyntheticEvent) => {
    event.preventDefault();
    setCreated(undefined);
    await run(
      () =>
        api<TokenCreated>('POST', '/tokens', {
          body: { name: name.trim() },
        }),
      (answer) => {
        setCreated({ name: answer.token.name, secret: answer.secret });
        setName('');
        return `Token ${answer.token.name} created.`;
      },
      reload,
    );
  };

  const revoke = (token: ApiTokenView) =>
    run(
      () => api('DELETE', `/tokens/${encodeURIComponent(token.id)}`),
      () => `Token ${token.name} revoked: it no longer works.`,
      reload,
    );

  return (
    <Page title="API tokens">
      <p className="lead">
        Scripts call the admin API with <code>Authorization: Bearer &lt;token&gt;</code>. A token is
        stored only as a hash: its secret is shown once, when it is created.
      </p>
      <form className="toolbar" onSubmit={(event) => void create(event)}>
        <div className="field">
          <label htmlFor="token-name">New token name</label>
          <input
            id="token-name"
            value={name}
            required
            maxLength={100}
            placeholder="e.g. deploy-script"
            onChange={(event) => {
              setName(event.target.value);
            }}
          />
        </div>
        <button type="submit" className="button" disabled={busy || name.trim() === ''}>
          Create token
        </button>
      </form>
      <StatusLine status={status} />
      {created === undefined ? null : (
        <NewTokenSecret
          name={created.name}
          secret={created.secret}
          onDone={() => {
            setCreated(undefined);
          }}
        />
      )}
      {error === undefined ? null : <p className="status status-error">{describeFailure(error)}</p>}
      {tokens === undefined ? null : tokens.length === 0 ? (
        <p className="empty">No API token yet.</p>
      ) : (
        <table className="data-table tokens-table">
          <caption className="visually-hidden">API tokens</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <th scope="row" data-label="Name">
                  {token.name}
                </th>
                <td data-label="Created">{formatTime(token.createdAt)}</td>
                <td data-label="Last used">{formatTime(token.lastUsedAt)}</td>
                <td data-label="Status">
                  {token.revokedAt === null ? (
                    <span className="badge badge-on">Active</span>
                  ) : (
                    <span className="badge badge-off">Revoked {formatTime(token.revokedAt)}</span>
                  )}
                </td>
                <td data-label="Actions">
                  {token.revokedAt === null ? (
                    <button
                      type="button"
                      className="button danger-outline small"
                      disabled={busy}
                      aria-label={`Revoke ${token.name}`}
                      onClick={() => {
                        void revoke(token);
                      }}
                    >
                      Revoke
                    </button>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
