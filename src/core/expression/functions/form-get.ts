/**
 * FORM_GET(value, key): one field of an application/x-www-form-urlencoded
 * body, as older OAuth2 servers (GitHub without an Accept header, Facebook
 * v2) answer `access_token=...&expires_in=...`.
 */
import { SsogateError } from '../../errors/ssogate-error.js';
import { listKeys, quote } from '../display.js';
import type { FunctionDefinition } from '../function-types.js';
import { describeType } from '../json-value.js';

/** `+` is a space, then percent-decoding; a bad escape is the body's fault. */
function decodeFormComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch (error: unknown) {
    throw new SsogateError('value_type', 'form body has a malformed percent-escape', {
      cause: error,
    });
  }
}

export const formGet: FunctionDefinition = {
  name: 'FORM_GET',
  aliases: [],
  params: 'value, key',
  minArgs: 2,
  maxArgs: 2,
  call(args) {
    const body = args.get(0);
    const key = args.get(1);
    if (typeof body !== 'string') {
      throw new SsogateError(
        'value_type',
        `FORM_GET needs a form-encoded text, got ${describeType(body)}`,
      );
    }
    if (typeof key !== 'string') {
      throw new SsogateError(
        'value_type',
        `FORM_GET needs a key that is text, got ${describeType(key)}`,
      );
    }
    const names: string[] = [];
    for (const pair of body.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const name = decodeFormComponent(eq === -1 ? pair : pair.slice(0, eq));
      if (name === key) {
        // The first occurrence wins, as in URLSearchParams.get().
        return eq === -1 ? '' : decodeFormComponent(pair.slice(eq + 1));
      }
      names.push(name);
    }
    // Listed like JSON keys; the values are never shown (they may be tokens).
    throw new SsogateError(
      'key_not_found',
      `key ${quote(key)} not found; ${listKeys([...new Set(names)])}`,
    );
  },
};
