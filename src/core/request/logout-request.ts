import type { CompiledEntry } from '../entry/compiled-entry.js';
import { renderUrl } from '../template/index.js';
import { signedOutUrl } from './gateway-urls.js';
import type { OutboundRequest } from './outbound-request.js';
import { maxResponseBytes } from './outbound-request.js';
import type { RandomSource } from './random.js';
import { randomToken } from './random.js';

interface LogoutRequestOptions {
  readonly publicUrl: string;
  readonly random: RandomSource;
}

/**
 * How to tell the third-party server about a sign-out (docs/design.md#signing-out): send the
 * browser there, or, when the template holds `${app_secret}`, call it from
 * the server so the secret never reaches a browser.
 */
type LogoutRequest =
  | { readonly channel: 'front'; readonly url: string }
  | { readonly channel: 'back'; readonly request: OutboundRequest };

export function buildLogoutRequest(
  entry: CompiledEntry,
  { publicUrl, random }: LogoutRequestOptions,
): LogoutRequest | undefined {
  // An extension entry has no logout template: signing out ends the gateway session only.
  if (entry.type !== 'oauth2' || entry.logout === undefined) return undefined;
  const url = renderUrl(entry.logout, {
    state: randomToken(random),
    appid: entry.appid,
    app_secret: entry.appsecret,
    redirect_uri: signedOutUrl(publicUrl),
  });
  if (!entry.logout.placeholders.has('app_secret')) return { channel: 'front', url };
  return {
    channel: 'back',
    request: {
      method: 'GET',
      url,
      headers: {},
      body: undefined,
      timeoutMs: entry.timeoutMs,
      maxResponseBytes,
    },
  };
}
