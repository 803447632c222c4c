import { useState } from 'react';
import { api } from '../api';
import { setFlash } from '../flash';
import { useI18n } from '../i18n/language';
import { StatusLine } from '../layout/status-line';
import { navigate, setLeaveGuard } from '../navigation';
import type { ApplicationSecretAnswer, ApplicationView } from '../types';
import { useAction } from '../use-action';

interface DangerZoneProps {
  readonly client: ApplicationView;
  /** The new secret, to show once. */
  readonly onRotated: (secret: string) => void;
}

/**
 * The two changes that break the application until it is set up again, each
 * asked twice: a new secret for a confidential application (the old one
 * stops working at once), and its deletion (its codes and tokens too).
 */
export function DangerZone({ client, onRotated }: DangerZoneProps) {
  const { t } = useI18n();
  const words = t.applications;
  const [asking, setAsking] = useState<'rotate' | 'delete' | undefined>();
  const { busy, status, run } = useAction();
  const path = `/oidc-clients/${encodeURIComponent(client.clientId)}`;

  const rotate = () =>
    run(
      () => api<ApplicationSecretAnswer>('POST', `${path}/secret`),
      (answer) => {
        if (answer.secret !== null) onRotated(answer.secret);
        return words.rotated(client.name);
      },
    );

  const remove = () =>
    run(
      () => api('DELETE', path),
      () => {
        setFlash({ kind: 'success', text: words.deleted(client.name) });
        // Deleted: edits left in its form are no loss.
        setLeaveGuard(undefined);
        navigate('/applications');
        return words.deleted(client.name);
      },
    );

  const confirm = (question: string, yes: string, act: () => Promise<void>) => (
    <div className="row-actions" role="group" aria-label={question}>
      <span>{question}</span>
      <button
        type="button"
        className="button danger small"
        disabled={busy}
        onClick={() => {
          setAsking(undefined);
          void act();
        }}
      >
        {yes}
      </button>
      <button
        type="button"
        className="button secondary small"
        onClick={() => {
          setAsking(undefined);
        }}
      >
        {t.shell.cancel}
      </button>
    </div>
  );

  return (
    <section className="section danger-zone" aria-labelledby="danger-heading">
      {client.public ? null : (
        <>
          <h2 id="secret-heading">{words.secret}</h2>
          <p className="hint">{words.secretKept}</p>
          {asking === 'rotate' ? (
            confirm(words.rotateQuestion, words.yesRotate, rotate)
          ) : (
            <button
              type="button"
              className="button secondary"
              disabled={busy}
              onClick={() => {
                setAsking('rotate');
              }}
            >
              {words.rotate}
            </button>
          )}
        </>
      )}
      <h2 id="danger-heading">{words.danger}</h2>
      {asking === 'delete' ? (
        confirm(words.deleteQuestion(client.name), words.yesDelete, remove)
      ) : (
        <button
          type="button"
          className="button danger-outline"
          disabled={busy}
          onClick={() => {
            setAsking('delete');
          }}
        >
          {words.delete}
        </button>
      )}
      <StatusLine status={status} />
    </section>
  );
}
