import { useState } from 'react';
import type { SyntheticEvent } from 'react';
import { ApiError, api } from '../api';
import { TextField } from '../entry-form/text-field';
import { Page } from '../layout/page';
import { StatusLine } from '../layout/status-line';
import { useAction } from '../use-action';
import type { PasswordDraft, PasswordField } from './password-form';
import { fieldOfRefusal, minimumLength, passwordLabels, passwordProblems } from './password-form';

const emptyDraft: PasswordDraft = { current: '', next: '', confirm: '' };

/**
 * The signed-in administrator's own password (POST /_sso/api/me/password).
 * Their other sessions end with the change; this one stays.
 */
export function PasswordPage() {
  const [draft, setDraft] = useState(emptyDraft);
  const [touched, setTouched] = useState<ReadonlySet<PasswordField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [refusal, setRefusal] = useState<{ field: PasswordField; message: string }>();
  const { busy, status, run } = useAction();
  const problems = passwordProblems(draft, touched, submitted);

  const save = async (event: SyntheticEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setRefusal(undefined);
    if (Object.keys(passwordProblems(draft, touched, true)).length > 0) return;
    await run(
      async () => {
        try {
          return await api<{ sessionsEnded: number }>('POST', '/me/password', {
            body: { currentPassword: draft.current, newPassword: draft.next },
          });
        } catch (failure) {
          const field = failure instanceof ApiError ? fieldOfRefusal(failure.code) : undefined;
          if (field !== undefined && failure instanceof ApiError) {
            setRefusal({ field, message: failure.detail ?? failure.message });
          }
          throw failure;
        }
      },
      ({ sessionsEnded }) => {
        setDraft(emptyDraft);
        setTouched(new Set());
        setSubmitted(false);
        return `Password changed. ${sessionsEnded} other session${sessionsEnded === 1 ? '' : 's'} of your account ended.`;
      },
    );
  };

  const field = (name: PasswordField, autoComplete: string, hint?: string) => {
    const message = problems[name] ?? (refusal?.field === name ? refusal.message : undefined);
    return (
      <TextField
        field={`password-${name}`}
        label={passwordLabels[name]}
        type="password"
        autoComplete={autoComplete}
        value={draft[name]}
        required
        {...(hint === undefined ? {} : { hint })}
        problems={message === undefined ? [] : [{ field: name, message }]}
        onChange={(value) => {
          setDraft((before) => ({ ...before, [name]: value }));
          if (refusal?.field === name) setRefusal(undefined);
        }}
        onBlur={() => {
          setTouched((before) => new Set(before).add(name));
        }}
      />
    );
  };

  return (
    <Page title="Your password">
      <p className="lead">
        The password of the local account you are signed in with. Changing it signs the account out
        everywhere else; you stay signed in here.
      </p>
      <form className="password-form" noValidate onSubmit={(event) => void save(event)}>
        {field('current', 'current-password')}
        {field(
          'next',
          'new-password',
          `At least ${minimumLength} characters, not the current one and not containing your user id.`,
        )}
        {field('confirm', 'new-password')}
        <button type="submit" className="button" disabled={busy}>
          Change password
        </button>
      </form>
      <StatusLine status={status} />
    </Page>
  );
}
