/**
 * TOKEN_VALUE(name): a value the entry's `tokenValues` read from the token
 * response, in the user mapping. Some servers send part of the user with
 * the token and not in the user-info answer (WeChat's `unionid`).
 */
import { SsogateError } from '../../errors/ssogate-error.js';
import { quote } from '../display.js';
import type { FunctionDefinition } from '../function-types.js';
import { toKey } from './containers.js';

export const tokenValue: FunctionDefinition = {
  name: 'TOKEN_VALUE',
  aliases: [],
  params: 'name',
  minArgs: 1,
  maxArgs: 1,
  call(args, context) {
    const name = toKey(args.get(0), 'TOKEN_VALUE');
    const values = context.tokenValues;
    if (values === undefined) {
      throw new SsogateError(
        'key_not_found',
        `token value ${quote(name)} not found; only the user mapping of a sign-in has token values`,
      );
    }
    const found = Object.hasOwn(values, name) ? values[name] : undefined;
    if (found === undefined) {
      const names = Object.keys(values);
      throw new SsogateError(
        'key_not_found',
        `token value ${quote(name)} not found; ${
          names.length === 0
            ? 'the entry declares no tokenValues'
            : `the entry's tokenValues are named ${names.map((known) => quote(known)).join(', ')}`
        }`,
      );
    }
    return found;
  },
};
