import type { ProviderClientStore } from './storage/types.js';

/**
 * The http(s) origins of every registered client's redirect URIs, once each.
 * A gateway sign-in that continues an authorization request ends there: the
 * form post's 303 goes to the authorization endpoint, whose answer sends the
 * browser on to the client, and browsers apply CSP form-action to those
 * redirects (src/foundation/web/security-headers.ts). A client's own scheme
 * (`com.example.app:/cb`) is no origin a policy can name, and needs none:
 * browsers leave such a redirect to the application.
 */
export async function clientRedirectOrigins(clients: ProviderClientStore): Promise<string[]> {
  const origins = new Set<string>();
  for (const client of await clients.list()) {
    for (const uri of client.redirectUris) {
      const url = URL.canParse(uri) ? new URL(uri) : undefined;
      if (url !== undefined && (url.protocol === 'https:' || url.protocol === 'http:')) {
        origins.add(url.origin);
      }
    }
  }
  return [...origins];
}
