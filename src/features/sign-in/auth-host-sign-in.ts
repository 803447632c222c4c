import type { Gateway } from '../../foundation/http/gateway.js';
import { entryHref } from '../../foundation/pages/index.js';

/**
 * After a sign-in the gateway only ever redirects to a path of its own
 * (src/foundation/web/return-to.ts). A sign-in started for another host (by
 * forward-auth, or on a host under SSOGATE_COOKIE_DOMAIN) returns through
 * this path, which checks the host is listed once more before sending the
 * browser there (forward-auth/routes.ts).
 */
export const returnHopPath = '/_sso/auth/return';

export function returnHop(absoluteUrl: string): string {
  return `${returnHopPath}?rd=${encodeURIComponent(absoluteUrl)}`;
}

export function chooserHref(returnTo: string): string {
  return returnTo === '/' ? '/_sso/login' : `/_sso/login?return_to=${encodeURIComponent(returnTo)}`;
}

/**
 * Where a sign-in starts on the auth host, coming back to `returnTo` (a path
 * of the auth host): the default entry's sign-in, or the chooser.
 */
export async function authHostSignInUrl(gateway: Gateway, returnTo: string): Promise<string> {
  const defaultEntry = await gateway.entries.defaultEntry();
  const signIn =
    defaultEntry === undefined ? chooserHref(returnTo) : entryHref(defaultEntry.id, returnTo);
  return `${gateway.config.publicUrl}${signIn}`;
}
