import type { CommonBody, EntryKindId } from '../entry-kinds/entry-kind.js';
import { defaultEntryKind, entryKindOf } from '../entry-kinds/registry.js';
import type { EntryBody, EntryView, Problem } from '../types.js';
import { secretBody } from './body-parts.js';
import { printSettings } from './extension-settings.js';
import type { LdapDraft } from './ldap-draft.js';
import { emptyLdap, ldapFromEntry } from './ldap-draft.js';
import type { SamlDraft } from './saml-draft.js';
import { emptySaml, samlFromEntry } from './saml-draft.js';
import type { ShapesDraft } from './shapes-draft.js';
import { emptyShapes, shapesFromEntry } from './shapes-draft.js';

/**
 * The entry form's state: every field as the administrator types it
 * (strings, rows), turned into the admin API's entry body by toEntryBody.
 * Optional fields left blank are left out, so an entry without
 * options stays exactly as written (docs/entries.md#fields).
 */

export interface Row {
  /** A header's name, a token value's name or a mapping's attribute. */
  readonly name: string;
  /** A header's value or an expression. */
  readonly value: string;
  /** A user-info mapping the response must hold (docs/entries.md#user-mapping). */
  readonly required?: boolean;
}

/**
 * A write-only secret: `keep` sends nothing (the stored secret stays),
 * `replace` sends the typed value, `clear` sends null.
 */
export interface SecretDraft {
  readonly stored: boolean;
  readonly mode: 'keep' | 'replace' | 'clear';
  readonly value: string;
}

export interface CallDraft {
  readonly headers: readonly Row[];
  readonly bodyEncoding: 'json' | 'form';
  readonly successCondition: string;
}

export interface EntryDraft {
  readonly type: EntryKindId;
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly isDefault: boolean;
  readonly appid: string;
  readonly appsecret: SecretDraft;
  readonly authorizeUrl: string;
  readonly pkce: boolean;
  readonly tokenUrl: string;
  readonly tokenCall: CallDraft;
  readonly clientAuthentication: 'none' | 'basic';
  readonly tokenParse: string;
  readonly tokenValues: readonly Row[];
  readonly userInfoUrl: string;
  readonly userInfoCall: CallDraft;
  readonly mappingMode: 'table' | 'text';
  readonly mappingRows: readonly Row[];
  readonly mappingText: string;
  readonly logoutUrl: string;
  readonly timeoutMs: string;
  /** Re-validation with the access token (docs/entries.md#with-the-access-token), as typed. */
  readonly revalidateMinutes: string;
  readonly revalidateGraceMinutes: string;
  readonly createUsers: boolean;
  readonly updateOnSignIn: boolean;
  readonly adoptExistingUsers: boolean;
  /** Whether the entry's users live in a namespace of their own (`<entry id>:<userId>`). */
  readonly ownUserIds: boolean;
  readonly extensionUrl: string;
  readonly extensionSecret: SecretDraft;
  /** `key = value`, one per line. */
  readonly extensionSettings: string;
  /** An OpenID Connect entry's issuer; blank for a plain OAuth2 entry. */
  readonly oidcIssuer: string;
  /** The rest of the stored `oidc` block, kept as it is when the entry is saved. */
  readonly oidcOptions: Omit<NonNullable<EntryView['oidc']>, 'issuer'>;
  /** The shapes beyond the basic flow. */
  readonly shapes: ShapesDraft;
  /** An LDAP entry's directory (ldap-draft.ts). */
  readonly ldap: LdapDraft;
  /** A SAML identity provider (type saml). */
  readonly saml: SamlDraft;
}

const emptyCall: CallDraft = { headers: [], bodyEncoding: 'json', successCondition: '' };
const newSecret: SecretDraft = { stored: false, mode: 'replace', value: '' };

export const emptyDraft: EntryDraft = {
  type: defaultEntryKind.id,
  id: '',
  name: '',
  // A new entry stays off the sign-in page until the administrator enables it.
  enabled: false,
  isDefault: false,
  appid: '',
  appsecret: newSecret,
  authorizeUrl: '',
  pkce: false,
  tokenUrl: '',
  tokenCall: emptyCall,
  clientAuthentication: 'none',
  tokenParse: '',
  tokenValues: [],
  userInfoUrl: '',
  userInfoCall: emptyCall,
  mappingMode: 'table',
  mappingRows: [],
  mappingText: '',
  logoutUrl: '',
  timeoutMs: '',
  revalidateMinutes: '',
  revalidateGraceMinutes: '',
  createUsers: true,
  updateOnSignIn: true,
  adoptExistingUsers: false,
  ownUserIds: false,
  extensionUrl: '',
  extensionSecret: newSecret,
  extensionSettings: '',
  oidcIssuer: '',
  oidcOptions: {},
  shapes: emptyShapes,
  ldap: emptyLdap,
  saml: emptySaml,
};

function storedSecret(set: boolean | undefined): SecretDraft {
  return set === true ? { stored: true, mode: 'keep', value: '' } : newSecret;
}

function callDraft(view: EntryView['tokenRequest']): CallDraft {
  return {
    headers: (view?.headers ?? []).map(({ name, value }) => ({ name, value })),
    bodyEncoding: view?.bodyEncoding ?? 'json',
    successCondition: view?.successCondition ?? '',
  };
}

/** The form's state for a stored entry. */
export function draftFromEntry(view: EntryView): EntryDraft {
  const mapping = view.userInfoParse;
  return {
    type: entryKindOf(view).id,
    id: view.id,
    name: view.name,
    enabled: view.enabled,
    isDefault: view.isDefault,
    appid: view.appid ?? '',
    appsecret: storedSecret(view.appsecretSet),
    authorizeUrl: view.authorizeUrl ?? '',
    pkce: view.pkce ?? false,
    tokenUrl: view.tokenUrl ?? '',
    tokenCall: callDraft(view.tokenRequest),
    clientAuthentication: view.tokenRequest?.clientAuthentication ?? 'none',
    tokenParse: view.tokenParse ?? '',
    tokenValues: (view.tokenValues ?? []).map(({ name, expression }) => ({
      name,
      value: expression,
    })),
    userInfoUrl: view.userInfoUrl ?? '',
    userInfoCall: callDraft(view.userInfoRequest),
    mappingMode: typeof mapping === 'string' ? 'text' : 'table',
    mappingRows:
      mapping === undefined || typeof mapping === 'string'
        ? []
        : mapping.map(({ attribute, expression, required }) => ({
            name: attribute,
            value: expression,
            ...(required === true ? { required } : {}),
          })),
    mappingText: typeof mapping === 'string' ? mapping : '',
    logoutUrl: view.logoutUrl ?? '',
    timeoutMs: view.timeoutMs === undefined ? '' : String(view.timeoutMs),
    revalidateMinutes: view.revalidateMinutes === undefined ? '' : String(view.revalidateMinutes),
    revalidateGraceMinutes:
      view.revalidateGraceMinutes === undefined ? '' : String(view.revalidateGraceMinutes),
    createUsers: view.provisioning?.createUsers ?? true,
    updateOnSignIn: view.provisioning?.updateOnSignIn ?? true,
    adoptExistingUsers: view.provisioning?.adoptExistingUsers ?? false,
    ownUserIds: view.provisioning?.userIdScope === 'entry',
    extensionUrl: view.extensionUrl ?? '',
    extensionSecret: storedSecret(view.extensionSecretSet),
    extensionSettings: printSettings(view.extensionSettings ?? {}),
    ...oidcDraft(view.oidc),
    shapes: shapesFromEntry(view),
    ldap: ldapFromEntry(view),
    saml: samlFromEntry(view),
  };
}

function oidcDraft(oidc: EntryView['oidc']): Pick<EntryDraft, 'oidcIssuer' | 'oidcOptions'> {
  if (oidc === undefined) return { oidcIssuer: '', oidcOptions: {} };
  const { issuer, ...options } = oidc;
  return { oidcIssuer: issuer, oidcOptions: options };
}

/**
 * The entry as the admin API takes it. `isDefault` is sent only to keep a
 * stored default: making an entry the default goes through its own route,
 * which also takes the mark from the previous default.
 */
export function toEntryBody(draft: EntryDraft, storedDefault = false): EntryBody {
  const optional = (value: string) => (value.trim() === '' ? undefined : value);
  const common: CommonBody = {
    id: draft.id,
    name: draft.name,
    enabled: draft.enabled,
    ...(draft.isDefault && storedDefault ? { isDefault: true } : {}),
    appid: optional(draft.appid),
    appsecret: secretBody(draft.appsecret),
    provisioning: {
      createUsers: draft.createUsers,
      updateOnSignIn: draft.updateOnSignIn,
      adoptExistingUsers: draft.adoptExistingUsers,
      // Left out when global (the default), so older entries save unchanged.
      ...(draft.ownUserIds ? { userIdScope: 'entry' } : {}),
    },
  };
  return entryKindOf(draft).body(draft, common);
}

/** The problems of one field: itself, or (with `nested`) anything inside it. */
export function problemsOf(
  problems: readonly Problem[],
  field: string,
  nested = false,
): readonly Problem[] {
  return problems.filter(
    (problem) =>
      problem.field === field ||
      (nested && (problem.field.startsWith(`${field}.`) || problem.field.startsWith(`${field}[`))),
  );
}

/** The id of the input that shows `field` (`tokenRequest.headers[0].name` -> `field-tokenRequest-headers-0-name`). */
export function fieldId(field: string): string {
  return `field-${field.replace(/\[(\d+)\]/g, '-$1').replace(/[^A-Za-z0-9-]+/g, '-')}`;
}
