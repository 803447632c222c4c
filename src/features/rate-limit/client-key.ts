import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client a limit counts, from its address: an IPv4 address as it is; an
 * IPv6 address by its /64 network, since one host or subscriber is normally
 * given a whole /64 (RFC 7421) and could otherwise step to a fresh address
 * for every try. An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function clientKey(address: string): string {
  const bare = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) is local detail
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (!isIPv6(bare)) return address;
  const [head = '', tail] = withHexTail(bare).split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros: string[] = Array.from({ length: 8 - left.length - right.length }, () => '0');
  const groups = tail === undefined ? left : [...left, ...zeros, ...right];
  const network = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${network.join(':')}::/64`;
}

/** `::ffff:1.2.3.4`-style tails as two hex groups, so every group counts alike. */
function withHexTail(address: string): string {
  return address.replace(/(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, (_all, a, b, c, d) => {
    const [high, low] = [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)];
    return `${high.toString(16)}:${low.toString(16)}`;
  });
}
