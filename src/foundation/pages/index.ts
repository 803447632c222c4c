export { MARK_PATH, PRODUCT_NAME, markSvg } from './brand.js';
export { RELAYED_FIELD, RELAY_SCRIPT_SOURCE, callbackRelayPage } from './callback-relay-page.js';
export { chooserPage, entryHref } from './chooser-page.js';
export { consentPage } from './consent-page.js';
export { directorySignInPage } from './directory-sign-in-page.js';
export { formPostPage } from './form-post-page.js';
export type { ChooserEntry, ChooserPageInput, LocalFormInput } from './chooser-page.js';
export { MAX_DETAIL_LENGTH, errorPage, flowErrorSentences, retryCanHelp } from './error-page.js';
export type { ErrorPageInput } from './error-page.js';
export { SafeHtml, escapeHtml, html } from './html.js';
export {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  LANGUAGE_COOKIE,
  isLanguage,
  negotiateLanguage,
  pageMessages,
} from './i18n/index.js';
export type { Language, PageMessages } from './i18n/index.js';
export { LANGUAGE_SWITCH_PATH, localHref } from './layout.js';
export type { PageContext } from './layout.js';
export { portalPage } from './portal-page.js';
export type { PortalPageInput, PortalUser } from './portal-page.js';
export {
  enrolFactorPage,
  factorListPage,
  recoveryCodesPage,
  verifyFactorPage,
} from './second-factor-pages.js';
export { passkeyPage } from './passkey-pages.js';
export { signedOutPage } from './signed-out-page.js';
export type { SignOutScope } from './signed-out-page.js';
export { signOutPage } from './sign-out-page.js';
export { trialSignInPage } from './trial-sign-in-page.js';
export type { SignOutPageInput } from './sign-out-page.js';
export type { SignedInUser } from './sign-out-form.js';
export { STYLESHEET_PATH, stylesheet } from './stylesheet.js';
