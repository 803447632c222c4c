import { formatTime } from '../api';
import type { AuditEventView } from '../types';
import { useI18n } from '../i18n/language';
import { readableDetail } from './audit-detail';

/** One audit event; a failure names its code and the reference id its error page showed. */
export function AuditRow({ event }: { readonly event: AuditEventView }) {
  const { t, language } = useI18n();
  const words = t.audit;
  const kinds: Readonly<Record<string, string>> = words.kinds;
  return (
    <tr>
      <td data-label={words.time}>{formatTime(event.at, language)}</td>
      <td data-label={words.event}>
        {Object.hasOwn(kinds, event.kind) ? kinds[event.kind] : event.kind}
        {event.actor === null ? null : <span className="meta"> {words.by(event.actor)}</span>}
      </td>
      <td data-label={words.outcome}>
        <span className={event.outcome === 'success' ? 'badge badge-on' : 'badge badge-off'}>
          {event.outcome === 'success' ? words.success : words.failure}
        </span>
      </td>
      <td data-label={words.entry}>{event.entryId ?? '—'}</td>
      <td data-label={words.user}>{event.userId ?? '—'}</td>
      <td data-label={words.codeAndReference}>
        {event.code === null ? '—' : <code>{event.code}</code>}
        {event.reference === null ? null : (
          <span className="meta"> {words.ref(event.reference)}</span>
        )}
      </td>
      <td data-label={words.details} className="detail-cell">
        <EventDetail detail={event.detail} />
      </td>
    </tr>
  );
}

/** What an event did, each changed field before and after, then the other facts. */
function EventDetail({ detail }: { readonly detail: AuditEventView['detail'] }) {
  const { t } = useI18n();
  const { action, changes, facts } = readableDetail(detail, t);
  const words = t.audit;
  if (action === undefined && changes.length === 0 && facts.length === 0) return <>—</>;
  return (
    <div className="event-detail">
      {action === undefined ? null : <p className="event-action">{action}</p>}
      {changes.length === 0 ? null : (
        <ul className="changes" aria-label={words.changedFields}>
          {changes.map((change) => (
            <li key={change.label}>
              <span className="change-field">{change.label}</span>:{' '}
              <span className="change-value">{change.before}</span>
              <span aria-hidden="true"> → </span>
              <span className="visually-hidden"> {words.became} </span>
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
