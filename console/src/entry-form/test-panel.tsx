import { useState } from 'react';
import { api, describeFailure } from '../api';
import { useI18n } from '../i18n/language';
import type { EntryBody, TestResult } from '../types';
import { TestResultView } from './test-result-view';
import { entryTestRequest, extraSamplesOf } from './test-samples';

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
        <div className="field">
          <label htmlFor="sample-app-token-response">{w.appToken}</label>
          <textarea
            id="sample-app-token-response"
            className="code-input"
            rows={4}
            spellCheck={false}
            value={appTokenResponse}
            placeholder='{"errcode":0,"access_token":"...","expires_in":7200}'
            onChange={(event) => {
              setAppTokenResponse(event.target.value);
            }}
          />
        </div>
      ) : null}
      <div className="two-columns">
        <div className="field">
          <label htmlFor="sample-token-response">{w.token}</label>
          <textarea
            id="sample-token-response"
            className="code-input"
            rows={6}
            spellCheck={false}
            value={tokenResponse}
            placeholder='{"access_token":"...","expires_in":3600}'
            onChange={(event) => {
              setTokenResponse(event.target.value);
            }}
          />
        </div>
        <div className="field">
          <label htmlFor="sample-userinfo-response">{w.userInfo}</label>
          <textarea
            id="sample-userinfo-response"
            className="code-input"
            rows={6}
            spellCheck={false}
            value={userInfoResponse}
            placeholder='{"user":{"userId":"alice","email":"alice@example.com"}}'
            onChange={(event) => {
              setUserInfoResponse(event.target.value);
            }}
          />
        </div>
      </div>
      {extra.calls.map((name) => (
        <div className="field" key={name}>
          <label htmlFor={`sample-call-${name}`}>{w.call(name)}</label>
          <textarea
            id={`sample-call-${name}`}
            className="code-input"
            rows={4}
            spellCheck={false}
            value={callResponses[name] ?? ''}
            onChange={(event) => {
              const value = event.target.value;
              setCallResponses((current) => ({ ...current, [name]: value }));
            }}
          />
        </div>
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
