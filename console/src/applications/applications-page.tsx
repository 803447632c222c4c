import { useCallback } from 'react';
import { api, describeFailure, formatTime } from '../api';
import { takeFlash } from '../flash';
import { useI18n } from '../i18n/language';
import { EmptyState } from '../layout/empty-state';
import { Page } from '../layout/page';
import { StatusLine } from '../layout/status-line';
import { Link } from '../link';
import type { ApplicationList } from '../types';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

/**
 * System Settings › Security › Single Sign-On › Applications: the
 * applications that sign in through the gateway's OpenID Provider.
 */
export function ApplicationsPage() {
  const load = useCallback(
    (signal: AbortSignal) =>
      api<ApplicationList>('GET', '/oidc-clients', { signal }).then((body) => body.clients),
    [],
  );
  const { data: clients, error } = useLoad(load);
  const { status } = useAction(takeFlash);
  const { t, language } = useI18n();
  const words = t.applications;
  return (
    <Page
      title={t.nav.applications}
      trail={[{ label: t.nav.entries, to: '/' }]}
      actions={
        <Link to="/applications/new" className="button">
          {words.newApplication}
        </Link>
      }
    >
      <p className="lead">{words.lead}</p>
      <StatusLine status={status} />
      {error === undefined ? null : <p className="status status-error">{describeFailure(error)}</p>}
      {clients === undefined ? (
        error === undefined ? (
          <p>{words.loading}</p>
        ) : null
      ) : clients.length === 0 ? (
        <>
          <EmptyState
            title={words.emptyTitle}
            text={words.emptyText}
            action={{ to: '/applications/new', label: words.emptyButton }}
          />
          {/* The gateway serves no documentation and has no address of it to link to: the
            page names the file that ships with it. */}
          <p className="hint">
            {words.docsLink} <code>docs/openid-provider.md</code>
          </p>
        </>
      ) : (
        <table className="data-table applications-table">
          <caption className="visually-hidden">{words.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{words.name}</th>
              <th scope="col">{words.clientId}</th>
              <th scope="col">{words.kind}</th>
              <th scope="col">{words.redirectUris}</th>
              <th scope="col">{words.entries}</th>
              <th scope="col">{words.refreshTokens}</th>
              <th scope="col">{words.updated}</th>
            </tr>
          </thead>
          <tbody>
            {clients.map((client) => (
              <tr key={client.clientId}>
                <th scope="row" data-label={words.name}>
                  <Link to={`/applications/${encodeURIComponent(client.clientId)}`}>
                    {client.name}
                  </Link>
                </th>
                <td data-label={words.clientId}>
                  <code>{client.clientId}</code>
                </td>
                <td data-label={words.kind}>{client.public ? words.public : words.confidential}</td>
                <td data-label={words.redirectUris}>{client.redirectUris.length}</td>
                <td data-label={words.entries}>
                  {client.allowedEntries.length === 0
                    ? words.everyEntry
                    : client.allowedEntries.join(t.entryForm.listSeparator)}
                </td>
                <td data-label={words.refreshTokens}>
                  <span className={client.refreshTokens ? 'badge badge-on' : 'badge badge-off'}>
                    {client.refreshTokens ? words.on : words.off}
                  </span>
                </td>
                <td data-label={words.updated}>{formatTime(client.updatedAt, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
