import { formatTime } from '../api';
import type { AuditEventView } from '../types';

const kinds: Readonly<Record<string, string>> = {
  sign_in: 'Sign-in',
  sign_out: 'Sign-out',
  entry_change: 'Entry change',
  user_change: 'User change',
  token_change: 'API token change',
};

/** One audit event; a failure names its code and the reference id its error page showed. */
export function AuditRow({ event }: { readonly event: AuditEventView }) {
  const detail = event.detail === null ? '' : JSON.stringify(event.detail);
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
        {detail === '' ? '—' : <code>{detail}</code>}
      </td>
    </tr>
  );
}
