import { useState } from 'react';
import { api, describeFailure } from '../api';
import { useI18n } from '../i18n/language';
import type { CheckResult, Problem } from '../types';
import type { SecretDraft } from './entry-draft';
import { problemsOf } from './entry-draft';
import { settingsProblems } from './extension-settings';
import { SecretField } from './secret-field';
import { TextField } from './text-field';

interface ExtensionFieldsProps {
  /** The stored entry's id, whose secret the check uses when none is typed. */
  readonly entryId: string | undefined;
  readonly url: string;
  readonly secret: SecretDraft;
  readonly settings: string;
  readonly problems: readonly Problem[];
  readonly onChange: (change: {
    extensionUrl?: string;
    extensionSecret?: SecretDraft;
    extensionSettings?: string;
  }) => void;
}

/**
 * An entry of type extension (docs/extension.md): the service's URL, its shared
 * secret (write-only) and its settings, and a check that the service answers
 * its signed health route with this secret.
 */
export function ExtensionFields({
  entryId,
  url,
  secret,
  settings,
  problems,
  onChange,
}: ExtensionFieldsProps) {
  const words = useI18n().t.entryForm;
  const x = words.extension;
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | undefined>();
  const [checking, setChecking] = useState(false);
  const check = async () => {
    setChecking(true);
    setAnswer(undefined);
    try {
      const typed = secret.mode === 'replace' && secret.value !== '' ? secret.value : undefined;
      const result = await api<CheckResult>('POST', '/extension-check', {
        body: {
          extensionUrl: url,
          ...(typed === undefined ? {} : { extensionSecret: typed }),
          ...(typed === undefined && entryId !== undefined ? { entryId } : {}),
        },
      });
      setAnswer(
        result.ok
          ? { ok: true, text: x.answered(result.latencyMs) }
          : { ok: false, text: `${result.error.message} [${result.error.code}]` },
      );
    } catch (failure) {
      setAnswer({ ok: false, text: describeFailure(failure) });
    } finally {
      setChecking(false);
    }
  };
  return (
    <fieldset className="section">
      <legend>{x.legend}</legend>
      <TextField
        field="extensionUrl"
        label={words.fields.extensionUrl}
        type="url"
        value={url}
        required
        code
        placeholder="https://sso-extension.internal.example.com"
        onChange={(extensionUrl) => {
          onChange({ extensionUrl });
        }}
        problems={problemsOf(problems, 'extensionUrl')}
        hint={<p>{x.urlHint}</p>}
      />
      <SecretField
        field="extensionSecret"
        label={words.fields.extensionSecret}
        secret={secret}
        onChange={(extensionSecret) => {
          onChange({ extensionSecret });
        }}
        problems={problemsOf(problems, 'extensionSecret')}
        hint={x.secretHint}
      />
      <TextField
        field="extensionSettings"
        label={words.fields.extensionSettings}
        value={settings}
        multiline
        code
        onChange={(extensionSettings) => {
          onChange({ extensionSettings });
        }}
        problems={[
          ...problemsOf(problems, 'extensionSettings', true),
          ...settingsProblems(settings, words),
        ]}
        hint={<p>{x.settingsHint('key = value')}</p>}
      />
      <div className="inline-actions">
        <button
          type="button"
          className="button secondary"
          disabled={checking || url.trim() === ''}
          onClick={() => {
            void check();
          }}
        >
          {checking ? x.testing : x.test}
        </button>
        <div role="status" aria-live="polite">
          {answer === undefined ? null : (
            <p className={answer.ok ? 'status status-success' : 'status status-error'}>
              {answer.text}
            </p>
          )}
        </div>
      </div>
    </fieldset>
  );
}
