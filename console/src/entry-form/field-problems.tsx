import { useI18n } from '../i18n/language';
import type { ConsoleMessages } from '../i18n/catalogs';
import type { Problem } from '../types';

/** Where a problem sits, as an editor shows it: `line 2, column 14`. */
export function positionOf(
  problem: Pick<Problem, 'line' | 'column'>,
  words: Pick<ConsoleMessages['entryForm'], 'line' | 'column' | 'lineColumn'>,
): string {
  if (problem.line !== undefined && problem.column !== undefined) {
    return words.lineColumn(problem.line, problem.column);
  }
  const parts = [
    problem.line === undefined ? undefined : words.line(problem.line),
    problem.column === undefined ? undefined : words.column(problem.column),
  ].filter((part) => part !== undefined);
  return parts.join(', ');
}

interface FieldProblemsProps {
  readonly id: string;
  readonly problems: readonly Problem[];
}

/** The problems of one field, under it; the input names this list in aria-describedby. */
export function FieldProblems({ id, problems }: FieldProblemsProps) {
  const { t } = useI18n();
  const words = t.entryForm;
  const colon = t.shell.colon;
  if (problems.length === 0) return null;
  return (
    <ul className="field-problems" id={id}>
      {problems.map((problem, index) => {
        const position = positionOf(problem, words);
        return (
          <li key={index}>
            {position === '' ? null : (
              <span className="position">
                {position}
                {colon}
              </span>
            )}
            {problem.message}
            {problem.code === undefined ? null : (
              <code className="problem-code">{problem.code}</code>
            )}
          </li>
        );
      })}
    </ul>
  );
}
