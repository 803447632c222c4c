import type { CompiledOAuth2Entry } from '../entry/compiled-entry.js';
import { renderUrl } from '../template/index.js';
import { appendQuery } from './append-query.js';
import { callbackUrl } from './gateway-urls.js';
import { createPkcePair } from './pkce.js';
import type { RandomSource } from './random.js';
import { randomToken } from './random.js';

interface AuthorizationRequestOptions {
  readonly publicUrl: string;
  readonly random: RandomSource;
  /** Random bytes in the state (default 32); a test sign-in asks for more (src/features/trial-sign-in/trial-state.ts). */
  readonly stateBytes?: number;
}

/** Where to send the browser, and what the pending sign-in must remember. */
export interface AuthorizationRequest {
  readonly url: string;
  /** Fresh per request, single-use (RFC 9700 §4.7.1); stored with the pending sign-in. */
  readonly state: string;
  readonly redirectUri: string;
  /** Present with PKCE; stays server-side until the token call. */
  readonly codeVerifier: string | undefined;
  /**
   * Present on an OpenID Connect entry: fresh per request, sent as `nonce` and
   * stored with the pending sign-in; the id_token must carry it back
   * (OpenID Connect Core §3.1.2.1, §15.5.2).
   */
  readonly nonce?: string | undefined;
}

function asksResponseMode(url: string): boolean {
  return new URL(url).searchParams.has('response_mode');
}

/**
 * Renders the authorization URL (flow step 2). A state is generated even when
 * the template has no `${state}`: the pending sign-in is keyed by it and bound
 * to the browser by a cookie either way (docs/design.md#single-use-and-browser-binding).
 */
export function buildAuthorizationRequest(
  entry: CompiledOAuth2Entry,
  { publicUrl, random, stateBytes }: AuthorizationRequestOptions,
): AuthorizationRequest {
  const state = randomToken(random, stateBytes);
  const redirectUri = callbackUrl(publicUrl, entry.id);
  const rendered = renderUrl(entry.authorize, {
    state,
    appid: entry.appid,
    redirect_uri: redirectUri,
  });
  const nonce = entry.oidc === undefined ? undefined : randomToken(random);
  const withNonce = appendQuery(rendered, [
    ...(nonce === undefined ? [] : [['nonce', nonce] as const]),
    // OAuth 2.0 Form Post Response Mode §2, unless the template asks for it already.
    ...(entry.responseMode === 'form_post' && !asksResponseMode(rendered)
      ? [['response_mode', 'form_post'] as const]
      : []),
  ]);
  // A fragment the provider documents (#wechat_redirect) stays last, after
  // every query parameter, PKCE's included (docs/entries.md#shapes-beyond-the-basic-flow).
  const fragment = entry.shapes.authorizeFragment;
  const withFragment = (url: string) => (fragment === undefined ? url : `${url}#${fragment}`);
  if (!entry.pkce) {
    return { url: withFragment(withNonce), state, redirectUri, codeVerifier: undefined, nonce };
  }

  const pkce = createPkcePair(random);
  const url = appendQuery(withNonce, [
    ['code_challenge', pkce.challenge],
    ['code_challenge_method', 'S256'],
  ]);
  return { url: withFragment(url), state, redirectUri, codeVerifier: pkce.verifier, nonce };
}
