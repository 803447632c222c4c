import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
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
export type LogoutRequest =
  | { readonly channel: 'front'; readonly url: string }
  | { readonly channel: 'back'; readonly request: OutboundRequest };

/**
 * Takes an oauth2 entry, the one kind with a logout template: which kind an
 * entry is, and so whether this applies, is for its sign-in source to say
 * (src/features/sign-in/sources/oauth2-template-source.ts), and the core
 * may not import features. An extension entry's sign-out ends the
 * gateway's session only.
 */
export function buildLogoutRequest(
  entry: CompiledOAuth2Entry,
  { publicUrl, random }: LogoutRequestOptions,
): LogoutRequest | undefined {
  if (entry.logout === undefined) return undefined;
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
