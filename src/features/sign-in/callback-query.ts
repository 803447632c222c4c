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
  return formFields(requestUrl.includes('?') ? requestUrl.slice(requestUrl.indexOf('?') + 1) : '');
}

/**
 * Fields in application/x-www-form-urlencoded text, a query's or a posted
 * form's (OAuth 2.0 Form Post Response Mode §2 encodes the same way), read
 * as callbackQuery says.
 */
export function formFields(search: string): CallbackQuery {
  // Values gathered per name first: copying a growing list at each repeat
  // made a query of many repeated names (a=&a=&...) cost quadratic time.
  const values = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(search)) {
    const known = values.get(name);
    if (known === undefined) values.set(name, [value]);
    else known.push(value);
  }
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [name, list] of values) query[name] = list.length === 1 ? (list[0] ?? '') : list;
  return query;
}
