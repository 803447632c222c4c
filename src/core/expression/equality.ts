/**
 * Equality for success conditions (`==`, `!=`, EQUALS). Deep equality of
 * JSON values, with one deliberate looseness: a number equals a string that
 * is its canonical decimal form, because servers send `"errcode": 0` and
 * `"errcode": "0"` for the same thing and administrators should not need to
 * know which. "0.0", " 0" and "00" are not canonical and stay unequal to 0.
 */
import type { JsonValue } from './json-value.js';
import { isJsonArray, isJsonObject } from './json-value.js';

function scalarEquals(a: JsonValue, b: JsonValue): boolean {
  if (typeof a === 'number' && typeof b === 'string') return String(a) === b;
  if (typeof a === 'string' && typeof b === 'number') return a === String(b);
  return a === b;
}

/**
 * Values come from JSON limited to 64 levels (safe-json.ts) or from
 * literals, so the recursion is bounded.
 */
export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if (isJsonArray(a) || isJsonArray(b)) {
    if (!isJsonArray(a) || !isJsonArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => {
      const other = b[i];
      return other !== undefined && jsonEquals(item, other);
    });
  }
  if (isJsonObject(a) || isJsonObject(b)) {
    if (!isJsonObject(a) || !isJsonObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => {
      const left = a[key];
      const right = Object.hasOwn(b, key) ? b[key] : undefined;
      return left !== undefined && right !== undefined && jsonEquals(left, right);
    });
  }
  return scalarEquals(a, b);
}
