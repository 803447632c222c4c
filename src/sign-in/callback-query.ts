import type { CallbackQuery } from './complete-sign-in.js';

/**
 * The callback's query decoded as a browser's URL parser decodes it
 * (application/x-www-form-urlencoded, WHATWG URL): a byte sequence that is
 * not UTF-8 becomes U+FFFD. The framework's parser leaves such a value
 * percent-encoded instead, so `code=%ff%fe` would read as the harmless text
 * "%ff%fe" and the server would be sent a code it never issued. A repeated
 * parameter becomes a list, as in the framework's query.
 */
export function callbackQuery(requestUrl: string): CallbackQuery {
  const search = requestUrl.includes('?') ? requestUrl.slice(requestUrl.indexOf('?') + 1) : '';
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(search)) {
    const known = query[name];
    query[name] =
      known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
  }
  return query;
}
