/**
 * JSON_GET(value, key), alias PARSE_JSON: the basic reader. `value`
 * is JSON text (usually `$response`) or an already parsed value, so calls
 * nest: JSON_GET(JSON_GET($response, 'data'), 'token').
 */
import type { FunctionDefinition } from '../function-types.js';
import { entryNotFound, readEntry, toContainer, toKey } from './containers.js';

export const jsonGet: FunctionDefinition = {
  name: 'JSON_GET',
  aliases: ['PARSE_JSON'],
  params: 'value, key',
  minArgs: 2,
  maxArgs: 2,
  call(args, context) {
    const container = toContainer(args.get(0), context, 'JSON_GET');
    const key = toKey(args.get(1), 'JSON_GET');
    const found = readEntry(container, key);
    if (found === undefined) {
      throw entryNotFound(container, key);
    }
    return found;
  },
};
