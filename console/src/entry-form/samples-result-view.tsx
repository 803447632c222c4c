import { useI18n } from '../i18n/language';
import type { TestResult, TestUser } from '../types';
import { blamedBySampleStep } from '../trial-sign-in/blamed-field';
import { positionOf } from './field-problems';
import { FieldLink } from './field-link';
import { labelOf, problemText } from './field-labels';
import type { MappingLine } from './mapping-report';
import { mappingLineText } from './mapping-report';

const columns: readonly (keyof TestUser)[] = [
  'userId',
  'userName',
  'email',
  'mobile',
  'department',
  'enabled',
  'extra',
];

function shown(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The test's answer: the masked token and the user row, or where it failed and why. */
export function TestResultView({ result }: { readonly result: TestResult }) {
  const { t } = useI18n();
  const words = t.entryForm;
  const colon = t.shell.colon;
  const w = words.samples;
  if (!result.ok) {
    const position = positionOf(result.error, words);
    return (
      <div className="status status-error test-failure">
        <p>
          <strong>
            {w.failed(
              `${w.steps[result.step]}${result.call === undefined ? '' : ` ${result.call}`}`,
              position,
            )}
          </strong>
          :{' '}
          {problemText(
            {
              field: result.error.field ?? '',
              message: result.error.message,
              code: result.error.code,
            },
            words,
          )}{' '}
          <code className="problem-code">{result.error.code}</code>{' '}
          <FieldLink field={blamedBySampleStep(result.step, result.error.field)} />
        </p>
        {result.problems === undefined || result.problems.length === 0 ? null : (
          <ul>
            {result.problems.map((problem, index) => (
              <li key={index}>
                {labelOf(problem.field, words)}
                {positionOf(problem, words) === '' ? '' : ` (${positionOf(problem, words)})`}
                {colon}
                {problemText(problem, words)}
              </li>
            ))}
          </ul>
        )}
        <MappingLines lines={result.mapping} />
      </div>
    );
  }
  const values = Object.entries(result.tokenValues);
  return (
    <div className="status status-success test-success">
      <p>
        <strong>{w.succeeds}</strong> {w.accessToken} <code>{result.accessToken}</code>
        {result.appToken === undefined ? null : (
          <>
            ; {w.appTokenMasked} <code>{result.appToken}</code>
          </>
        )}
      </p>
      {values.length === 0 ? null : (
        <p>
          {w.tokenValues}{' '}
          {values.map(([name, value]) => (
            <span key={name}>
              <code>{name}</code> = <code>{value}</code>{' '}
            </span>
          ))}
        </p>
      )}
      <MappingLines lines={result.mapping} />
      <table className="data-table user-row">
        <caption>{w.userRow}</caption>
        <tbody>
          {columns.map((column) => (
            <tr key={column}>
              <th scope="row">{column}</th>
              <td>{shown(result.user[column])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every line of the user-info parsing with its outcome, not only the first failure. */
function MappingLines({ lines }: { readonly lines: readonly MappingLine[] | undefined }) {
  const words = useI18n().t.entryForm;
  if (lines === undefined || lines.length === 0) return null;
  return (
    <div className="mapping-lines">
      <p>{words.samples.mappingLines}</p>
      <ul>
        {lines.map((line, index) => (
          <li key={index} className={`mapping-${line.outcome}`}>
            {mappingLineText(
              line.error === undefined
                ? line
                : {
                    ...line,
                    // The core's sentence, or in another language its code's.
                    error: {
                      ...line.error,
                      message: problemText({ field: '', ...line.error }, words),
                    },
                  },
              words,
            )}
            {line.error === undefined ? null : (
              <>
                {' '}
                <code className="problem-code">{line.error.code}</code>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
