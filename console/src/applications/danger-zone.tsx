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
  const words = useI18n().t.applications;
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

  const asked = (action: 'rotate' | 'delete', props: AskedTwiceProps) => (
    <AskedTwice
      {...props}
      asking={asking === action}
      busy={busy}
      onAsk={(ask) => {
        setAsking(ask ? action : undefined);
      }}
    />
  );

  return (
    <section className="section danger-zone" aria-labelledby="danger-heading">
      {client.public ? null : (
        <>
          <h2 id="secret-heading">{words.secret}</h2>
          <p className="hint">{words.secretKept}</p>
          {asked('rotate', {
            label: words.rotate,
            className: 'button secondary',
            question: words.rotateQuestion,
            yes: words.yesRotate,
            onYes: rotate,
          })}
        </>
      )}
      <h2 id="danger-heading">{words.danger}</h2>
      {asked('delete', {
        label: words.delete,
        className: 'button danger-outline',
        question: words.deleteQuestion(client.name),
        yes: words.yesDelete,
        onYes: remove,
      })}
      <StatusLine status={status} />
    </section>
  );
}

interface AskedTwiceProps {
  readonly label: string;
  readonly className: string;
  readonly question: string;
  readonly yes: string;
  readonly onYes: () => Promise<void>;
}

/** A button that asks its question first: Yes acts, Cancel goes back to the button. */
function AskedTwice(
  props: AskedTwiceProps & {
    readonly asking: boolean;
    readonly busy: boolean;
    readonly onAsk: (asking: boolean) => void;
  },
) {
  const { t } = useI18n();
  if (!props.asking) {
    return (
      <button
        type="button"
        className={props.className}
        disabled={props.busy}
        onClick={() => {
          props.onAsk(true);
        }}
      >
        {props.label}
      </button>
    );
  }
  return (
    <div className="row-actions" role="group" aria-label={props.question}>
      <span>{props.question}</span>
      <button
        type="button"
        className="button danger small"
        disabled={props.busy}
        onClick={() => {
          props.onAsk(false);
          void props.onYes();
        }}
      >
        {props.yes}
      </button>
      <button
        type="button"
        className="button secondary small"
        onClick={() => {
          props.onAsk(false);
        }}
      >
        {t.shell.cancel}
      </button>
    </div>
  );
}
