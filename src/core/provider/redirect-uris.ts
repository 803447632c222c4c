/** What of a client its redirect URIs are matched by: the list, and whether it is public (no secret). */
interface RedirectingClient {
  readonly redirectUris: readonly string[];
  readonly secretHash: string | null;
}

/**
 * A loopback IP redirect URI, split around its port: `http`, the literal
 * address 127.0.0.1 or [::1] (never the name localhost, RFC 8252 §8.3),
 * and the rest from the path on, kept as written.
 */
const loopbackIp = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?(\/[^#]*)?$/;

/** The URI without its port, if it is a loopback IP redirect URI with a valid one. */
function withoutPort(uri: string): string | undefined {
  const match = loopbackIp.exec(uri);
  if (match === null) return undefined;
  const [, host = '', port, rest = ''] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return undefined;
  return `http://${host}${rest}`;
}

/**
 * Whether `uri` is one of the client's redirect URIs: exactly, or, for a
 * public client (a native application), one of its loopback IP redirect
 * URIs on any port (RFC 8252 §7.3: the port is chosen when the application
 * starts), the address, path and query still exactly as registered.
 */
export function isRedirectUriOf(client: RedirectingClient, uri: string): boolean {
  if (client.redirectUris.includes(uri)) return true;
  if (client.secretHash !== null) return false;
  const portless = withoutPort(uri);
  return (
    portless !== undefined &&
    client.redirectUris.some((registered) => withoutPort(registered) === portless)
  );
}
