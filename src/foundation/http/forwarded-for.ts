import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Keeps a trusted proxy's X-Forwarded-For from naming a client that is no
 * address. Fastify (trustProxy, SSOGATE_TRUSTED_PROXIES) walks the header
 * from the right past the trusted proxies and takes the first value they did
 * not vouch for as the client, whatever it says: `unknown`, `garbage`, an
 * address with a port (`1.2.3.4:80`) or in brackets (`[2001:db8::1]`). Taken
 * as written, every such spelling would be a client of its own, with a
 * rate-limit bucket of its own. Plain X-Forwarded-For carries bare addresses,
 * so nothing is unwrapped: a value `isIP` does not accept is dropped with
 * everything left of it, and the client is the trusted proxy that passed it
 * on (the peer, behind a single proxy). Runs first for every request, so that
 * `request.ip` and `request.ips` read the header as cut.
 */
export function dropUnusableForwardedFor(request: FastifyRequest): void {
  // The peer, the trusted proxies' hops, then the value taken as the client.
  const chain = request.ips ?? [];
  const client = chain.at(-1);
  if (chain.length < 2 || client === undefined || isIP(client) !== 0) return;
  const vouched = chain.slice(1, -1).reverse();
  if (vouched.length === 0) delete request.raw.headers['x-forwarded-for'];
  else request.raw.headers['x-forwarded-for'] = vouched.join(', ');
}

/**
 * The client address `request.ip` gives once dropUnusableForwardedFor has
 * run, from the chain Fastify reads (`request.ips`: the peer, the trusted
 * proxies' hops, then the value taken as the client).
 */
export function usableClient(chain: readonly string[]): string | undefined {
  const client = chain.at(-1);
  if (chain.length < 2 || client === undefined || isIP(client) !== 0) return client;
  // The hop that passed the unusable value on: the header is cut to it.
  return chain.at(-2);
}
