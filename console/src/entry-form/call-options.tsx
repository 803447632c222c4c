import type { Problem } from '../types';
import type { CallDraft } from './entry-draft';
import { fieldId, isPost, problemsOf } from './entry-draft';
import { RowsEditor } from './rows-editor';
import { TextField } from './text-field';

interface CallOptionsProps {
  /** `tokenRequest` or `userInfoRequest`. */
  readonly field: string;
  readonly url: string;
  readonly call: CallDraft;
  readonly onChange: (call: CallDraft) => void;
  readonly problems: readonly Problem[];
  /** Placeholders allowed in header values: the same as the call's URL. */
  readonly allowed: readonly string[] | undefined;
  /** Names the call in labels, so every input's label is unique on the page. */
  readonly callName: string;
}

/** The options beyond the basic shape for one call: headers, POST body, success condition. */
export function CallOptions(props: CallOptionsProps) {
  const { field, url, call, onChange, problems, allowed, callName } = props;
  const encodingName = fieldId(`${field}.bodyEncoding`);
  return (
    <>
      <RowsEditor
        field={`${field}.headers`}
        legend={`${callName} headers`}
        hint={`Values may use the call's placeholders${allowed === undefined ? '' : `: ${allowed.map((name) => `\${${name}}`).join(' ')}`}, e.g. Authorization: Bearer \${access_token}.`}
        nameKey="name"
        valueKey="value"
        nameLabel={`${callName} header`}
        valueLabel={`${callName} header value`}
        rows={call.headers}
        onChange={(headers) => {
          onChange({ ...call, headers });
        }}
        problems={problems}
        addLabel="Add a header"
      />
      <fieldset className="choice" id={encodingName} tabIndex={-1}>
        <legend>{callName} POST body</legend>
        {isPost(url) ? null : (
          <p className="hint">This call is a GET; start its URL with POST to send a body.</p>
        )}
        <label className="inline">
          <input
            type="radio"
            name={encodingName}
            checked={call.bodyEncoding === 'json'}
            disabled={!isPost(url)}
            onChange={() => {
              onChange({ ...call, bodyEncoding: 'json' });
            }}
          />{' '}
          JSON object (the default)
        </label>
        <label className="inline">
          <input
            type="radio"
            name={encodingName}
            checked={call.bodyEncoding === 'form'}
            disabled={!isPost(url)}
            onChange={() => {
              onChange({ ...call, bodyEncoding: 'form' });
            }}
          />{' '}
          Form (application/x-www-form-urlencoded, standard OAuth2)
        </label>
      </fieldset>
      <TextField
        field={`${field}.successCondition`}
        label={`${callName} success condition`}
        value={call.successCondition}
        code
        onChange={(successCondition) => {
          onChange({ ...call, successCondition });
        }}
        problems={problemsOf(problems, `${field}.successCondition`)}
        hint={
          <p>
            Optional expression that must be true for the call to count as a success, e.g.{' '}
            <code>JSON_GET($response, &apos;errcode&apos;) == 0</code>.
          </p>
        }
      />
    </>
  );
}
