import { formatTime } from '../api';
import type { UserView } from '../types';
import type { UserAction } from './users-page';

interface UserRowProps {
  readonly user: UserView;
  readonly busy: boolean;
  readonly onAction: (action: UserAction) => void;
}

export function UserRow({ user, busy, onAction }: UserRowProps) {
  const button = (action: UserAction, label: string, className = 'button secondary small') => (
    <button
      type="button"
      className={className}
      disabled={busy}
      aria-label={`${label}: ${user.userId}`}
      onClick={() => {
        onAction(action);
      }}
    >
      {label}
    </button>
  );
  return (
    <tr>
      <th scope="row" data-label="User">
        <span className="user-id">{user.userId}</span>
        {user.userName === null ? null : <span className="user-name">{user.userName}</span>}
      </th>
      <td data-label="E-mail">{user.email ?? '—'}</td>
      <td data-label="Source">{user.sourceEntryId ?? 'local account'}</td>
      <td data-label="Status">
        <span className={user.enabled ? 'badge badge-on' : 'badge badge-off'}>
          {user.enabled ? 'Active' : 'Locked'}
        </span>
        {user.isAdmin ? <span className="badge badge-default">Administrator</span> : null}
      </td>
      <td data-label="Last sign-in">{formatTime(user.lastSignInAt)}</td>
      <td data-label="Actions">
        <div className="row-actions">
          {user.enabled
            ? button('lock', 'Lock', 'button danger-outline small')
            : button('unlock', 'Unlock')}
          {user.isAdmin
            ? button('revoke-admin', 'Revoke admin')
            : button('grant-admin', 'Grant admin')}
          {button('end-sessions', 'End sessions')}
        </div>
      </td>
    </tr>
  );
}
