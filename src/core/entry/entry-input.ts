import { z } from 'zod';
import {
  oidcInput,
  revalidateGraceMinutesInput,
  revalidateMinutesInput,
} from '../oidc/oidc-input.js';
import { userIdScopes } from '../user/user-id-scope.js';
import { groupMappingInput } from './group-mapping.js';
import { ldapInput } from './ldap-entry.js';
import { samlInput } from './saml-entry.js';
import { shapesInput } from './shapes-input.js';

/**
 * The shape of an entry as the API, the console and the provisioning file
 * send it (docs/entries.md#fields). Only shapes and types live here; what the strings mean
 * (templates, expressions, attributes) is checked by validateEntry so that
 * every problem is reported together, with its position.
 */
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/** Forms send "" for a field left blank; an optional field left blank is absent. */
const optionalText = (max: number) =>
  text(max)
    .optional()
    .transform((value) => (value === '' ? undefined : value));

export const entryIdPattern = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Ids that would collide with the gateway's own routes under /_sso/login/. */
const reservedEntryIds: ReadonlySet<string> = new Set(['local']);

const headerInput = z.strictObject({
  name: text(256),
  value: text(4096),
});

const callOptionsShape = {
  /** Extra request headers; values may hold the call's placeholders. */
  headers: z.array(headerInput).max(32).optional(),
  /** Body of a `POST ` call: JSON (the default) or a standard form. */
  bodyEncoding: z.enum(['json', 'form']).optional(),
  /** An expression over $response that must yield true for the call to count as a success. */
  successCondition: optionalText(4096),
};

const tokenRequestInput = z.strictObject({
  ...callOptionsShape,
  /** RFC 6749 §2.3.1 HTTP Basic client authentication with appid/appsecret. */
  clientAuthentication: z.enum(['none', 'basic']).optional(),
});

const userInfoRequestInput = z.strictObject(callOptionsShape);

const mappingInput = z.strictObject({
  attribute: text(64),
  expression: text(4096),
  /** The response must hold it (userId always must); otherwise a missing value is left unset. */
  required: z.boolean().optional(),
});

const tokenValueInput = z.strictObject({
  name: text(64),
  expression: text(4096),
});

const provisioningInput = z.strictObject({
  /** Create users that do not exist yet. */
  createUsers: z.boolean().optional(),
  /** Update mapped columns at every sign-in. */
  updateOnSignIn: z.boolean().optional(),
  /** Sign in to a user that exists but came from elsewhere. */
  adoptExistingUsers: z.boolean().optional(),
  /**
   * `global` (the default): a userId names the same user at every entry.
   * `entry`: the entry's users are its own, known as `<entry id>:<userId>`.
   */
  userIdScope: z.enum(userIdScopes).optional(),
});

/** A key of extensionSettings: a short identifier, as an extension reads it. */
export const extensionSettingName = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

export const entryInput = z.strictObject({
  /**
   * `oauth2` (the default) is configured by templates; `extension` delegates to an
   * extension service; `ldap` checks a password against a directory; `saml`
   * signs in at a SAML 2.0 identity provider.
   */
  type: z.enum(['oauth2', 'extension', 'ldap', 'saml']).optional(),
  id: z
    .string()
    .regex(
      entryIdPattern,
      'must be 1-64 lowercase letters, digits or inner hyphens (a URL-safe slug)',
    )
    .refine((id) => !reservedEntryIds.has(id), 'is reserved for the gateway'),
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  enabled: z.boolean(),
  isDefault: z.boolean().optional(),
  appid: optionalText(512),
  appsecret: optionalText(4096),
  // Required for type oauth2 only; validateEntry says so with the field's name.
  authorizeUrl: optionalText(4096),
  tokenUrl: optionalText(4096),
  tokenParse: optionalText(4096),
  logoutUrl: optionalText(4096),
  userInfoUrl: optionalText(4096),
  userInfoParse: z.union([z.array(mappingInput).max(32), text(64 * 1024)]).optional(),
  pkce: z.boolean().optional(),
  tokenRequest: tokenRequestInput.optional(),
  userInfoRequest: userInfoRequestInput.optional(),
  tokenValues: z.array(tokenValueInput).max(16).optional(),
  timeoutMs: z.number().int().min(100).max(60_000).optional(),
  provisioning: provisioningInput.optional(),
  /** OpenID Connect (docs/entries.md#openid-connect): the issuer, discovery and id_token checks. */
  oidc: oidcInput.optional(),
  /** A SAML 2.0 identity provider (type saml, docs/entries.md#saml-20-identity-providers). */
  saml: samlInput.optional(),
  /**
   * Re-check a session every so many minutes by calling user info again with
   * the sign-in's access token (docs/entries.md#re-validation); off when absent.
   */
  revalidateMinutes: revalidateMinutesInput.optional(),
  /** How long a session survives the provider being unreachable at a re-check; default 60. */
  revalidateGraceMinutes: revalidateGraceMinutesInput.optional(),
  ...shapesInput,
  /** Groups and the administrator flag from the user-info answer. */
  groupMapping: groupMappingInput.optional(),
  /** Base URL of the extension service (type extension). */
  extensionUrl: optionalText(2048),
  /** The HMAC secret shared with the extension; write-only like appsecret. */
  extensionSecret: optionalText(4096),
  /** Opaque settings passed to the extension with every call. */
  extensionSettings: z
    .record(
      z.string().regex(extensionSettingName, 'must be a name of letters, digits, _ . or -'),
      text(4096),
    )
    .refine((settings) => Object.keys(settings).length <= 64, 'must hold at most 64 settings')
    .optional(),
  /** The directory of an entry of type ldap (docs/entries.md#ldap-directories). */
  ldap: ldapInput.optional(),
});

export type EntryInput = z.infer<typeof entryInput>;
