import type { CompiledSamlEntry } from '../../core/index.js';
import { callbackUrl } from '../../core/index.js';

/** The gateway's own SAML endpoints for one entry, as the identity provider knows them. */
export interface SamlEndpoints {
  /** The AssertionConsumerService (HTTP-POST binding): the entry's callback. */
  readonly acsUrl: string;
  /**
   * The SingleLogoutService (HTTP-Redirect binding, SAML Profiles §4.4):
   * where the identity provider sends its LogoutRequest and its LogoutResponse.
   */
  readonly sloUrl: string;
  /** Where the service provider's metadata is served (metadata-route.ts). */
  readonly metadataUrl: string;
  /** The entityID: the entry's `saml.spEntityId`, or else the metadata URL. */
  readonly spEntityId: string;
}

/**
 * Derived from the configured public URL only, never from request headers,
 * as every URL a third-party server sees (src/core/request/gateway-urls.ts).
 */
export function samlEndpoints(publicUrl: string, entry: CompiledSamlEntry): SamlEndpoints {
  const base = publicUrl.replace(/\/+$/, '');
  const metadataUrl = `${base}/_sso/saml/${encodeURIComponent(entry.id)}/metadata`;
  return {
    acsUrl: callbackUrl(publicUrl, entry.id),
    sloUrl: `${base}/_sso/saml/${encodeURIComponent(entry.id)}/logout`,
    metadataUrl,
    spEntityId: entry.saml.spEntityId ?? metadataUrl,
  };
}

/**
 * The public URL a pending sign-in's redirect URI was made from: the
 * gateway wrote it at the start as callbackUrl(publicUrl, id), so the
 * answer is read against the very endpoints the request named.
 */
export function publicUrlOfCallback(redirectUri: string, entryId: string): string {
  const suffix = `/_sso/callback/${encodeURIComponent(entryId)}`;
  return redirectUri.endsWith(suffix) ? redirectUri.slice(0, -suffix.length) : redirectUri;
}
