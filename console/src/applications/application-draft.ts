import type { ConsoleMessages } from '../i18n/catalogs.js';
import { en } from '../i18n/catalogs.js';
import type {
  ApplicationCreateBody,
  ApplicationSettingsBody,
  ApplicationView,
  Problem,
} from '../types.js';

/**
 * An application (an OpenID client of the gateway's provider,
 * docs/openid-provider.md#clients) as its form holds it, and back to what
 * the admin API takes. Plain code, no DOM (tested under Node.js).
 *
 * The form has a place for each setting of `oidcClientSettings`
 * (src/features/admin-api/oidc-clients.ts); a setting the API gains
 * is added here, to the draft, to both conversions and to the form.
 */
export interface ApplicationDraft {
  readonly name: string;
  /** Chosen when the application is made; fixed after. */
  readonly clientId: string;
  /** No secret, PKCE instead; chosen when it is made, fixed after. */
  readonly isPublic: boolean;
  /**
   * One row per URI, blank rows too: a problem names a row by its index in
   * the list sent (`redirectUris[1]`), so the rows sent are the rows shown.
   */
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris: readonly string[];
  /** Blank: none. */
  readonly backchannelLogoutUri: string;
  /** Blank: none (docs/openid-provider.md#front-channel-logout). */
  readonly frontchannelLogoutUri: string;
  /** Whether that page is loaded with iss and sid. */
  readonly frontchannelLogoutSessionRequired: boolean;
  /** Entry ids, in the order they were ticked; none: every entry. */
  readonly allowedEntries: readonly string[];
  /** One userId per line. */
  readonly allowedUsers: string;
  /** One group per line. */
  readonly allowedGroups: string;
  readonly refreshTokens: boolean;
  readonly subjectType: 'public' | 'pairwise';
  /** The consent page before a code is issued (docs/openid-provider.md#consent). */
  readonly consent: boolean;
}

/** A new application: confidential, one redirect URI to fill in, everyone allowed. */
export const emptyApplicationDraft: ApplicationDraft = {
  name: '',
  clientId: '',
  isPublic: false,
  redirectUris: [''],
  postLogoutRedirectUris: [],
  backchannelLogoutUri: '',
  frontchannelLogoutUri: '',
  frontchannelLogoutSessionRequired: false,
  allowedEntries: [],
  allowedUsers: '',
  allowedGroups: '',
  refreshTokens: false,
  subjectType: 'public',
  consent: false,
};

export function draftFromApplication(client: ApplicationView): ApplicationDraft {
  return {
    name: client.name,
    clientId: client.clientId,
    isPublic: client.public,
    redirectUris: [...client.redirectUris],
    postLogoutRedirectUris: [...client.postLogoutRedirectUris],
    backchannelLogoutUri: client.backchannelLogoutUri ?? '',
    frontchannelLogoutUri: client.frontchannelLogoutUri ?? '',
    frontchannelLogoutSessionRequired: client.frontchannelLogoutSessionRequired,
    allowedEntries: [...client.allowedEntries],
    allowedUsers: client.allowedUsers.join('\n'),
    allowedGroups: client.allowedGroups.join('\n'),
    refreshTokens: client.refreshTokens,
    subjectType: client.subjectType,
    consent: client.consent,
  };
}

/** The non-blank lines of a text box, trimmed. */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** What PUT /_sso/api/oidc-clients/{clientId} takes: every setting, none left to a default. */
export function toSettingsBody(draft: ApplicationDraft): ApplicationSettingsBody {
  const uri = draft.backchannelLogoutUri.trim();
  const frontchannelUri = draft.frontchannelLogoutUri.trim();
  return {
    name: draft.name.trim(),
    redirectUris: draft.redirectUris.map((each) => each.trim()),
    postLogoutRedirectUris: draft.postLogoutRedirectUris.map((each) => each.trim()),
    backchannelLogoutUri: uri === '' ? null : uri,
    frontchannelLogoutUri: frontchannelUri === '' ? null : frontchannelUri,
    frontchannelLogoutSessionRequired: draft.frontchannelLogoutSessionRequired,
    allowedEntries: [...draft.allowedEntries],
    allowedUsers: linesOf(draft.allowedUsers),
    allowedGroups: linesOf(draft.allowedGroups),
    refreshTokens: draft.refreshTokens,
    subjectType: draft.subjectType,
    consent: draft.consent,
  };
}

/** What POST /_sso/api/oidc-clients takes: the settings, the client id and its kind. */
export function toCreateBody(draft: ApplicationDraft): ApplicationCreateBody {
  return { ...toSettingsBody(draft), clientId: draft.clientId.trim(), public: draft.isPublic };
}

/**
 * The admin API's problems named by the form's fields: a request's problems
 * are named from the part of the request (`body.redirectUris[0]`), the form
 * knows only the body. A taken client id comes without a field, and belongs
 * to the client id's field; redirect URIs a pairwise client cannot have, to
 * theirs.
 */
export function formProblems(code: string, problems: readonly Problem[]): Problem[] {
  if (code === 'oidc_client_exists' && problems.length === 0) {
    return [{ field: 'clientId', code, message: '' }];
  }
  // A pairwise client's redirect URIs on several hosts: refused as a whole
  // (src/features/admin-api/oidc-clients.ts), shown under the URIs.
  if (code === 'oidc_client_sector_ambiguous' && problems.length === 0) {
    return [{ field: 'redirectUris', code, message: en.applications.problems.sectorAmbiguous }];
  }
  return problems.map((problem) => ({
    ...problem,
    field: problem.field.replace(/^(body|params)\./, ''),
  }));
}

/** The fields the form shows a problem under. */
const formFields = new Set([
  'name',
  'clientId',
  'public',
  'redirectUris',
  'postLogoutRedirectUris',
  'backchannelLogoutUri',
  'frontchannelLogoutUri',
  'frontchannelLogoutSessionRequired',
  'allowedEntries',
  'allowedUsers',
  'allowedGroups',
  'refreshTokens',
  'subjectType',
  'consent',
]);

/** The problems no field of the form shows (a setting it does not know yet): shown by the save button. */
export function strayProblems(problems: readonly Problem[]): Problem[] {
  return problems.filter((problem) => !formFields.has(problem.field.split(/[.[]/)[0] ?? ''));
}

type ProblemWords = ConsoleMessages['applications']['problems'];

/**
 * A problem in the language on screen: the admin API writes its sentences
 * in English (src/features/admin-api/oidc-clients.ts), the catalog has
 * each of an application's in every language; one it does not know keeps
 * the API's words. The code stays beside it on screen.
 */
export function problemSentence(problem: Problem, words: ProblemWords): string {
  const english = en.applications.problems;
  if (problem.code === 'oidc_client_exists') return words.takenId;
  const exact: Readonly<Record<string, string>> = {
    [english.uri]: words.uri,
    [english.clientId]: words.clientId,
    [english.oneUri]: words.oneUri,
    [english.notEmpty]: words.notEmpty,
    [english.sectorAmbiguous]: words.sectorAmbiguous,
  };
  const known = exact[problem.message];
  if (known !== undefined) return known;
  const entry = /^no entry has the id "(.*)"$/.exec(problem.message)?.[1];
  return entry === undefined ? problem.message : words.noEntry(entry);
}

/** Where the applications that sign in here find the gateway: the issuer and its endpoints. */
export interface ProviderAddresses {
  readonly issuer: string;
  readonly discovery: string;
  readonly authorization: string;
  readonly token: string;
  readonly userinfo: string;
  readonly endSession: string;
}

/**
 * The issuer is the public URL without a trailing slash
 * (docs/openid-provider.md#endpoints); the paths are those its discovery
 * document names (src/features/openid-provider/endpoints.ts).
 */
export function providerAddresses(publicOrigin: string): ProviderAddresses {
  const issuer = publicOrigin.replace(/\/+$/, '');
  return {
    issuer,
    discovery: `${issuer}/.well-known/openid-configuration`,
    authorization: `${issuer}/_sso/oidc/authorize`,
    token: `${issuer}/_sso/oidc/token`,
    userinfo: `${issuer}/_sso/oidc/userinfo`,
    endSession: `${issuer}/_sso/oidc/logout`,
  };
}

/** The scopes the provider's discovery document lists (`scopes_supported`). */
export const providerScopes = 'openid profile email groups';
