import { SsogateError, isSsogateError } from '../errors/ssogate-error.js';
import type { EvaluationContext, Expression, JsonObject, JsonValue } from '../expression/index.js';
import { evaluate, parseExpression } from '../expression/index.js';
import type { UserAttribute } from './attributes.js';
import { isUserAttribute } from './attributes.js';
import type { AttributeValue } from './coerce.js';
import { coerceAttribute } from './coerce.js';
import type { MappedUser } from './mapped-user.js';

/** One line of `userInfoParse`: `attribute = expression`, compiled. */
export interface AttributeMapping {
  readonly attribute: UserAttribute;
  readonly expression: Expression;
  /** A missing value fails the sign-in; userId is always required. */
  readonly required?: boolean;
  /** Where the administrator wrote it: a line of the text, or a row of the table. */
  readonly place?: MappingPlace;
}

type MappingPlace = { readonly line: number } | { readonly row: number };

/** What one mapping made of a response, for the console's test panel. */
export interface MappingLineReport {
  readonly attribute: UserAttribute;
  readonly place: MappingPlace | undefined;
  readonly required: boolean;
  /** `mapped`: a value; `missing`: the response lacks it (left unset); `failed`: an error. */
  readonly outcome: 'mapped' | 'missing' | 'failed';
  readonly value?: AttributeValue;
  readonly error?: SsogateError;
}

interface MappingReport {
  readonly lines: readonly MappingLineReport[];
  /** The user, or why there is none: every failed line at once. */
  readonly result: { readonly user: MappedUser } | { readonly error: SsogateError };
}

/** Attributes without a column are kept, but not without bound. */
const maxExtraJsonLength = 64 * 1024;

// The "empty" case reads the `user` object the same way an administrator
// would write it, so it shares the parse cache and the error messages.
const userObjectExpression = parseExpression("JSON_GET($response, 'user')");

/**
 * Builds the user a user-info response describes (docs/entries.md#user-mapping). With no mappings
 * (the "empty" case) the object under `user` is the set of attributes;
 * otherwise each mapping's expression is evaluated over the same context, so
 * the response body is parsed once whatever the number of mappings.
 */
export function mapUser(
  mappings: readonly AttributeMapping[],
  context: EvaluationContext,
): MappedUser {
  return mappings.length === 0 ? mapUserObject(context) : mapWithExpressions(mappings, context);
}

function mapWithExpressions(
  mappings: readonly AttributeMapping[],
  context: EvaluationContext,
): MappedUser {
  const { result } = reportMappings(mappings, context);
  if ('error' in result) throw result.error;
  return result.user;
}

/**
 * Evaluates every mapping, never stopping at the first failure, so the
 * administrator sees each line's outcome. A key the response lacks leaves an
 * optional attribute unset; for userId or a `required` one it is a failure,
 * as is any other error (a wrong expression stays wrong whatever the data).
 */
export function mapUserReport(
  mappings: readonly AttributeMapping[],
  context: EvaluationContext,
): MappingReport {
  if (mappings.length > 0) return reportMappings(mappings, context);
  try {
    return { lines: [], result: { user: mapUserObject(context) } };
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    return { lines: [], result: { error } };
  }
}

function reportMappings(
  mappings: readonly AttributeMapping[],
  context: EvaluationContext,
): MappingReport {
  const values = new Map<UserAttribute, AttributeValue>();
  const lines = mappings.map(({ attribute, expression, required, place }): MappingLineReport => {
    const mustHave = required === true || attribute === 'userId';
    const line = { attribute, place, required: mustHave };
    try {
      const value = coerceAttribute(attribute, evaluateNamed(attribute, expression, context));
      if (value === undefined) return { ...line, outcome: 'missing' };
      values.set(attribute, value);
      return { ...line, outcome: 'mapped', value };
    } catch (error) {
      if (!isSsogateError(error)) throw error;
      const missing = error.code === 'key_not_found' && !mustHave;
      return { ...line, outcome: missing ? 'missing' : 'failed', error };
    }
  });
  const failed = lines.filter((line) => line.outcome === 'failed');
  const first = failed[0]?.error;
  if (first !== undefined) {
    const message = failed
      .map((line) => `${placeName(line.place)}${line.attribute}: ${line.error?.message ?? ''}`)
      .join('; ');
    const error = new SsogateError(first.code, message, {
      cause: first,
      ...(first.facts === undefined ? {} : { facts: first.facts }),
    });
    return { lines, result: { error } };
  }
  try {
    return {
      lines,
      result: { user: buildUser(values, Object.create(null) as Record<string, JsonValue>) },
    };
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    return { lines, result: { error } };
  }
}

/** `line 4, ` or `row 2, ` before an attribute's name in a message. */
function placeName(place: MappingPlace | undefined): string {
  if (place === undefined) return '';
  return 'line' in place ? `line ${place.line}, ` : `row ${place.row}, `;
}

/** Evaluates one mapping; a failure names the attribute and the expression that failed. */
function evaluateNamed(
  attribute: UserAttribute,
  expression: Expression,
  context: EvaluationContext,
): JsonValue {
  try {
    return evaluate(expression, context);
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    throw new SsogateError(error.code, error.message, {
      cause: error,
      facts: { ...error.facts, attribute, expression: expression.source },
    });
  }
}

function mapUserObject(context: EvaluationContext): MappedUser {
  const userObject = readUserObject(context);
  const values = new Map<UserAttribute, AttributeValue>();
  const extra = Object.create(null) as Record<string, JsonValue>;
  for (const key of Object.keys(userObject)) {
    const value = userObject[key] ?? null;
    if (isUserAttribute(key)) {
      const coerced = coerceAttribute(key, value);
      if (coerced !== undefined) values.set(key, coerced);
    } else {
      // A null-prototype object: a key such as `__proto__` stays plain data.
      extra[key] = value;
    }
  }
  if (JSON.stringify(extra).length > maxExtraJsonLength) {
    throw new SsogateError(
      'user_attribute_invalid',
      `the attributes without a column take more than ${maxExtraJsonLength} characters as JSON`,
    );
  }
  return buildUser(values, extra);
}

function readUserObject(context: EvaluationContext): JsonObject {
  let value: JsonValue;
  try {
    value = evaluate(userObjectExpression, context);
  } catch (error) {
    if (isSsogateError(error) && error.code === 'key_not_found') {
      throw new SsogateError('userinfo_no_user_object', noUserObjectMessage, { cause: error });
    }
    throw error;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SsogateError('userinfo_no_user_object', noUserObjectMessage);
  }
  return value as JsonObject;
}

const noUserObjectMessage =
  "the user-info response has no object under the key 'user'; " +
  'with an empty user-info parsing, the response must look like {"user": {"userId": ...}}';

type MutableAttributes = {
  -readonly [K in UserAttribute]?: K extends 'enabled' ? boolean : string;
};

function buildUser(
  values: ReadonlyMap<UserAttribute, AttributeValue>,
  extra: Readonly<Record<string, JsonValue>>,
): MappedUser {
  const attributes: MutableAttributes = {};
  for (const [attribute, value] of values) {
    if (attribute === 'enabled') {
      if (typeof value === 'boolean') attributes.enabled = value;
    } else if (typeof value === 'string') {
      attributes[attribute] = value;
    }
  }
  const { userId } = attributes;
  if (userId === undefined || userId.trim() === '') {
    throw new SsogateError(
      'user_id_missing',
      userId === undefined
        ? 'the user-info response yielded no userId'
        : 'the user-info response yielded an empty userId',
    );
  }
  return { ...attributes, userId, extra };
}
