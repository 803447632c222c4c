import { useEffect, useRef, useState } from 'react';
import { FieldLink } from '../entry-form/field-link';
import { focusField } from '../entry-form/focus-field';
import { fieldId } from '../entry-form/entry-draft';
import { blamedByTraceStep } from './blamed-field';
import { inWords, provisioningLine, stepName } from './trace-words';
import { api, describeFailure } from '../api';
import type { EntryBody, TraceAnswer } from '../types';
import { useI18n } from '../i18n/language';

interface TrialSignInPanelProps {
  /** The entry as the form holds it now. */
  readonly entry: EntryBody;
  /** The stored entry's id, when editing one. */
  readonly existingId: string | undefined;
  /** Whether the form holds changes not saved yet: an unedited stored entry is tested as itself. */
  readonly edited: boolean;
  /** The credentials the test needs that the form leaves empty (missing-credentials.ts). */
  readonly missing: readonly ('appid' | 'appsecret')[];
}

/**
 * The localStorage key that shortens how long the panel waits before it
 * says nothing came back. Only the browser tests set it
 * (src/features/admin-console/test-sign-in-browser.test.ts), to a second,
 * rather than drive a fake clock while the provider's window hangs.
 */
const quietAfterKey = 'ssogate.testSignIn.quietAfterMs';

/** A minute, unless the localStorage key above says otherwise. */
function quietAfterMs(): number {
  try {
    const set = Number(window.localStorage.getItem(quietAfterKey));
    return Number.isFinite(set) && set > 0 ? set : 60_000;
  } catch {
    // Storage refused (a privacy setting): the minute stands.
    return 60_000;
  }
}

/**
 * Starts a test sign-in (docs/console.md#test-sign-in) with the entry as the
 * form has it, opens the provider in a new window and shows the trace as
 * the gateway records it, asking once a second until it is done. Nothing
 * back after a minute, it says so and offers to cancel; a window closed
 * before the provider called back is reported instead of waited for.
 */
export function TrialSignInPanel({ entry, existingId, edited, missing }: TrialSignInPanelProps) {
  const { t: messages } = useI18n();
  const t = messages.trialSignIn;
  const [testId, setTestId] = useState<string | undefined>();
  const [answer, setAnswer] = useState<TraceAnswer | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [starting, setStarting] = useState(false);
  const [copied, setCopied] = useState(false);
  const [quiet, setQuiet] = useState(false);
  /** The provider's window of the test under way; its `closed` flag is read while waiting. */
  const popup = useRef<Window | null>(null);
  /** Counts starts and cancels: an answer for an earlier one is ignored. */
  const run = useRef(0);

  useEffect(() => {
    if (testId === undefined) return undefined;
    let stopped = false;
    const poll = async () => {
      // Read before asking: closed then and still waiting after, the
      // provider never called back from that window.
      const closed = popup.current?.closed === true;
      try {
        const next = await api<TraceAnswer>('GET', `/test-sign-ins/${encodeURIComponent(testId)}`);
        if (stopped) return;
        if (closed && next.trace.status === 'waiting') {
          popup.current = null;
          setTestId(undefined);
          setAnswer(undefined);
          setFailure(t.windowClosed);
          return;
        }
        setAnswer(next);
        if (next.trace.status !== 'done') timer = window.setTimeout(() => void poll(), 1000);
      } catch (error) {
        if (!stopped) setFailure(describeFailure(error));
      }
    };
    let timer = window.setTimeout(() => void poll(), 0);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [testId, t]);

  // Nothing back yet: from the click until the provider calls back.
  const waitingForProvider =
    starting || (testId !== undefined && (answer?.trace.status ?? 'waiting') === 'waiting');
  // Shown only while still waiting; start and cancel clear it.
  useEffect(() => {
    if (!waitingForProvider) return undefined;
    const timer = window.setTimeout(() => {
      setQuiet(true);
    }, quietAfterMs());
    return () => {
      window.clearTimeout(timer);
    };
  }, [waitingForProvider]);

  /** Closes the provider's window and puts the panel back as it was before the test. */
  const cancel = () => {
    run.current += 1;
    popup.current?.close();
    popup.current = null;
    setTestId(undefined);
    setAnswer(undefined);
    setFailure(undefined);
    setStarting(false);
    setCopied(false);
    setQuiet(false);
  };

  const start = async () => {
    if (missing.length > 0) {
      // Named by their labels, and no window opened: the test could only fail.
      const labels = missing.map((field) => messages.entryForm.fields[field]);
      setAnswer(undefined);
      setFailure(t.missingCredentials(labels.join(messages.entryForm.listSeparator)));
      return;
    }
    // Opened now, while the click counts as the user's: a window opened after
    // the answer would be blocked.
    const opened = window.open('', '_blank');
    run.current += 1;
    const thisRun = run.current;
    popup.current = opened;
    setTestId(undefined);
    setQuiet(false);
    setStarting(true);
    setFailure(undefined);
    setAnswer(undefined);
    setCopied(false);
    try {
      // A saved entry left as it is tests as itself: the trace and the audit
      // event then say so, not "unsaved draft".
      const started =
        existingId !== undefined && !edited
          ? await api<{ id: string; url: string }>(
              'POST',
              `/entries/${encodeURIComponent(existingId)}/test-sign-in`,
            )
          : await api<{ id: string; url: string }>('POST', '/entries/test-sign-in', {
              body: { entry, ...(existingId === undefined ? {} : { existingId }) },
            });
      if (run.current !== thisRun) return;
      if (opened === null) {
        setFailure(t.popupBlocked(started.url));
      } else {
        opened.opener = null;
        opened.location.href = started.url;
      }
      setTestId(started.id);
    } catch (error) {
      opened?.close();
      if (run.current === thisRun) setFailure(describeFailure(error));
    } finally {
      if (run.current === thisRun) setStarting(false);
    }
  };

  const trace = answer?.trace;
  return (
    <section className="trace-panel" aria-labelledby="test-sign-in-heading">
      <h2 id="test-sign-in-heading">{t.heading}</h2>
      <p className="hint">{t.hint}</p>
      <button
        type="button"
        className="button"
        disabled={starting}
        onClick={() => {
          void start();
        }}
      >
        {starting ? t.starting : t.start}
      </button>
      <div className="trace-result" role="status" aria-live="polite">
        {failure === undefined ? null : <p className="status status-error">{failure}</p>}
        {quiet && waitingForProvider ? (
          <p className="status trace-quiet">
            {t.nothingBack}{' '}
            <button type="button" className="button secondary" onClick={cancel}>
              {messages.shell.cancel}
            </button>
          </p>
        ) : null}
        {trace === undefined ? null : <TraceView trace={trace} />}
        {answer === undefined || trace?.status !== 'done' ? null : (
          <p>
            <button
              type="button"
              className="button secondary"
              onClick={() => {
                void navigator.clipboard.writeText(answer.text).then(() => {
                  setCopied(true);
                });
              }}
            >
              {t.copy}
            </button>{' '}
            {copied ? t.copied : null}
            <textarea
              className="code-input trace-text"
              readOnly
              rows={4}
              value={answer.text}
              aria-label={t.copy}
            />
          </p>
        )}
      </div>
    </section>
  );
}

function TraceView({ trace }: { readonly trace: TraceAnswer['trace'] }) {
  const { t: messages } = useI18n();
  const t = messages.trialSignIn;
  const colon = messages.shell.colon;
  if (trace.status === 'waiting') return <p className="status">{t.waiting}</p>;
  if (trace.status === 'running') return <p className="status">{t.running}</p>;
  return (
    <div className="trace">
      {trace.outcome === 'success' ? (
        <p className="status status-success">{t.success}</p>
      ) : (
        <p className="status status-error">
          {t.failure(trace.error?.code ?? '', inWords(trace.error?.message ?? '', t))}
        </p>
      )}
      <ol className="trace-steps">
        {trace.steps.map((step, index) => (
          <li key={`${step.name}-${index}`} className={`trace-step trace-${step.outcome}`}>
            <h3>{t.step(stepName(step.name, t), step.outcome)}</h3>
            {step.calls.map((call, callIndex) => (
              <pre key={callIndex} className="code-block">
                {[
                  `> ${call.method} ${call.url}`,
                  ...Object.entries(call.headers).map(([name, value]) => `> ${name}: ${value}`),
                  ...(call.body === null ? [] : [`> ${call.body}`]),
                  `< ${call.status === null ? t.noAnswer : t.status(call.status, call.durationMs)}`,
                  ...(call.responseExcerpt === null ? [] : [`< ${call.responseExcerpt}`]),
                ].join('\n')}
              </pre>
            ))}
            {step.results.length === 0 ? null : (
              <ul className="trace-results">
                {step.results.map((result, resultIndex) => (
                  <li key={resultIndex} className={`trace-result trace-${result.outcome}`}>
                    <code>{result.label}</code> →{' '}
                    {result.error !== undefined
                      ? `${result.error.code}${colon}${inWords(result.error.message, t)}`
                      : result.outcome === 'missing'
                        ? t.missing
                        : JSON.stringify(result.value ?? null)}
                  </li>
                ))}
              </ul>
            )}
            {step.error === undefined ? null : (
              <p className="status status-error">
                {step.error.code}
                {colon}
                {inWords(step.error.message, t)}
              </p>
            )}
            <FieldLink field={blamedByTraceStep(step)} />
          </li>
        ))}
      </ol>
      {trace.user === null ? null : (
        <p>
          {t.mappedUser}
          {colon}
          <code>{JSON.stringify(trace.user)}</code>
        </p>
      )}
      {trace.provisioning === null ? null : (
        <p>{t.provisioning(provisioningLine(trace.provisioning, trace.user?.userId, t))}</p>
      )}
      {trace.error?.code === 'account_conflict' ? <ConflictSettings /> : null}
    </div>
  );
}

/**
 * account_conflict names no setting; these two resolve it
 * (docs/entries.md#user-ids-from-several-entries), each a link to its box
 * in the form above.
 */
function ConflictSettings() {
  const { t } = useI18n();
  const labels = t.entryForm.fields;
  const link = (
    field: 'provisioning.adoptExistingUsers' | 'provisioning.userIdScope',
    says: (setting: string) => string,
  ) => (
    <a
      href={`#${fieldId(field)}`}
      onClick={(event) => {
        event.preventDefault();
        focusField(field);
      }}
    >
      {says(labels[field])}
    </a>
  );
  return (
    <div className="trace-conflict">
      <p>{t.trialSignIn.conflict}</p>
      <ul>
        <li>{link('provisioning.adoptExistingUsers', t.trialSignIn.conflictAdopt)}</li>
        <li>{link('provisioning.userIdScope', t.trialSignIn.conflictOwnIds)}</li>
      </ul>
    </div>
  );
}
