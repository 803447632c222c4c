import { useState } from 'react';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/language';

/** What, beside its own fields, opens or closes a section: see FormSectionProps. */
export interface Disclosure {
  readonly refill: number;
  readonly reveal: number;
}

interface FormSectionProps extends Disclosure {
  /** `section-NAME`: the element's id, for links and tests. */
  readonly name: string;
  readonly title: string;
  /** Whether the section holds a value: it then starts open. */
  readonly filled: boolean;
  /** The problems shown for its fields: one or more open it too. */
  readonly problemCount: number;
  readonly children: ReactNode;
}

/**
 * `refill` changes when the whole form is filled anew (a preset chosen): the
 * section opens or closes again as on a new form; `reveal` changes when
 * saving was asked: a section with a problem opens.
 *
 * A part of the entry form most entries leave alone (docs/console.md): a
 * headed disclosure that starts open when it holds a value or a problem and
 * closed otherwise. It never opens or closes by itself while the
 * administrator types (that would move the form under the pointer between a
 * press and its release); only the heading, a preset, a save or a link to
 * one of its fields (focusField) does. Closed, its heading counts its problems.
 */
export function FormSection(props: FormSectionProps) {
  const words = useI18n().t.entryForm;
  const startsOpen = props.filled || props.problemCount > 0;
  const [open, setOpen] = useState(startsOpen);
  const [seen, setSeen] = useState({ refill: props.refill, reveal: props.reveal });
  if (seen.refill !== props.refill || seen.reveal !== props.reveal) {
    // Adjusted while rendering, so the new state shows in the same paint.
    setSeen({ refill: props.refill, reveal: props.reveal });
    if (seen.refill !== props.refill) setOpen(startsOpen);
    else if (props.problemCount > 0) setOpen(true);
  }
  const headingId = `section-${props.name}-heading`;
  return (
    <details
      className="section collapsible"
      id={`section-${props.name}`}
      open={open}
      onToggle={(event) => {
        setOpen(event.currentTarget.open);
      }}
    >
      <summary>
        <span className="section-title" id={headingId}>
          {props.title}
        </span>
        {props.problemCount === 0 ? null : (
          <span className="section-problems">{words.sectionProblems(props.problemCount)}</span>
        )}
      </summary>
      <div role="group" aria-labelledby={headingId}>
        {props.children}
      </div>
    </details>
  );
}
