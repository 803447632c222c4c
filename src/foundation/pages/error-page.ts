import type { ErrorCode, ErrorFacts } from '../../core/index.js';
import { html } from './html.js';
import { en } from './i18n/index.js';
import type { PageMessages } from './i18n/index.js';
import { localHref, messagesOf, renderDocument } from './layout.js';
import type { PageContext } from './layout.js';
import type { SignedInUser } from './sign-out-form.js';
import { signOutForm, signedInAs } from './sign-out-form.js';

/**
 * One plain English sentence per code that can end on a page: the sign-in
 * flow (docs/design.md#failures) and the gateway's own surface. Codes only
 * the admin API or the start-up can raise have none; callers fall back to
 * the registry summary. Each language's sentences live in its catalog
 * (i18n/); the English ones are also the JSON answers' messages.
 */
export const flowErrorSentences: Readonly<Partial<Record<ErrorCode, string>>> = en.errors;

/**
 * The codes where doing the same again can succeed: a state that expired, a
 * server that was down, a form that went stale, a wait that ends. Elsewhere
 * (an entry turned off, an answer the entry cannot read, an account that is
 * disabled) the same click would fail the same way, so the page offers no
 * "Try again", only another way in.
 */
const retryHelps: ReadonlySet<string> = new Set<ErrorCode>([
  'provider_error',
  'missing_code',
  'code_invalid',
  'state_invalid',
  'token_request_failed',
  'userinfo_request_failed',
  'csrf_failed',
  'local_sign_in_failed',
  'rate_limited',
  'request_invalid',
  'service_unavailable',
  'internal_error',
  'extension_unavailable',
  'extension_timeout',
  'extension_error',
  'unauthenticated',
  'upstream_unavailable',
  'upstream_timeout',
  'second_factor_not_recent',
]);

/**
 * The codes of a signed-in user's request to an application behind the
 * gateway: "Try again" reloads the page asked for, and another way to sign
 * in is no help to someone signed in already.
 */
const afterSignIn: ReadonlySet<string> = new Set<ErrorCode>([
  'upstream_unavailable',
  'upstream_timeout',
  // Removing the last second factor: "Try again" asks for a code first
  // (second-factor/routes.ts), then comes back to the list of factors.
  'second_factor_not_recent',
]);

/**
 * The server's refusals (RFC 6749 §5.2 error codes) that say the entry's own
 * settings are wrong: its client id or secret, its grant or its scopes. The
 * same attempt would fail again until an administrator changes the entry.
 */
const settingsRefusals: ReadonlySet<string> = new Set([
  'invalid_client',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
]);

/**
 * Whether a failed call was refused for the entry's settings rather than
 * for a passing reason: the server names one of the settings refusals, or
 * answers 401 or 403 without naming a used or expired code (invalid_grant).
 */
export function isSettingsFault(code: string, facts: ErrorFacts | undefined): boolean {
  if (code !== 'token_request_failed' && code !== 'userinfo_request_failed') return false;
  const serverError = facts?.error;
  if (typeof serverError === 'string' && settingsRefusals.has(serverError)) return true;
  return (facts?.status === 401 || facts?.status === 403) && serverError !== 'invalid_grant';
}

/** Whether the page for `code` offers "Try again". */
export function retryCanHelp(code: string, facts?: ErrorFacts): boolean {
  return retryHelps.has(code) && !isSettingsFault(code, facts);
}

export interface ErrorPageInput {
  readonly status: number;
  readonly code: string;
  /** The English sentence; a page in another language shows its catalog's instead. */
  readonly sentence: string;
  /** Text from the third-party server (e.g. error_description): escaped and cut. */
  readonly detail?: string;
  readonly reference: string;
  /** A same-origin path; anything else falls back to the chooser. */
  readonly tryAgainHref: string;
  /**
   * Who is signed in, when the page refuses someone who is (a user who is
   * not an administrator opening the console): the page names them and
   * offers a sign-out instead of another way to sign in.
   */
  readonly signedIn?: { readonly user: SignedInUser; readonly signOutCsrf: string };
  /**
   * What the failure found out (the server's status and `error`, already
   * masked): tells a refusal of the entry's settings, which an administrator
   * must fix, from a passing failure.
   */
  readonly facts?: ErrorFacts;
  readonly page?: PageContext;
}

export const MAX_DETAIL_LENGTH = 300;
const CHOOSER = '/_sso/login';

export function errorPage(input: ErrorPageInput): string {
  const t = messagesOf(input.page);
  const detail = input.detail === undefined ? '' : cleanDetail(input.detail);
  const tryAgain = localHref(input.tryAgainHref, CHOOSER);
  const heading = headingFor(t, input.status);
  const { code, reference } = t.errorPage;
  return renderDocument(
    input.page,
    heading,
    html`<h1>${heading}</h1>
      <p>${sentenceIn(t, input)}</p>
      ${detail === '' ? undefined : html`<p class="error">${t.errorPage.details} ${detail}</p>`}
      <p class="meta">
        ${code} <code>${input.code}</code><br />${reference} <code>${input.reference}</code>
      </p>
      ${nextSteps(t, input, tryAgain)}`,
  );
}

/**
 * The catalog's sentence for the code; else, in English, the one the caller
 * gave (the registry summary), and in another language a general one, as
 * the code below it still says exactly what failed.
 */
function sentenceIn(t: PageMessages, input: ErrorPageInput): string {
  if (isSettingsFault(input.code, input.facts)) return t.errorPage.misconfigured;
  const sentences: Readonly<Record<string, string>> = t.errors;
  if (Object.hasOwn(sentences, input.code)) return sentences[input.code] ?? input.sentence;
  return t === en ? input.sentence : t.errorPage.other;
}

function nextSteps(t: PageMessages, input: ErrorPageInput, tryAgain: string) {
  const steps = t.errorPage;
  if (input.signedIn !== undefined) {
    return html`${signedInAs(t, input.signedIn.user)}
      <p>${steps.useAnother}</p>
      ${signOutForm(t, input.signedIn.signOutCsrf)}
      <p><a href="/">${steps.startPage}</a></p>`;
  }
  if (!retryCanHelp(input.code, input.facts)) {
    return html`<a class="button" href="${CHOOSER}">${steps.chooseAnother}</a>`;
  }
  if (afterSignIn.has(input.code)) {
    return html`<a class="button" href="${tryAgain}">${steps.tryAgain}</a>
      <p><a href="/">${steps.startPage}</a></p>`;
  }
  return html`<a class="button" href="${tryAgain}">${steps.tryAgain}</a>
    ${tryAgain === CHOOSER ? undefined : html`<p><a href="${CHOOSER}">${steps.chooseAnother}</a></p>`}`;
}

function headingFor(t: PageMessages, status: number): string {
  const headings = t.errorPage;
  if (status === 401) return headings.unauthenticated;
  if (status === 403) return headings.forbidden;
  if (status === 404) return headings.notFound;
  if (status === 429) return headings.tooMany;
  if (status >= 500) return headings.serverError;
  return headings.failed;
}

/**
 * Third-party text is shown as one short line: control characters (CR, LF,
 * bidi overrides) become spaces, and the cut is by code point so no
 * surrogate pair is split. Escaping happens later, so no entity is cut.
 */
function cleanDetail(detail: string): string {
  const oneLine = detail.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ').trim();
  const chars = Array.from(oneLine);
  return chars.length <= MAX_DETAIL_LENGTH
    ? oneLine
    : `${chars.slice(0, MAX_DETAIL_LENGTH - 1).join('')}…`;
}
