import { useState } from 'react';
import { formatTime } from '../api';
import { entryKindOf } from '../entry-kinds/registry';
import { useI18n } from '../i18n/language';
import { Link } from '../link';
import type { EntryView } from '../types';
import type { EntryAction } from './entries-page';

interface EntryRowProps {
  readonly entry: EntryView;
  readonly first: boolean;
  readonly last: boolean;
  readonly busy: boolean;
  readonly onAction: (action: EntryAction) => void;
  readonly onMove: (by: -1 | 1) => void;
}

/** One entry with its switches; on a phone the row becomes a card (stylesheet). */
export function EntryRow({ entry, first, last, busy, onAction, onMove }: EntryRowProps) {
  const [confirming, setConfirming] = useState(false);
  const { t, language } = useI18n();
  const words = t.entries;
  const badge = entryKindOf(entry).badge(t);
  return (
    <tr>
      <td data-label={words.order}>
        <div className="row-actions" role="group" aria-label={words.orderOf(entry.name)}>
          <button
            type="button"
            className="button secondary small icon"
            disabled={busy || first}
            aria-label={words.moveUp(entry.name)}
            onClick={() => {
              onMove(-1);
            }}
          >
            ↑
          </button>
          <button
            type="button"
            className="button secondary small icon"
            disabled={busy || last}
            aria-label={words.moveDown(entry.name)}
            onClick={() => {
              onMove(1);
            }}
          >
            ↓
          </button>
        </div>
      </td>
      <th scope="row" data-label={words.name}>
        <Link to={`/entries/${encodeURIComponent(entry.id)}`}>{entry.name}</Link>
        {badge === undefined ? null : <span className="badge">{badge}</span>}
        {entry.broken === null ? null : (
          <span className="badge badge-off" title={entry.broken}>
            {words.broken} {entry.broken}
          </span>
        )}
      </th>
      <td data-label={words.id}>
        <code>{entry.id}</code>
      </td>
      <td data-label={words.enabled}>
        <span className={entry.enabled ? 'badge badge-on' : 'badge badge-off'}>
          {entry.enabled ? words.enabled : words.disabled}
        </span>
      </td>
      <td data-label={words.default}>
        {entry.isDefault ? <span className="badge badge-default">{words.default}</span> : '—'}
      </td>
      <td data-label={words.lastSuccess}>{formatTime(entry.lastSuccessfulSignInAt, language)}</td>
      <td data-label={words.lastFailure}>{formatTime(entry.lastFailedSignInAt, language)}</td>
      <td data-label={words.actions}>
        {confirming ? (
          <div className="row-actions" role="group" aria-label={words.confirmDelete(entry.name)}>
            <span>{words.deleteQuestion(entry.name)}</span>
            <button
              type="button"
              className="button danger small"
              disabled={busy}
              onClick={() => {
                setConfirming(false);
                onAction('delete');
              }}
            >
              {words.yesDelete}
            </button>
            <button
              type="button"
              className="button secondary small"
              onClick={() => {
                setConfirming(false);
              }}
            >
              {t.shell.cancel}
            </button>
          </div>
        ) : (
          <div className="row-actions" role="group" aria-label={words.actionsFor(entry.name)}>
            <button
              type="button"
              className="button secondary small"
              disabled={busy}
              onClick={() => {
                onAction(entry.enabled ? 'disable' : 'enable');
              }}
            >
              {entry.enabled ? words.disable : words.enable}
            </button>
            <button
              type="button"
              className="button secondary small"
              disabled={busy || (!entry.enabled && !entry.isDefault)}
              onClick={() => {
                onAction(entry.isDefault ? 'clear-default' : 'make-default');
              }}
            >
              {entry.isDefault ? words.removeDefault : words.makeDefault}
            </button>
            <button
              type="button"
              className="button danger-outline small"
              disabled={busy}
              onClick={() => {
                setConfirming(true);
              }}
            >
              {words.delete}
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}
