import { useState } from 'react';
import type { SyntheticEvent } from 'react';
import { ApiError, api, formatNumber } from '../api';
import { TextField } from '../entry-form/text-field';
import { useI18n } from '../i18n/language';
import { Page } from '../layout/page';
import { StatusLine } from '../layout/status-line';
import { useAction } from '../use-action';
import type { PasswordDraft, PasswordField } from './password-form';
import { fieldOfRefusal, minimumLength, passwordProblems } from './password-form';

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
  const { t } = useI18n();
  const words = t.password;
  const problems = passwordProblems(draft, touched, submitted, words);

  const save = async (event: SyntheticEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setRefusal(undefined);
    if (Object.keys(passwordProblems(draft, touched, true, words)).length > 0) return;
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
        return words.changed(sessionsEnded, formatNumber(sessionsEnded));
      },
    );
  };

  const field = (name: PasswordField, autoComplete: string, hint?: string) => {
    const message = problems[name] ?? (refusal?.field === name ? refusal.message : undefined);
    return (
      <TextField
        field={`password-${name}`}
        label={words.labels[name]}
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
    <Page title={t.nav.password}>
      <p className="lead">{words.lead}</p>
      <form className="password-form" noValidate onSubmit={(event) => void save(event)}>
        {field('current', 'current-password')}
        {field('next', 'new-password', words.hint(minimumLength))}
        {field('confirm', 'new-password')}
        <button type="submit" className="button" disabled={busy}>
          {words.submit}
        </button>
      </form>
      <StatusLine status={status} />
    </Page>
  );
}
