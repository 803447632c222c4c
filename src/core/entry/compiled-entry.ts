import type { OidcDiscovery } from '../oidc/discovery.js';
import type { UserInfoSource } from '../oidc/oidc-input.js';
import type { Expression } from '../expression/index.js';
import type { CompiledHeader, CompiledTemplate } from '../template/index.js';
import type { AttributeMapping } from '../user/map-user.js';
import type { UserIdScope } from '../user/user-id-scope.js';
import type { CompiledShapes } from './compile-shapes.js';
import type { AdminGroups, CompiledGroupMapping } from './group-mapping.js';
import type { EntryInput } from './entry-input.js';
import type { CompiledLdap } from './ldap-entry.js';

/** How one outbound call (token or user-info) is shaped, beyond its URL. */
export interface CompiledCall {
  readonly template: CompiledTemplate;
  readonly headers: readonly CompiledHeader[];
  readonly bodyEncoding: 'json' | 'form';
  readonly successCondition: Expression | undefined;
}

interface CompiledTokenCall extends CompiledCall {
  readonly clientAuthentication: 'none' | 'basic';
}

/** A value taken from the token response, usable as `${name}` in the user-info call. */
export interface TokenValue {
  readonly name: string;
  readonly expression: Expression;
}

export interface ProvisioningPolicy {
  readonly createUsers: boolean;
  readonly updateOnSignIn: boolean;
  readonly adoptExistingUsers: boolean;
  readonly userIdScope: UserIdScope;
}

/** What every entry has, whatever signs its users in. */
interface CompiledEntryBase {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly isDefault: boolean;
  readonly appid: string | undefined;
  readonly appsecret: string | undefined;
  readonly timeoutMs: number;
  /**
   * `form_post`: the callback also takes a POST (docs/entries.md#the-callback-by-post);
   * an oauth2 entry then asks for it with `response_mode=form_post`.
   */
  readonly responseMode: 'query' | 'form_post';
  readonly provisioning: ProvisioningPolicy;
  /** The validated input, normalised (blank optional fields removed). */
  readonly input: EntryInput;
}

/**
 * An entry whose templates and expressions were parsed once, at save time.
 * It holds the app secret because the token call needs it: it is an internal
 * object, and presenters never serialise it whole.
 */
export interface CompiledOAuth2Entry extends CompiledEntryBase {
  readonly type: 'oauth2';
  readonly authorize: CompiledTemplate;
  /** Absent when the entry reads the user with the code itself (codeInUserInfo, no tokenUrl). */
  readonly token: CompiledTokenCall | undefined;
  readonly tokenParse: Expression | undefined;
  readonly tokenValues: readonly TokenValue[];
  readonly userInfo: CompiledCall;
  /** Empty: the "empty" case, the object under `user` is the user. */
  readonly userInfoParse: readonly AttributeMapping[];
  readonly logout: CompiledTemplate | undefined;
  readonly pkce: boolean;
  /** The shapes beyond the basic flow (docs/entries.md#shapes-beyond-the-basic-flow). */
  readonly shapes: CompiledShapes;
  /** Groups and the administrator flag (docs/entries.md#groups-and-administrators). */
  readonly groupMapping: CompiledGroupMapping | undefined;
  /** Present on an OpenID Connect entry: its provider, as discovered, and the checks it asks. */
  readonly oidc: CompiledOidc | undefined;
  /** Re-checks of a session with the provider (docs/entries.md#re-validation), or undefined: off. */
  readonly revalidation: CompiledRevalidation | undefined;
}

export interface CompiledRevalidation {
  /** Milliseconds between re-checks. */
  readonly intervalMs: number;
  /** How long past the due time an unreachable provider is forgiven. */
  readonly graceMs: number;
}

/** What an OpenID Connect entry adds to the OAuth2 flow (docs/entries.md#openid-connect). */
export interface CompiledOidc {
  readonly issuer: string;
  /** The discovered metadata; a stand-in (every endpoint the issuer) when only validated. */
  readonly discovery: OidcDiscovery;
  readonly userInfo: UserInfoSource;
  readonly clockSkewSeconds: number;
  /** Milliseconds between re-checks of a session with the provider, or undefined. */
  readonly revalidateMs: number | undefined;
  readonly revalidateGraceMs: number;
}

/** Where an extension entry's service is, and the secret both sides sign with. */
export interface CompiledExtension {
  /** The base URL, without a trailing slash: routes are appended to it. */
  readonly url: string;
  readonly secret: string;
  readonly settings: Readonly<Record<string, string>>;
}

/**
 * An entry whose server is reached through an extension service (docs/extension.md):
 * the gateway keeps the flow, the extension builds the authorization URL and
 * reads the callback.
 */
export interface CompiledExtensionEntry extends CompiledEntryBase {
  readonly type: 'extension';
  readonly extension: CompiledExtension;
}

/**
 * An entry whose users type their password into the gateway's own form,
 * checked against an LDAP directory (docs/entries.md#ldap-directories).
 */
export interface CompiledLdapEntry extends CompiledEntryBase {
  readonly type: 'ldap';
  readonly ldap: CompiledLdap;
  /** Groups and the administrator flag, over the user's attributes and `groups`. */
  readonly groupMapping: CompiledGroupMapping | undefined;
}

/** What a SAML entry names of its identity provider (docs/entries.md#saml-20-identity-providers). */
export interface CompiledSaml {
  /** Undefined only with idpMetadataXml or idpMetadataUrl, which then says it (src/features/saml/idp-metadata.ts). */
  readonly ssoUrl: string | undefined;
  readonly idpEntityId: string | undefined;
  /** The signing certificate, as one PEM block. */
  readonly idpCertificate: string | undefined;
  /** The identity provider's metadata, pasted: what the three above leave out. */
  readonly idpMetadataXml: string | undefined;
  /** Or where it is fetched from, and refreshed (src/features/saml/idp-metadata.ts). */
  readonly idpMetadataUrl: string | undefined;
  /**
   * The gateway's key pair for encrypted assertions and for signing its own
   * messages (AuthnRequest, LogoutRequest, LogoutResponse): the certificate
   * its metadata publishes and the private key (the entry's appsecret, so
   * write-only and sealed at rest). Undefined: encrypted assertions are
   * refused and the gateway's messages go unsigned.
   */
  readonly decryption: { readonly certificate: string; readonly privateKey: string } | undefined;
  /** Undefined: the entry's metadata URL, which depends on the public URL. */
  readonly spEntityId: string | undefined;
  readonly clockSkewSeconds: number;
  /** True: an assertion is read only under its own signature, a signed Response's not enough. */
  readonly wantAssertionsSigned: boolean;
  /** The attributes read into the user; an undefined userId is the NameID. */
  readonly attributes: {
    readonly userId: string | undefined;
    readonly name: string | undefined;
    readonly email: string | undefined;
    readonly groups: string | undefined;
  };
}

/**
 * An entry whose users sign in at a SAML 2.0 identity provider, the gateway
 * its service provider (docs/entries.md#saml-20-identity-providers).
 */
export interface CompiledSamlEntry extends CompiledEntryBase {
  readonly type: 'saml';
  readonly saml: CompiledSaml;
  /**
   * The administrators' groups of `groupMapping`: the groups themselves are
   * the values of the attribute `saml.attributes.groups` names.
   */
  readonly groupMapping: AdminGroups | undefined;
}

export type CompiledEntry =
  CompiledOAuth2Entry | CompiledExtensionEntry | CompiledLdapEntry | CompiledSamlEntry;

export const defaultTimeoutMs = 10_000;

export const defaultProvisioning: ProvisioningPolicy = Object.freeze({
  createUsers: true,
  updateOnSignIn: true,
  adoptExistingUsers: false,
  userIdScope: 'global',
});
