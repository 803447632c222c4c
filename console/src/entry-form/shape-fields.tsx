import type { Problem } from '../types';
import { fieldId, problemsOf } from './entry-draft';
import type { ShapesDraft } from './shapes-draft';
import { shapesProblems } from './shapes-draft';
import { TextField } from './text-field';

interface ShapeFieldsProps {
  readonly shapes: ShapesDraft;
  readonly problems: readonly Problem[];
  readonly onChange: (shapes: ShapesDraft) => void;
}

const callFields = ['appToken', 'userInfoValues', 'userInfoCalls', 'groupMapping'];

/** The shapes beyond the basic flow (docs/entries.md#shapes-beyond-the-basic-flow), each off unless set. */
export function ShapeFields({ shapes, problems, onChange }: ShapeFieldsProps) {
  const change = (part: Partial<ShapesDraft>) => {
    onChange({ ...shapes, ...part });
  };
  return (
    <fieldset className="section">
      <legend>Beyond the basic flow (optional)</legend>
      <TextField
        field="callbackCodeParameter"
        label="Callback code parameter"
        value={shapes.callbackCodeParameter}
        placeholder="code"
        code
        onChange={(callbackCodeParameter) => {
          change({ callbackCodeParameter });
        }}
        problems={problemsOf(problems, 'callbackCodeParameter')}
        hint={
          <p>
            The callback&apos;s parameter holding the code when it is not <code>code</code>{' '}
            (DingTalk: <code>authCode</code>).
          </p>
        }
      />
      <TextField
        field="authorizeFragment"
        label="Authorization URL fragment"
        value={shapes.authorizeFragment}
        code
        onChange={(authorizeFragment) => {
          change({ authorizeFragment });
        }}
        problems={problemsOf(problems, 'authorizeFragment')}
        hint={
          <p>
            Without <code>#</code>, kept last after the query (WeChat, WeCom:{' '}
            <code>wechat_redirect</code>).
          </p>
        }
      />
      <label className="inline" id={fieldId('codeInUserInfo')}>
        <input
          type="checkbox"
          checked={shapes.codeInUserInfo}
          onChange={(event) => {
            change({ codeInUserInfo: event.target.checked });
          }}
        />{' '}
        Code in the user-info URL (<code>${'{code}'}</code>); the token URL may then be left blank
      </label>
      <TextField
        field="shapes.calls"
        label="Application token, calls after user info and group mapping (JSON)"
        value={shapes.calls}
        multiline
        code
        onChange={(calls) => {
          change({ calls });
        }}
        problems={[
          ...shapesProblems(shapes),
          ...callFields.flatMap((field) => problemsOf(problems, field, true)),
        ]}
        hint={
          <p>
            An object with <code>appToken</code>, <code>userInfoValues</code> and{' '}
            <code>userInfoCalls</code> and <code>groupMapping</code>, as docs/entries.md describes
            them; blank for none.
          </p>
        }
      />
    </fieldset>
  );
}
