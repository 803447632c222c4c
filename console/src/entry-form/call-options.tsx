import { useI18n } from '../i18n/language';
import type { Problem } from '../types';
import type { CallDraft } from './entry-draft';
import { isPost } from './body-parts';
import { fieldId, problemsOf } from './entry-draft';
import { headerExample } from './form-assist';
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
  const c = useI18n().t.entryForm.call;
  const shownAllowed =
    allowed === undefined ? '' : `: ${allowed.map((name) => `\${${name}}`).join(' ')}`;
  return (
    <>
      <RowsEditor
        field={`${field}.headers`}
        legend={c.headers(callName)}
        hint={c.headersHint(shownAllowed, headerExample(allowed))}
        nameKey="name"
        valueKey="value"
        nameLabel={c.header(callName)}
        valueLabel={c.headerValue(callName)}
        rows={call.headers}
        onChange={(headers) => {
          onChange({ ...call, headers });
        }}
        problems={problems}
        addLabel={c.addHeader}
      />
      <fieldset className="choice" id={encodingName} tabIndex={-1}>
        <legend>{c.body(callName)}</legend>
        {isPost(url) ? null : <p className="hint">{c.isGet}</p>}
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
          {c.json}
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
          {c.form}
        </label>
      </fieldset>
      <TextField
        field={`${field}.successCondition`}
        label={c.success(callName)}
        value={call.successCondition}
        code
        onChange={(successCondition) => {
          onChange({ ...call, successCondition });
        }}
        problems={problemsOf(problems, `${field}.successCondition`)}
        hint={<p>{c.successHint("JSON_GET($response, 'errcode') == 0")}</p>}
      />
    </>
  );
}
