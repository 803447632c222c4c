import { SsogateError } from '../errors/ssogate-error.js';
import type { JsonValue } from '../expression/index.js';
import type { UserAttribute } from './attributes.js';
import { userAttributeTypes } from './attributes.js';

/**
 * Longest accepted text per attribute. An over-long value is refused, never
 * truncated: two long identifiers cut to one prefix would become one user.
 */
const maxTextLength: Readonly<Record<UserAttribute, number>> = {
  userId: 255,
  userName: 1024,
  email: 320,
  mobile: 64,
  department: 1024,
  enabled: 0,
};

export type AttributeValue = string | boolean;

/**
 * Turns a value an expression produced into the column's type. `null` means
 * "not provided" and yields undefined, so a missing value never overwrites a
 * stored one with an empty string.
 */
export function coerceAttribute(
  attribute: UserAttribute,
  value: JsonValue,
): AttributeValue | undefined {
  if (value === null) return undefined;
  return userAttributeTypes[attribute] === 'boolean'
    ? coerceBoolean(attribute, value)
    : coerceText(attribute, value);
}

/**
 * Attributes that identify or address someone, and reach the application as
 * identity headers: a control character (CR, LF, NUL, ...) in them is refused
 * rather than passed on (docs/proxy.md).
 */
const noControlCharacters: ReadonlySet<UserAttribute> = new Set(['userId', 'email']);

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

function coerceText(attribute: UserAttribute, value: JsonValue): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number') text = exactIntegerText(attribute, value);
  else throw invalid(attribute, `must be text or a number, not ${describe(value)}`);
  if (text.length > maxTextLength[attribute]) {
    throw invalid(
      attribute,
      `is ${text.length} characters long; at most ${maxTextLength[attribute]} are accepted`,
    );
  }
  // A lone surrogate cannot be stored or sent as UTF-8 without being replaced,
  // which would make two different values one.
  if (!text.isWellFormed()) throw invalid(attribute, 'is not well-formed Unicode text');
  if (noControlCharacters.has(attribute) && CONTROL_CHARACTER.test(text)) {
    throw new SsogateError(
      'user_attribute_control_character',
      `user attribute '${attribute}' holds a control character (U+0000 to U+001F or U+007F)`,
    );
  }
  // Every HTTP parser trims a header value (RFC 9110 §5.5), and people and
  // programs trim ids they copy: ` alice` would be read as `alice`, another
  // user. Refused rather than trimmed, which would make the two one here too.
  // An id of whitespace only is no id (user_id_missing, map-user.ts).
  if (attribute === 'userId' && text !== text.trim() && text.trim() !== '') {
    throw new SsogateError(
      'user_attribute_whitespace',
      "user attribute 'userId' starts or ends with whitespace",
    );
  }
  return text;
}

/**
 * A numeric identifier (`"id": 123`) is canonicalised to its decimal text so
 * that 123 and "123" name the same user. Only a safe integer has one exact
 * text: a fraction, -0, or a number beyond 2^53 - 1 that reached here as a
 * number (an exponent form such as 1e21; a plain integer literal arrives as
 * its exact text, see expression/safe-json.ts) would be rounded, and two ids
 * could become one user.
 */
function exactIntegerText(attribute: UserAttribute, value: number): string {
  if (Number.isSafeInteger(value) && !Object.is(value, -0)) return String(value);
  throw new SsogateError(
    'user_attribute_number_inexact',
    `user attribute '${attribute}' is the number ${Object.is(value, -0) ? '-0' : String(value)}, which is not an exact ` +
      'integer; send it as text or as a whole number',
  );
}

const booleanSpellings: ReadonlyMap<unknown, boolean> = new Map<unknown, boolean>([
  [true, true],
  [false, false],
  [1, true],
  [0, false],
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);

function coerceBoolean(attribute: UserAttribute, value: JsonValue): boolean {
  const key = typeof value === 'string' ? value.trim().toLowerCase() : value;
  const result = booleanSpellings.get(key);
  if (result === undefined) {
    throw invalid(attribute, `must be true/false, 1/0 or "true"/"false", not ${describe(value)}`);
  }
  return result;
}

function describe(value: JsonValue): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  if (typeof value === 'string')
    return `the text "${value.slice(0, 20)}${value.length > 20 ? '…' : ''}"`;
  return String(value);
}

function invalid(attribute: UserAttribute, problem: string): SsogateError {
  return new SsogateError('user_attribute_invalid', `user attribute '${attribute}' ${problem}`);
}
