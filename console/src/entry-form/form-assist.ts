import type { ConsoleMessages } from '../i18n/catalogs.js';
import type { Problem } from '../types.js';
import type { FieldWords } from './field-labels.js';
import { labelOf, problemText } from './field-labels.js';

/**
 * What the entry form does for a newcomer beside the core's own checks:
 * names on-screen labels, holds back "required" until a field was reached,
 * catches a taken id, suggests an id, shows the callback URL. Plain code,
 * no DOM (tested under Node.js); the words come in as the catalog's
 * `entryForm` section.
 */

type AssistWords = FieldWords & Pick<ConsoleMessages['entryForm'], 'takenId'>;

/** A problem said with the form's labels instead of API field names. */
export function inScreenWords(problem: Problem, words: FieldWords): Problem {
  return { ...problem, message: problemText(problem, words) };
}

/** A problem that only says a value is missing. */
function saysMissing(problem: Problem): boolean {
  return /^(is required|must not be empty)\b/.test(problem.message);
}

/**
 * A text field with nothing typed in it. An absent value is not blank: a
 * problem of the whole entry, or of a field the form does not send, shows.
 */
function isBlank(value: unknown): boolean {
  return typeof value === 'string' && value.trim() === '';
}

/** The top-level field a problem belongs to (`tokenRequest.headers[0]` → `tokenRequest`). */
export function topField(field: string): string {
  return field.split(/[.[]/)[0] ?? field;
}

/**
 * The value at a problem's field path in the entry as sent
 * (`tokenRequest.headers[0].name`), or undefined where the path leads nowhere.
 */
export function valueAt(body: unknown, field: string): unknown {
  let value = body;
  for (const step of field.split(/[.[\]]+/).filter((part) => part !== '')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/**
 * The problems to show: a missing value, or any problem of a field left
 * blank (an empty id "must be 1-64 lowercase letters…"), only for a field
 * the administrator has reached (left it once) or once they tried to save;
 * every other problem at once, since it is about what they wrote.
 *
 * The core's answer comes a moment after the typing it checked
 * (use-validation.ts), so it may say a field is missing that holds a value
 * by now: such a problem is not shown. Otherwise leaving a field just filled
 * (clicking the next control) would show its stale "is required", and the
 * form would move under the pointer between the press and the release, and
 * the click be lost.
 */
export function visibleProblems(
  problems: readonly Problem[],
  touched: ReadonlySet<string>,
  submitted: boolean,
  words: FieldWords,
  current: unknown,
): Problem[] {
  return problems
    .filter((problem) => {
      const now = valueAt(current, problem.field);
      const reached = submitted || touched.has(topField(problem.field));
      if (!saysMissing(problem)) return reached || !isBlank(now);
      if (typeof now === 'string' && now.trim() !== '') return false;
      return reached;
    })
    .map((problem) => inScreenWords(problem, words));
}

/** The problem of an id another entry has, caught while typing rather than at Create. */
export function takenIdProblem(
  id: string,
  takenIds: readonly string[],
  words: AssistWords,
): Problem | undefined {
  if (id === '' || !takenIds.includes(id)) return undefined;
  return {
    field: 'id',
    code: 'entry_exists',
    message: words.takenId(labelOf('id', words), id),
  };
}

/** An id made from a name: `Corp SSO (EU)` → `corp-sso-eu`, within the id's 64 characters. */
export function idFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 64)
    .replace(/^-+|-+$/g, '');
}

/**
 * An example header the call accepts: a Bearer token where the access
 * token exists (the user-info call), the app id where it does not (the
 * token call is what fetches the token), a plain one without placeholders.
 */
export function headerExample(allowed: readonly string[] | undefined): string {
  if (allowed?.includes('access_token') === true) return 'Authorization: Bearer ${access_token}';
  if (allowed?.includes('appid') === true) return 'X-Appid: ${appid}';
  return 'Accept: application/json';
}

/**
 * The id suggested for an entry made from a preset: the preset's own id
 * (`github`), with a number when another entry has it (`github-2`).
 */
export function uniqueId(base: string, takenIds: readonly string[]): string {
  if (!takenIds.includes(base)) return base;
  for (let number = 2; ; number += 1) {
    const candidate = `${base.slice(0, 60)}-${number}`;
    if (!takenIds.includes(candidate)) return candidate;
  }
}

/**
 * The origin users reach the gateway at: the configured public URL the page
 * carries, else the page's own origin. The administrator may have opened the
 * console at an internal address, which the third-party server never sees.
 */
export function publicOrigin(embeddedPublicUrl: string, pageOrigin: string): string {
  return embeddedPublicUrl === '' ? pageOrigin : embeddedPublicUrl;
}

/** The address the third-party server sends the browser back to: the public URL and the path. */
export function callbackUrl(publicOrigin: string, id: string): string {
  return `${publicOrigin.replace(/\/+$/, '')}/_sso/callback/${id === '' ? '{id}' : id}`;
}
