/**
 * HAS_KEY(value, key): whether `value` (JSON text, an object or an array)
 * has the first-level `key`. It never fails on an absent key, so a success
 * condition can tell an answer that carries a field from one that does not:
 * WeChat's successful token answer has no `errcode` at all.
 */
import type { FunctionDefinition } from '../function-types.js';
import { isJsonArray, isJsonObject } from '../json-value.js';
import { readEntry, toKey } from './containers.js';

export const hasKey: FunctionDefinition = {
  name: 'HAS_KEY',
  aliases: [],
  params: 'value, key',
  minArgs: 2,
  maxArgs: 2,
  call(args, context) {
    const value = args.get(0);
    const key = toKey(args.get(1), 'HAS_KEY');
    // Text that is not JSON is still an error (response_not_json): the
    // question has no answer, and saying "no" would hide a wrong entry.
    const parsed = typeof value === 'string' ? context.parseJson(value) : value;
    if (!isJsonObject(parsed) && !isJsonArray(parsed)) return false;
    return readEntry(parsed, key) !== undefined;
  },
};
