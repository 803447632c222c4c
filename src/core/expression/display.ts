/**
 * Pieces of error messages built from untrusted text (keys chosen by a
 * third-party server, words typed by an administrator): always cut and
 * escaped, so a message can go to a log line or a page as is.
 */
import { excerpt } from '../mask/excerpt.js';
import type { JsonObject } from './json-value.js';

const MAX_KEYS_SHOWN = 10;
const MAX_KEY_LENGTH = 40;

/** `'text'`, cut to `max` characters and escaped. */
export function quote(text: string, max = MAX_KEY_LENGTH): string {
  return `'${excerpt(text, max)}'`;
}

/** "keys present: a, b, c" (at most 10 keys, each cut to 40 characters). */
export function keysPresent(obj: JsonObject): string {
  return listKeys(Object.keys(obj));
}

/** The same for a plain list of names (form fields). */
export function listKeys(keys: readonly string[]): string {
  if (keys.length === 0) {
    return 'the object is empty';
  }
  const shown = keys.slice(0, MAX_KEYS_SHOWN).map((key) => excerpt(key, MAX_KEY_LENGTH));
  const more = keys.length > MAX_KEYS_SHOWN ? ` and ${keys.length - MAX_KEYS_SHOWN} more` : '';
  return `keys present: ${shown.join(', ')}${more}`;
}
