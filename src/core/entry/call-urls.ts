import type { CompiledTemplate } from '../template/index.js';
import { renderUrl } from '../template/index.js';
import type { CompiledEntry } from './compiled-entry.js';

/**
 * Every URL the gateway itself calls for an entry, by the field that holds
 * it: token, user info, the application token, the chained user-info calls,
 * a back-channel logout (one that holds `${app_secret}`) and an extension
 * service. The authorization URL and a front-channel logout URL are only
 * browser redirects, never called by the gateway, so they are not listed.
 *
 * It stays with the entry model rather than asking each kind of sign-in
 * source (src/features/sign-in/sources/): the outbound address check of
 * an entry being saved (src/foundation/outbound/entry-addresses.ts) runs
 * in a layer below every feature, and the URLs are fields the model
 * itself defines for each type.
 */
export function entryCallUrls(entry: CompiledEntry): readonly (readonly [string, string])[] {
  if (entry.type === 'extension') return [['extensionUrl', entry.extension.url]];
  if (entry.type === 'ldap') return [['ldap.url', entry.ldap.url]];
  // A SAML identity provider is reached by the browser (redirected, and
  // posting back); the gateway itself calls only its metadata URL, if any.
  if (entry.type === 'saml') {
    const metadataUrl = entry.saml.idpMetadataUrl;
    return metadataUrl === undefined ? [] : [['saml.idpMetadataUrl', metadataUrl]];
  }
  const urls: [string, string][] = [];
  if (entry.token !== undefined) urls.push(['tokenUrl', sampleUrl(entry.token.template)]);
  urls.push(['userInfoUrl', sampleUrl(entry.userInfo.template)]);
  if (entry.shapes.appToken !== undefined) {
    urls.push(['appToken.url', sampleUrl(entry.shapes.appToken.template)]);
  }
  for (const [index, call] of entry.shapes.userInfoCalls.entries()) {
    urls.push([`userInfoCalls[${index}].url`, sampleUrl(call.template)]);
  }
  if (entry.logout?.placeholders.has('app_secret') === true) {
    urls.push(['logoutUrl', sampleUrl(entry.logout)]);
  }
  return urls;
}

/**
 * The origins (RFC 6454) an entry makes the gateway call, sorted: those of
 * entryCallUrls, and an OpenID Connect issuer's, whose discovery document
 * and key set the gateway fetches.
 */
export function entryCallOrigins(entry: CompiledEntry): readonly string[] {
  const urls = entryCallUrls(entry).map(([, url]) => url);
  if (entry.type === 'oauth2' && entry.oidc !== undefined) urls.push(entry.oidc.issuer);
  return [...new Set(urls.map(originOf))].sort();
}

/** An ldap:// URL has no origin in the URL standard ("null"): its scheme, host and port stand for one. */
function originOf(text: string): string {
  const url = new URL(text);
  return url.origin === 'null' ? `${url.protocol}//${url.host}` : url.origin;
}

/** The host is fixed when the entry is saved (placeholders stand only after it). */
function sampleUrl(template: CompiledTemplate): string {
  return renderUrl(
    template,
    Object.fromEntries([...template.placeholders].map((name) => [name, 'x'])),
  );
}
