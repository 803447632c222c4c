import { useI18n } from '../i18n/language';
import { fieldId } from './entry-draft';
import { labelOf } from './field-labels';
import { focusField } from './focus-field';

/**
 * "Go to Token URL": a test's link to the field it blames. It focuses the
 * field, opening its section first, wherever the test's answer is shown.
 */
export function FieldLink({ field }: { readonly field: string | undefined }) {
  const words = useI18n().t.entryForm;
  if (field === undefined) return null;
  return (
    <a
      className="field-link"
      href={`#${fieldId(field)}`}
      onClick={(event) => {
        event.preventDefault();
        focusField(field);
      }}
    >
      {words.goToField(labelOf(field, words))}
    </a>
  );
}
