import { useState } from 'react';
import { formatTime } from '../api';
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
  return (
    <tr>
      <td data-label="Order">
        <div className="row-actions" role="group" aria-label={`Order of ${entry.name}`}>
          <button
            type="button"
            className="button secondary small icon"
            disabled={busy || first}
            aria-label={`Move ${entry.name} up`}
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
            aria-label={`Move ${entry.name} down`}
            onClick={() => {
              onMove(1);
            }}
          >
            ↓
          </button>
        </div>
      </td>
      <th scope="row" data-label="Name">
        <Link to={`/entries/${encodeURIComponent(entry.id)}`}>{entry.name}</Link>
        {entry.type === 'extension' ? <span className="badge">extension</span> : null}
        {entry.broken === null ? null : (
          <span className="badge badge-off" title={entry.broken}>
            Broken: {entry.broken}
          </span>
        )}
      </th>
      <td data-label="Id">
        <code>{entry.id}</code>
      </td>
      <td data-label="Enabled">
        <span className={entry.enabled ? 'badge badge-on' : 'badge badge-off'}>
          {entry.enabled ? 'Enabled' : 'Disabled'}
        </span>
      </td>
      <td data-label="Default">
        {entry.isDefault ? <span className="badge badge-default">Default</span> : '—'}
      </td>
      <td data-label="Last successful sign-in">{formatTime(entry.lastSuccessfulSignInAt)}</td>
      <td data-label="Last failed sign-in">{formatTime(entry.lastFailedSignInAt)}</td>
      <td data-label="Actions">
        {confirming ? (
          <div className="row-actions" role="group" aria-label={`Confirm deleting ${entry.name}`}>
            <span>Delete {entry.name}?</span>
            <button
              type="button"
              className="button danger small"
              disabled={busy}
              onClick={() => {
                setConfirming(false);
                onAction('delete');
              }}
            >
              Yes, delete
            </button>
            <button
              type="button"
              className="button secondary small"
              onClick={() => {
                setConfirming(false);
              }}
            >
              Cancel
            </button>
          </div>
        ) : (
          <div className="row-actions" role="group" aria-label={`Actions for ${entry.name}`}>
            <button
              type="button"
              className="button secondary small"
              disabled={busy}
              onClick={() => {
                onAction(entry.enabled ? 'disable' : 'enable');
              }}
            >
              {entry.enabled ? 'Disable' : 'Enable'}
            </button>
            <button
              type="button"
              className="button secondary small"
              disabled={busy || (!entry.enabled && !entry.isDefault)}
              onClick={() => {
                onAction(entry.isDefault ? 'clear-default' : 'make-default');
              }}
            >
              {entry.isDefault ? 'Remove default' : 'Make default'}
            </button>
            <button
              type="button"
              className="button danger-outline small"
              disabled={busy}
              onClick={() => {
                setConfirming(true);
              }}
            >
              Delete
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}
