import { isIP } from 'node:net';

/** The names proxy-addr (Fastify's trustProxy) knows for whole ranges. */
const rangeNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * SSOGATE_TRUSTED_PROXIES: the proxies whose X-Forwarded-For the gateway
 * believes, so the client address of rate limits and logs is the client's,
 * not the load balancer's. Each item an address, a CIDR range or a range
 * name; empty (the default) trusts no header: the gateway is the edge.
 */
export function parseTrustedProxies(
  raw: unknown,
  variable: string,
  problems: string[],
): readonly string[] {
  if (raw === undefined) return [];
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
  const proxies: string[] = [];
  for (const item of items) {
    const proxy = typeof item === 'string' ? item.trim() : '';
    if (!isProxyAddress(proxy)) {
      problems.push(
        `${variable}: '${String(item)}' is not an address, a CIDR range (10.0.0.0/8, fd00::/8) or one of loopback, linklocal, uniquelocal`,
      );
      continue;
    }
    proxies.push(proxy);
  }
  return proxies;
}

function isProxyAddress(text: string): boolean {
  if (rangeNames.has(text)) return true;
  const [address = '', bits, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}
