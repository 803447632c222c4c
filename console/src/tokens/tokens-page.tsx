import { useCallback, useState } from 'react';
import type { SyntheticEvent } from 'react';
import { api, describeFailure, formatTime } from '../api';
import { useI18n } from '../i18n/language';
import { EmptyState } from '../layout/empty-state';
import { Page } from '../layout/page';
import { StatusLine } from '../layout/status-line';
import type { ApiTokenView, TokenCreated, TokenList } from '../types';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';
import { NewTokenSecret } from './new-token-secret';
import { expiresAtAfter, isExpired, mostDays, wholeDays } from './token-expiry';

/**
 * API tokens: create one (its secret shown once; valid for some days, the
 * gateway's default lifetime, or, when asked, until revoked), list them with
 * their owner, last use and expiry, revoke.
 */
export function TokensPage() {
  // The list as of the moment it came: a token whose expiry has passed by then shows as expired.
  const load = useCallback(
    (signal: AbortSignal) =>
      api<TokenList>('GET', '/tokens', { signal }).then((body) => ({
        tokens: body.tokens,
        at: Date.now(),
      })),
    [],
  );
  const { data: loaded, error, reload } = useLoad(load);
  const tokens = loaded?.tokens;
  const [name, setName] = useState('');
  const [validFor, setValidFor] = useState('');
  const [neverExpires, setNeverExpires] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string } | undefined>();
  const { busy, status, run } = useAction();
  const { t, language } = useI18n();
  const words = t.tokens;
  const days = wholeDays(validFor);

  const create = async (event: SyntheticEvent) => {
    event.preventDefault();
    setCreated(undefined);
    await run(
      () =>
        api<TokenCreated>('POST', '/tokens', {
          body: {
            name: name.trim(),
            // Nothing given: the gateway's default lifetime (SSOGATE_API_TOKEN_DAYS).
            ...(neverExpires
              ? { expiresAt: 'never' }
              : days === undefined
                ? {}
                : { expiresAt: expiresAtAfter(days, Date.now()) }),
          },
        }),
      (answer) => {
        setCreated({ name: answer.token.name, secret: answer.secret });
        setName('');
        setValidFor('');
        setNeverExpires(false);
        return words.wasCreated(answer.token.name);
      },
      reload,
    );
  };

  const revoke = (token: ApiTokenView) =>
    run(
      () => api('DELETE', `/tokens/${encodeURIComponent(token.id)}`),
      () => words.wasRevoked(token.name),
      reload,
    );

  return (
    <Page title={t.nav.tokens}>
      <p className="lead">{words.lead}</p>
      <form className="toolbar" onSubmit={(event) => void create(event)}>
        <div className="field">
          <label htmlFor="token-name">{words.newName}</label>
          <input
            id="token-name"
            value={name}
            required
            maxLength={100}
            placeholder={words.namePlaceholder}
            onChange={(event) => {
              setName(event.target.value);
            }}
          />
        </div>
        <div className="field">
          <label htmlFor="token-valid-for">{words.validFor}</label>
          <input
            id="token-valid-for"
            type="number"
            min={1}
            max={mostDays}
            step={1}
            value={validFor}
            disabled={neverExpires}
            placeholder={words.validForPlaceholder}
            onChange={(event) => {
              setValidFor(event.target.value);
            }}
          />
        </div>
        <label className="inline">
          <input
            type="checkbox"
            checked={neverExpires}
            onChange={(event) => {
              setNeverExpires(event.target.checked);
            }}
          />{' '}
          {words.neverExpires}
        </label>
        <button
          type="submit"
          className="button"
          // A number that is not whole days is refused here rather than sent as "never".
          disabled={
            busy ||
            name.trim() === '' ||
            (!neverExpires && validFor.trim() !== '' && days === undefined)
          }
        >
          {words.create}
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
        <EmptyState title={words.emptyTitle} text={words.emptyText} />
      ) : (
        <table className="data-table tokens-table">
          <caption className="visually-hidden">{words.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{words.name}</th>
              <th scope="col">{words.owner}</th>
              <th scope="col">{words.created}</th>
              <th scope="col">{words.lastUsed}</th>
              <th scope="col">{words.expires}</th>
              <th scope="col">{words.status}</th>
              <th scope="col">{words.actions}</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <th scope="row" data-label={words.name}>
                  {token.name}
                </th>
                <td data-label={words.owner}>
                  {token.owner === null
                    ? words.noOwner
                    : token.owner.kind === 'user'
                      ? token.owner.name
                      : words.serviceOwner(token.owner.name)}
                </td>
                <td data-label={words.created}>{formatTime(token.createdAt, language)}</td>
                <td data-label={words.lastUsed}>{formatTime(token.lastUsedAt, language)}</td>
                <td data-label={words.expires}>
                  {token.expiresAt === null ? words.never : formatTime(token.expiresAt, language)}
                </td>
                <td data-label={words.status}>
                  {token.revokedAt !== null ? (
                    <span className="badge badge-off">
                      {words.revokedAt(formatTime(token.revokedAt, language))}
                    </span>
                  ) : isExpired(token.expiresAt, loaded?.at ?? 0) ? (
                    <span className="badge badge-off">{words.expired}</span>
                  ) : (
                    <span className="badge badge-on">{words.active}</span>
                  )}
                </td>
                <td data-label={words.actions}>
                  {token.revokedAt === null ? (
                    <button
                      type="button"
                      className="button danger-outline small"
                      disabled={busy}
                      aria-label={words.revokeNamed(token.name)}
                      onClick={() => {
                        void revoke(token);
                      }}
                    >
                      {words.revoke}
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
