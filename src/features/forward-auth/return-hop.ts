/**
 * After a sign-in the gateway only ever redirects to a path of its own
 * (src/foundation/web/return-to.ts). A sign-in started by forward-auth for another host
 * returns through this path, which checks the host against
 * SSOGATE_FORWARD_AUTH_HOSTS once more before sending the browser there.
 */
export const returnHopPath = '/_sso/auth/return';

export function returnHop(absoluteUrl: string): string {
  return `${returnHopPath}?rd=${encodeURIComponent(absoluteUrl)}`;
}
