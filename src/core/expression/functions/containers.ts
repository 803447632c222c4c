/**
 * Shared steps of the JSON functions: turning an argument into something
 * with keys (parsing JSON text through the context's cache), and reading one
 * own key or index from it.
 */
import { SsogateError } from '../../errors/ssogate-error.js';
import type { EvaluationContext } from '../context.js';
import { keysPresent, quote } from '../display.js';
import type { JsonObject, JsonValue } from '../json-value.js';
import { describeType, getOwn, isJsonArray, isJsonObject } from '../json-value.js';

type Container = JsonObject | readonly JsonValue[];

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** An object or array as is; a string parsed as JSON; anything else refused. */
export function toContainer(value: JsonValue, context: EvaluationContext, what: string): Container {
  const parsed = typeof value === 'string' ? context.parseJson(value) : value;
  if (isJsonObject(parsed) || isJsonArray(parsed)) {
    return parsed;
  }
  const source =
    typeof value === 'string' ? `JSON text holding ${describeType(parsed)}` : describeType(parsed);
  throw new SsogateError('value_type', `${what} needs an object or an array, got ${source}`);
}

/** A key argument: text, or a number meaning an index or its decimal key. */
export function toKey(key: JsonValue, what: string): string {
  if (typeof key === 'string') return key;
  if (typeof key === 'number' && Number.isFinite(key)) return String(key);
  throw new SsogateError(
    'value_type',
    `${what} needs a key that is text or a number, got ${describeType(key)}`,
  );
}

/**
 * The own entry `key` of `container`, or undefined. Arrays accept only
 * canonical non-negative integers, so "01", "1.0" and "length" find nothing.
 */
export function readEntry(container: Container, key: string): JsonValue | undefined {
  if (isJsonArray(container)) {
    return ARRAY_INDEX.test(key) ? container[Number(key)] : undefined;
  }
  return getOwn(container, key);
}

/** The "not found" error for `key` in `container`, listing what is there. */
export function entryNotFound(container: Container, key: string, where = ''): SsogateError {
  if (isJsonArray(container)) {
    const shown = ARRAY_INDEX.test(key) ? `index ${key}` : `key ${quote(key)}`;
    return new SsogateError(
      'key_not_found',
      `${shown} not found${where}; the array has ${container.length} item${container.length === 1 ? '' : 's'}`,
    );
  }
  return new SsogateError(
    'key_not_found',
    `key ${quote(key)} not found${where}; ${keysPresent(container)}`,
  );
}
