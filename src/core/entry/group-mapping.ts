import { z } from 'zod';
import { SsogateError } from '../errors/ssogate-error.js';
import type { EvaluationContext, Expression, JsonValue } from '../expression/index.js';
import { evaluate } from '../expression/index.js';
import type { ProblemList } from './compile-fields.js';
import { asRecord, compileExpression, textField } from './compile-fields.js';

/**
 * Groups and the administrator flag from the user-info answer, or an OpenID
 * Connect entry's verified claims (docs/entries.md#groups-and-administrators):
 * an expression yielding a list of group names, and the groups whose members
 * administer the gateway.
 */
export const groupMappingInput = z.strictObject({
  /**
   * Over the mapping's `$response`; yields a list of text (a single text counts
   * as one group). Required but for an entry of type saml, whose groups are an attribute's values.
   */
  expression: z.string().max(4096, 'must be at most 4096 characters').optional(),
  /** Members of any of these groups are administrators; the others are not. */
  adminGroups: z.array(z.string().min(1).max(256)).max(64).optional(),
});

/** Which groups make a user an administrator. */
export interface AdminGroups {
  /** Undefined: the entry leaves the administrator flag alone. */
  readonly adminGroups: ReadonlySet<string> | undefined;
}

export interface CompiledGroupMapping extends AdminGroups {
  readonly expression: Expression;
}

/** The `adminGroups` of a groupMapping as given, whatever else it holds. */
export function readAdminGroups(raw: unknown): ReadonlySet<string> | undefined {
  const { adminGroups } = asRecord(raw);
  return Array.isArray(adminGroups)
    ? new Set(adminGroups.filter((group): group is string => typeof group === 'string'))
    : undefined;
}

export function compileGroupMapping(
  raw: Readonly<Record<string, unknown>>,
  problems: ProblemList,
): CompiledGroupMapping | undefined {
  if (raw.groupMapping === undefined) return undefined;
  const record = asRecord(raw.groupMapping);
  const source = textField(record, 'expression');
  if (source === undefined) {
    problems.field('groupMapping.expression', 'is required');
    return undefined;
  }
  const expression = compileExpression(source, 'groupMapping.expression', problems);
  return expression === undefined
    ? undefined
    : { expression, adminGroups: readAdminGroups(record) };
}

const maxGroups = 256;
const maxGroupLength = 256;

/** The groups the answer names, as text; null or a missing list is no group. */
export function readGroups(mapping: CompiledGroupMapping, context: EvaluationContext): string[] {
  const value = evaluate(mapping.expression, context);
  const items: readonly JsonValue[] = value === null ? [] : Array.isArray(value) ? value : [value];
  if (items.length > maxGroups) {
    throw new SsogateError('user_attribute_invalid', `more than ${maxGroups} groups`);
  }
  const groups = items.map((item) => {
    const text =
      typeof item === 'string'
        ? item
        : typeof item === 'number' && Number.isSafeInteger(item)
          ? String(item)
          : undefined;
    if (text === undefined || text === '' || text.length > maxGroupLength) {
      throw new SsogateError(
        'user_attribute_invalid',
        `a group must be a text or an integer of 1 to ${maxGroupLength} characters`,
      );
    }
    return text;
  });
  return [...new Set(groups)];
}
