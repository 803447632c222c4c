import type { MouseEvent } from 'react';
import { useI18n } from '../i18n/language';
import { formatNumber } from '../i18n/catalogs';
import type { Problem } from '../types';
import { fieldId } from './entry-draft';
import { positionOf } from './field-problems';
import { focusField } from './focus-field';
import { labelOf, warningText } from './field-labels';

interface ValidationSummaryProps {
  readonly checking: boolean;
  readonly problems: readonly Problem[] | undefined;
  readonly warnings: readonly string[];
  readonly failure: string | undefined;
}

/**
 * Every problem of the entry in one list (announced as it changes), each a
 * link that moves the focus to its field.
 */
export function ValidationSummary({
  checking,
  problems,
  warnings,
  failure,
}: ValidationSummaryProps) {
  const words = useI18n().t.entryForm;
  const v = words.validation;
  const go = (event: MouseEvent<HTMLAnchorElement>, field: string) => {
    event.preventDefault();
    focusField(field);
  };
  return (
    <section className="validation" aria-labelledby="validation-heading">
      <h2 id="validation-heading" className="visually-hidden">
        {v.heading}
      </h2>
      <div role="status" aria-live="polite" aria-atomic="true">
        {failure !== undefined ? (
          <p className="status status-error">{v.couldNotCheck(failure)}</p>
        ) : problems === undefined ? (
          <p className="status status-info">{checking ? v.checking : v.notChecked}</p>
        ) : problems.length === 0 ? (
          <p className="status status-success">
            {checking ? `${v.checking} ` : ''}
            {v.noProblems}
          </p>
        ) : (
          <div className="status status-error">
            <p>
              {checking ? `${v.checking} ` : ''}
              {v.problems(problems.length, formatNumber(problems.length))}
            </p>
            <ul>
              {problems.map((problem, index) => {
                const position = positionOf(problem, words);
                return (
                  <li key={index}>
                    <a
                      href={`#${fieldId(problem.field)}`}
                      onClick={(event) => {
                        go(event, problem.field);
                      }}
                    >
                      {labelOf(problem.field, words)}
                    </a>
                    {v.at(position)}
                    {problem.message}
                    {problem.code === undefined ? null : (
                      <code className="problem-code">{problem.code}</code>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        )}
      </div>
      {warnings.length === 0 ? null : (
        <ul className="warnings" aria-label={v.warnings}>
          {warnings.map((warning) => (
            <li key={warning}>{warningText(warning, words)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
