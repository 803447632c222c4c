/**
 * FIRST_NON_EMPTY (alias COALESCE) and EQUALS, the function form of `==`.
 */
import { isSsogateError } from '../../errors/ssogate-error.js';
import { jsonEquals } from '../equality.js';
import type { FunctionDefinition } from '../function-types.js';
import type { JsonValue } from '../json-value.js';

/**
 * The first argument that is present, not null and not "". Arguments are
 * evaluated left to right and only as far as needed; one that fails with
 * key_not_found counts as absent (servers differ in which key they send),
 * any other failure (JSON that does not parse, a wrong type) is reported.
 */
export const firstNonEmpty: FunctionDefinition = {
  name: 'FIRST_NON_EMPTY',
  aliases: ['COALESCE'],
  params: 'value, ...',
  minArgs: 1,
  maxArgs: Infinity,
  call(args) {
    for (let i = 0; i < args.count; i++) {
      let value: JsonValue;
      try {
        value = args.get(i);
      } catch (error: unknown) {
        if (isSsogateError(error) && error.code === 'key_not_found') continue;
        throw error;
      }
      if (value !== null && value !== '') return value;
    }
    return null;
  },
};

export const equals: FunctionDefinition = {
  name: 'EQUALS',
  aliases: [],
  params: 'a, b',
  minArgs: 2,
  maxArgs: 2,
  call(args) {
    return jsonEquals(args.get(0), args.get(1));
  },
};
