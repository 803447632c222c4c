import type { ErrorCode } from '../core/index.js';
import { html } from './html.js';
import { localHref, renderDocument } from './layout.js';
import type { SignedInUser } from './sign-out-form.js';
import { signOutForm, signedInAs } from './sign-out-form.js';

/**
 * One plain sentence per code that can end on a page: the sign-in flow
 * (docs/design.md#failures) and the gateway's own surface. Codes only the admin API or the
 * start-up can raise have none; callers fall back to the registry summary.
 */
export const flowErrorSentences: Readonly<Partial<Record<ErrorCode, string>>> = {
  provider_error:
    'The sign-in service reported a problem and did not sign you in. Please try again.',
  missing_code: 'The sign-in service sent an incomplete answer. Please start again.',
  code_invalid: 'The sign-in service sent an answer the gateway cannot accept. Please start again.',
  state_invalid: 'This sign-in link has expired or was already used. Please start again.',
  entry_unknown: 'This sign-in method does not exist. Please choose another one.',
  entry_disabled: 'This sign-in method is turned off. Please choose another one.',
  token_request_failed:
    'The sign-in service could not be reached or refused the request. Please try again later.',
  token_parse_failed:
    'The sign-in service sent an answer the gateway could not read. Ask your administrator.',
  userinfo_request_failed:
    'Your account details could not be fetched from the sign-in service. Please try again later.',
  userinfo_parse_failed:
    'Your account details from the sign-in service could not be read. Ask your administrator.',
  user_disabled: 'Your account is disabled. Ask your administrator.',
  signup_not_allowed:
    'You do not have an account here yet, and this sign-in method cannot create one. Ask your administrator.',
  account_conflict:
    'An account with this name already exists and cannot be signed in to this way. Ask your administrator.',
  unauthenticated: 'You need to sign in to see this page.',
  forbidden: 'You are not allowed to do this.',
  csrf_failed: 'This form has expired. Please go back, reload the page and try again.',
  local_sign_in_failed: 'The username or password is wrong.',
  rate_limited: 'Too many attempts. Please wait a few minutes and try again.',
  request_invalid: 'The request was not understood. Please start again.',
  not_found: 'There is nothing at this address.',
  service_unavailable: 'The sign-in gateway is temporarily unavailable. Please try again later.',
  internal_error:
    'Something went wrong on our side. Please try again; if it keeps failing, tell your administrator the reference below.',
  extension_unavailable: 'The sign-in service could not be reached. Please try again later.',
  extension_timeout: 'The sign-in service took too long to answer. Please try again later.',
  extension_bad_signature:
    'The sign-in service sent an answer the gateway could not trust. Ask your administrator.',
  extension_bad_answer:
    'The sign-in service sent an answer the gateway could not read. Ask your administrator.',
  extension_error: 'The sign-in service reported a problem and did not sign you in.',
};

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
]);

/** Whether the page for `code` offers "Try again". */
export function retryCanHelp(code: string): boolean {
  return retryHelps.has(code);
}

export interface ErrorPageInput {
  readonly status: number;
  readonly code: string;
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
}

export const MAX_DETAIL_LENGTH = 300;
const CHOOSER = '/_sso/login';

export function errorPage(input: ErrorPageInput): string {
  const detail = input.detail === undefined ? '' : cleanDetail(input.detail);
  const tryAgain = localHref(input.tryAgainHref, CHOOSER);
  return renderDocument(
    headingFor(input.status),
    html`<h1>${headingFor(input.status)}</h1>
      <p>${input.sentence}</p>
      ${detail === '' ? undefined : html`<p class="error">Details from the sign-in service: ${detail}</p>`}
      <p class="meta">
        Error code: <code>${input.code}</code><br />Reference: <code>${input.reference}</code>
      </p>
      ${nextSteps(input, tryAgain)}`,
  );
}

function nextSteps(input: ErrorPageInput, tryAgain: string) {
  if (input.signedIn !== undefined) {
    return html`${signedInAs(input.signedIn.user)}
      <p>To use another account, sign out first.</p>
      ${signOutForm(input.signedIn.signOutCsrf)}
      <p><a href="/">Go to the start page</a></p>`;
  }
  if (!retryCanHelp(input.code)) {
    return html`<a class="button" href="${CHOOSER}">Choose another way to sign in</a>`;
  }
  return html`<a class="button" href="${tryAgain}">Try again</a>
    ${tryAgain === CHOOSER ? undefined : html`<p><a href="${CHOOSER}">Choose another way to sign in</a></p>`}`;
}

function headingFor(status: number): string {
  if (status === 401) return 'Sign-in needed';
  if (status === 403) return 'Not allowed';
  if (status === 404) return 'Not found';
  if (status === 429) return 'Too many attempts';
  if (status >= 500) return 'Something went wrong';
  return 'Sign-in did not work';
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
