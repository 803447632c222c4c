import type { z } from 'zod';
import type { ErrorFacts } from '../errors/ssogate-error.js';
import { SsogateError } from '../errors/ssogate-error.js';

/**
 * All problems of an entry, reported together. Each problem is itself a
 * coded error naming the field and, where it applies, the line and column.
 */
export class EntryInvalidError extends SsogateError<'entry_invalid'> {
  readonly problems: readonly SsogateError[];

  constructor(problems: readonly SsogateError[]) {
    super(
      'entry_invalid',
      `the entry has ${problems.length} problem${problems.length === 1 ? '' : 's'}: ` +
        problems.map(describeProblem).join('; '),
    );
    this.problems = problems;
  }
}

/** `tokenRequest.headers[0].name: must be ...`, for logs and start-up errors. */
export function describeProblem(problem: SsogateError): string {
  const place = [
    problem.field ?? 'entry',
    problem.line === undefined ? '' : ` line ${problem.line}`,
    problem.column === undefined ? '' : ` column ${problem.column}`,
  ].join('');
  return `${place}: ${problem.message}`;
}

/** `['tokenRequest', 'headers', 0, 'name']` -> `tokenRequest.headers[0].name`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((joined, key) => {
    if (typeof key === 'number') return `${joined}[${key}]`;
    const name = String(key);
    return joined === '' ? name : `${joined}.${name}`;
  }, '');
}

export function problemsFromSchema(error: z.ZodError): SsogateError[] {
  return error.issues.flatMap((issue) => {
    const base = fieldPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map(
        (key) =>
          new SsogateError('field_invalid', `'${key}' is not a field of an entry`, {
            field: base === '' ? key : `${base}.${key}`,
            facts: { issue: 'unknown_key', key },
          }),
      );
    }
    const facts = schemaFacts(issue);
    return [
      new SsogateError('field_invalid', schemaMessage(issue), {
        field: base === '' ? 'entry' : base,
        ...(facts === undefined ? {} : { facts }),
      }),
    ];
  });
}

/**
 * The values of a schema problem's message (`issue` names its kind), so a
 * reader says it in another language: a bound and what it bounds, the type
 * or values expected, the format.
 */
function schemaFacts(issue: z.core.$ZodIssue): ErrorFacts | undefined {
  switch (issue.code) {
    case 'too_small':
      return { issue: issue.code, minimum: Number(issue.minimum), origin: issue.origin };
    case 'too_big':
      return { issue: issue.code, maximum: Number(issue.maximum), origin: issue.origin };
    case 'invalid_type':
      return issue.input === undefined
        ? undefined
        : { issue: issue.code, expected: issue.expected };
    case 'invalid_value':
      return { issue: issue.code, allowed: issue.values.map(String).join(', ') };
    case 'invalid_format':
      return { issue: issue.code, format: issue.format };
    default:
      return undefined;
  }
}

function schemaMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  return issue.message;
}
