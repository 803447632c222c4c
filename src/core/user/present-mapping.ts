import type { JsonValue } from '../expression/index.js';
import { maskSecrets } from '../mask/index.js';
import type { MappedUser } from './mapped-user.js';
import type { MappingLineReport } from './map-user.js';

/**
 * The user and mapping lines as an administrator's tools show them (the
 * test panel, the test sign-in's trace): every value masked for the secrets
 * and tokens of the run.
 */

/** One mapping line's outcome, its value and message masked like the user. */
export function presentMappingLine(
  line: MappingLineReport,
  secrets: readonly string[],
): Record<string, JsonValue> {
  const { place, error, value } = line;
  return {
    attribute: line.attribute,
    ...(place === undefined ? {} : place),
    required: line.required,
    outcome: line.outcome,
    ...(value === undefined
      ? {}
      : { value: typeof value === 'string' ? maskSecrets(value, secrets) : value }),
    ...(error === undefined
      ? {}
      : { error: { code: error.code, message: maskSecrets(error.message, secrets) } }),
  };
}

/** The mapped user, every value masked for the secrets and tokens of the test. */
export function presentMappedUser(
  user: MappedUser,
  secrets: readonly string[],
): Record<string, JsonValue> {
  const text = (value: string | undefined) =>
    value === undefined ? null : maskSecrets(value, secrets);
  return {
    userId: maskSecrets(user.userId, secrets),
    userName: text(user.userName),
    email: text(user.email),
    mobile: text(user.mobile),
    department: text(user.department),
    enabled: user.enabled ?? null,
    extra: JSON.parse(maskSecrets(JSON.stringify(user.extra), secrets)) as JsonValue,
    // Only for an entry that reads groups (its groupMapping), so what the
    // administrator sees says which groups, and so access rules, apply.
    ...(user.groups === undefined
      ? {}
      : { groups: user.groups.map((group) => maskSecrets(group, secrets)) }),
  };
}
