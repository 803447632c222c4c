import { useState } from 'react';
import { api, describeFailure } from '../api';
import { useI18n } from '../i18n/language';
import type { EntryBody, TestResult } from '../types';
import { TestResultView } from './samples-result-view';
import { entryTestRequest, extraSamplesOf } from './pasted-samples';

interface TestPanelProps {
  /** The entry as the form holds it now (saved or not). */
  readonly entry: EntryBody;
  readonly existingId: string | undefined;
}

/**
 * Runs the entry's processing over pasted sample responses (POST
 * /_sso/api/entry-test): the application-token answer when the entry fetches
 * one, the token and user-info answers, and one answer per call after user
 * info. No call to the server, nothing stored. Shows the tokens masked and
 * the user row that would be written, or the coded error with its position.
 */
export function TestPanel({ entry, existingId }: TestPanelProps) {
  const w = useI18n().t.entryForm.samples;
  const [tokenResponse, setTokenResponse] = useState('');
  const [userInfoResponse, setUserInfoResponse] = useState('');
  const [appTokenResponse, setAppTokenResponse] = useState('');
  const [callResponses, setCallResponses] = useState<Record<string, string>>({});
  const extra = extraSamplesOf(entry);
  const [result, setResult] = useState<TestResult | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    setFailure(undefined);
    try {
      setResult(
        await api<TestResult>('POST', '/entry-test', {
          body: entryTestRequest(entry, existingId, {
            appTokenResponse,
            tokenResponse,
            userInfoResponse,
            callResponses,
          }),
        }),
      );
    } catch (error) {
      setResult(undefined);
      setFailure(describeFailure(error));
    } finally {
      setRunning(false);
    }
  };
  return (
    <section className="test-panel" aria-labelledby="test-panel-heading">
      <h2 id="test-panel-heading">{w.heading}</h2>
      <p className="hint">{w.hint}</p>
      {extra.appToken ? (
        <SampleBox
          id="sample-app-token-response"
          label={w.appToken}
          rows={4}
          value={appTokenResponse}
          placeholder='{"errcode":0,"access_token":"...","expires_in":7200}'
          onChange={setAppTokenResponse}
        />
      ) : null}
      <div className="two-columns">
        <SampleBox
          id="sample-token-response"
          label={w.token}
          rows={6}
          value={tokenResponse}
          placeholder='{"access_token":"...","expires_in":3600}'
          onChange={setTokenResponse}
        />
        <SampleBox
          id="sample-userinfo-response"
          label={w.userInfo}
          rows={6}
          value={userInfoResponse}
          placeholder='{"user":{"userId":"alice","email":"alice@example.com"}}'
          onChange={setUserInfoResponse}
        />
      </div>
      {extra.calls.map((name) => (
        <SampleBox
          key={name}
          id={`sample-call-${name}`}
          label={w.call(name)}
          rows={4}
          value={callResponses[name] ?? ''}
          onChange={(value) => {
            setCallResponses((current) => ({ ...current, [name]: value }));
          }}
        />
      ))}
      <button
        type="button"
        className="button"
        disabled={running}
        onClick={() => {
          void run();
        }}
      >
        {running ? w.running : w.run}
      </button>
      <div className="test-result" role="status" aria-live="polite">
        {failure === undefined ? null : <p className="status status-error">{failure}</p>}
        {result === undefined ? null : <TestResultView result={result} />}
      </div>
    </section>
  );
}

interface SampleBoxProps {
  readonly id: string;
  readonly label: string;
  readonly rows: number;
  readonly value: string;
  readonly placeholder?: string;
  readonly onChange: (value: string) => void;
}

/** One pasted server answer: a labelled code box. */
function SampleBox({ id, label, rows, value, placeholder, onChange }: SampleBoxProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="code-input"
        rows={rows}
        spellCheck={false}
        value={value}
        placeholder={placeholder}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
    </div>
  );
}
