import { testSignInTexts } from '../test-sign-in/texts';
import { formatTime } from '../api';
import type { AuditEventView } from '../types';
import { readableDetail } from './audit-detail';

const kinds: Readonly<Record<string, string>> = {
  sign_in: 'Sign-in',
  sign_out: 'Sign-out',
  entry_change: 'Entry change',
  user_change: 'User change',
  token_change: 'API token change',
  test_sign_in: testSignInTexts.auditKind,
};

/** One audit event; a failure names its code and the reference id its error page showed. */
export function AuditRow({ event }: { readonly event: AuditEventView }) {
  return (
    <tr>
      <td data-label="Time">{formatTime(event.at)}</td>
      <td data-label="Event">
        {kinds[event.kind] ?? event.kind}
        {event.actor === null ? null : <span className="meta"> by {event.actor}</span>}
      </td>
      <td data-label="Outcome">
        <span className={event.outcome === 'success' ? 'badge badge-on' : 'badge badge-off'}>
          {event.outcome === 'success' ? 'Success' : 'Failure'}
        </span>
      </td>
      <td data-label="Entry">{event.entryId ?? '—'}</td>
      <td data-label="User">{event.userId ?? '—'}</td>
      <td data-label="Code and reference">
        {event.code === null ? '—' : <code>{event.code}</code>}
        {event.reference === null ? null : <span className="meta"> ref {event.reference}</span>}
      </td>
      <td data-label="Details" className="detail-cell">
        <EventDetail detail={event.detail} />
      </td>
    </tr>
  );
}

/** What an event did, each changed field before and after, then the other facts. */
function EventDetail({ detail }: { readonly detail: AuditEventView['detail'] }) {
  const { action, changes, facts } = readableDetail(detail);
  if (action === undefined && changes.length === 0 && facts.length === 0) return <>—</>;
  return (
    <div className="event-detail">
      {action === undefined ? null : <p className="event-action">{action}</p>}
      {changes.length === 0 ? null : (
        <ul className="changes" aria-label="Changed fields">
          {changes.map((change) => (
            <li key={change.label}>
              <span className="change-field">{change.label}</span>:{' '}
              <span className="change-value">{change.before}</span>
              <span aria-hidden="true"> → </span>
              <span className="visually-hidden"> became </span>
              <span className="change-value">{change.after}</span>
            </li>
          ))}
        </ul>
      )}
      {facts.length === 0 ? null : (
        <dl className="facts">
          {facts.map((fact) => (
            <div key={fact.name}>
              <dt>{fact.name}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
