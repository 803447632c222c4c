/**
 * The gateway's own URLs that third-party servers see. They derive from the
 * configured public URL only, never from request headers (RFC 6749 §3.1.2,
 * RFC 9700 §4.1), so the redirect_uri of the authorization request and of the
 * token request are the same string.
 */
export function callbackUrl(publicUrl: string, entryId: string): string {
  return `${trimSlash(publicUrl)}/_sso/callback/${encodeURIComponent(entryId)}`;
}

export function signedOutUrl(publicUrl: string): string {
  return `${trimSlash(publicUrl)}/_sso/signed-out`;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
