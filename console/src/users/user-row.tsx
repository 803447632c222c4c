import { formatTime } from '../api';
import { useI18n } from '../i18n/language';
import type { UserView } from '../types';
import type { UserAction } from './users-page';
import { shownName } from './shown-name';

interface UserRowProps {
  readonly user: UserView;
  readonly busy: boolean;
  readonly onAction: (action: UserAction) => void;
}

export function UserRow({ user, busy, onAction }: UserRowProps) {
  const { t, language } = useI18n();
  const words = t.users;
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
      <th scope="row" data-label={words.user}>
        <span className="user-id">{user.userId}</span>
        {user.userName === null ? null : (
          <span className="user-name">{shownName(user, t.shell.administrator)}</span>
        )}
      </th>
      <td data-label={words.email}>{user.email ?? '—'}</td>
      <td data-label={words.source}>{user.sourceEntryId ?? words.localAccount}</td>
      <td data-label={words.status}>
        <span className={user.enabled ? 'badge badge-on' : 'badge badge-off'}>
          {user.enabled ? words.active : words.locked}
        </span>
        {user.isAdmin ? <span className="badge badge-default">{words.administrator}</span> : null}
      </td>
      <td data-label={words.lastSignIn}>{formatTime(user.lastSignInAt, language)}</td>
      <td data-label={words.actions}>
        <div className="row-actions">
          {user.enabled
            ? button('lock', words.lock, 'button danger-outline small')
            : button('unlock', words.unlock)}
          {user.isAdmin
            ? button('revoke-admin', words.revokeAdmin)
            : button('grant-admin', words.grantAdmin)}
          {button('end-sessions', words.endSessions)}
          {button('second-factors/reset', words.resetFactors, 'button danger-outline small')}
        </div>
      </td>
    </tr>
  );
}
