/**
 * JSON_PATH(value, path): several levels at once, `data.items[0].id`. A
 * literal path is validated when the expression is saved.
 */
import { SsogateError } from '../../errors/ssogate-error.js';
import { quote } from '../display.js';
import type { FunctionDefinition } from '../function-types.js';
import { parsePath } from '../json-path.js';
import type { JsonValue } from '../json-value.js';
import { describeType, isJsonArray, isJsonObject } from '../json-value.js';
import { entryNotFound, readEntry, toContainer } from './containers.js';

const MAX_PATH_SHOWN = 80;

export const jsonPath: FunctionDefinition = {
  name: 'JSON_PATH',
  aliases: [],
  params: 'value, path',
  minArgs: 2,
  maxArgs: 2,
  checkStringLiteral(argIndex, value) {
    if (argIndex !== 1) return undefined;
    const result = parsePath(value);
    return result.ok ? undefined : { index: result.index, message: result.message };
  },
  call(args, context) {
    const root = toContainer(args.get(0), context, 'JSON_PATH');
    const path = args.get(1);
    if (typeof path !== 'string') {
      throw new SsogateError(
        'value_type',
        `JSON_PATH needs a path that is text, got ${describeType(path)}`,
      );
    }
    const parsed = parsePath(path);
    if (!parsed.ok) {
      throw new SsogateError(
        'value_type',
        `invalid path ${quote(path, MAX_PATH_SHOWN)}: ${parsed.message} at position ${parsed.index + 1}`,
      );
    }
    let current: JsonValue = root;
    let reached = 0; // end offset of the part of the path already walked
    for (const segment of parsed.segments) {
      const where = reached === 0 ? '' : ` in ${quote(path.slice(0, reached), MAX_PATH_SHOWN)}`;
      if (!isJsonObject(current) && !isJsonArray(current)) {
        throw new SsogateError(
          'value_type',
          `${quote(path.slice(0, reached), MAX_PATH_SHOWN)} is ${describeType(current)}, not an object or an array`,
        );
      }
      const key = segment.kind === 'key' ? segment.key : String(segment.index);
      const found = readEntry(current, key);
      if (found === undefined) {
        throw entryNotFound(current, key, where);
      }
      current = found;
      reached = segment.end;
    }
    return current;
  },
};
