import { useI18n } from '../i18n/language';
import type { Problem } from '../types';
import { fieldId, problemsOf } from './entry-draft';
import { FieldProblems } from './field-problems';
import type { Disclosure } from './form-section';
import { FormSection } from './form-section';
import type { ShapesDraft } from './shapes-draft';
import { shapesProblems } from './shapes-draft';
import { TextField } from './text-field';

interface ShapeFieldsProps {
  readonly shapes: ShapesDraft;
  readonly problems: readonly Problem[];
  readonly onChange: (shapes: ShapesDraft) => void;
  readonly disclosure: Disclosure;
}

const callFields = ['appToken', 'userInfoValues', 'userInfoCalls', 'groupMapping'];
const ownFields = ['callbackCodeParameter', 'authorizeFragment', 'codeInUserInfo', 'responseMode'];

/** The shapes beyond the basic flow (docs/entries.md#shapes-beyond-the-basic-flow), each off unless set. */
export function ShapeFields({ shapes, problems, onChange, disclosure }: ShapeFieldsProps) {
  const words = useI18n().t.entryForm;
  const s = words.shapes;
  const change = (part: Partial<ShapesDraft>) => {
    onChange({ ...shapes, ...part });
  };
  const callsProblems = [
    ...shapesProblems(shapes, words),
    ...callFields.flatMap((field) => problemsOf(problems, field, true)),
  ];
  const filled =
    shapes.callbackCodeParameter !== '' ||
    shapes.authorizeFragment !== '' ||
    shapes.codeInUserInfo ||
    shapes.formPost ||
    shapes.calls.trim() !== '';
  return (
    <FormSection
      name="shapes"
      title={s.legend}
      filled={filled}
      problemCount={
        callsProblems.length + ownFields.flatMap((field) => problemsOf(problems, field)).length
      }
      {...disclosure}
    >
      <TextField
        field="callbackCodeParameter"
        label={s.codeParameter}
        value={shapes.callbackCodeParameter}
        placeholder="code"
        code
        onChange={(callbackCodeParameter) => {
          change({ callbackCodeParameter });
        }}
        problems={problemsOf(problems, 'callbackCodeParameter')}
        hint={<p>{s.codeParameterHint('code', 'authCode')}</p>}
      />
      <TextField
        field="authorizeFragment"
        label={s.fragment}
        value={shapes.authorizeFragment}
        code
        onChange={(authorizeFragment) => {
          change({ authorizeFragment });
        }}
        problems={problemsOf(problems, 'authorizeFragment')}
        hint={<p>{s.fragmentHint('#', 'wechat_redirect')}</p>}
      />
      <label className="inline" id={fieldId('codeInUserInfo')}>
        <input
          type="checkbox"
          checked={shapes.codeInUserInfo}
          onChange={(event) => {
            change({ codeInUserInfo: event.target.checked });
          }}
        />{' '}
        {s.codeInUserInfo('${code}')}
      </label>
      <label className="inline" id={fieldId('responseMode')}>
        <input
          type="checkbox"
          checked={shapes.formPost}
          onChange={(event) => {
            change({ formPost: event.target.checked });
          }}
        />{' '}
        {s.formPost('response_mode=form_post')}
      </label>
      <FieldProblems
        id={`${fieldId('responseMode')}-problems`}
        problems={problemsOf(problems, 'responseMode')}
      />
      <TextField
        field="shapes.calls"
        label={s.calls}
        value={shapes.calls}
        multiline
        code
        onChange={(calls) => {
          change({ calls });
        }}
        problems={callsProblems}
        hint={<p>{s.callsHint(callFields.join(words.listSeparator))}</p>}
      />
    </FormSection>
  );
}
