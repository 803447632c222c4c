import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * Which addresses entries may make the gateway call. An entry's URLs are
 * written by an administrator, or by whoever obtained an API token; without
 * this policy they could point the gateway at its own database, at a cloud
 * metadata service holding credentials, or at any host of the internal
 * network (server-side request forgery). Refused: every address the IANA
 * special-purpose registries (RFC 6890 and its updates) mark as not
 * globally reachable, IPv6 outside global unicast, the forms that hide an
 * IPv4 address, `localhost` (RFC 6761) and the names of metadata services. The operator lets
 * chosen hosts, addresses or networks through with SSOGATE_OUTBOUND_ALLOW.
 */
export interface AddressPolicy {
  /**
   * Why the host of a URL (WHATWG `URL.hostname`: a name, a dotted IPv4 or a
   * bracketed IPv6) may not be called, or undefined when it may, or when only
   * the addresses it resolves to can tell.
   */
  hostRefusal(hostname: string): string | undefined;
  /** Why an address the host resolved to may not be connected to, or undefined. */
  addressRefusal(hostname: string, address: string): string | undefined;
}

/*
 * The IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and
 * its updates) gone through range by range. Refused: every range marked not
 * globally reachable, since it can only lead to this host, the internal
 * network or nowhere, and the deprecated or local forms that carry an IPv4
 * address (IPv4-compatible, IPv4-translated, 6to4, Teredo, local-use NAT64):
 * no public server is addressed that way today, and each could hide a
 * private IPv4 address, so they are refused whole rather than unwrapped.
 * Two forms are judged by the IPv4 address they carry instead, because
 * resolvers legitimately answer with them for public hosts: IPv4-mapped
 * ::ffff:0:0/96 (a dual-stack socket's view of an IPv4 host) and the
 * well-known NAT64 prefix 64:ff9b::/96 (DNS64 on an IPv6-only network).
 * Let through: the special ranges marked globally reachable, none of which
 * is inside this network: 192.31.196.0/24 and 192.175.48.0/24 (AS112),
 * 192.52.193.0/24 (AMT), 2620:4f:8000::/48 (AS112). The anycast addresses
 * 192.0.0.9/32 and 192.0.0.10/32 and the globally reachable parts of
 * 2001::/23 are refused with the block holding them: no entry calls them.
 */

/** Refused IPv4 networks, the first match naming the reason. */
const refusedIPv4: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, '"this network" (0.0.0.0/8, RFC 791)'],
  ['10.0.0.0', 8, 'private (10.0.0.0/8, RFC 1918)'],
  ['100.64.0.0', 10, 'shared carrier-grade NAT (100.64.0.0/10, RFC 6598)'],
  ['127.0.0.0', 8, 'loopback (127.0.0.0/8, RFC 1122)'],
  ['169.254.0.0', 16, 'link-local, cloud metadata (169.254.0.0/16, RFC 3927)'],
  ['172.16.0.0', 12, 'private (172.16.0.0/12, RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments (192.0.0.0/24, RFC 6890)'],
  ['192.0.2.0', 24, 'documentation (192.0.2.0/24, RFC 5737)'],
  ['192.88.99.0', 24, 'deprecated 6to4 relay anycast (192.88.99.0/24, RFC 7526)'],
  ['192.168.0.0', 16, 'private (192.168.0.0/16, RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking (198.18.0.0/15, RFC 2544)'],
  ['198.51.100.0', 24, 'documentation (198.51.100.0/24, RFC 5737)'],
  ['203.0.113.0', 24, 'documentation (203.0.113.0/24, RFC 5737)'],
  ['224.0.0.0', 4, 'multicast (224.0.0.0/4, RFC 5771)'],
  ['255.255.255.255', 32, 'limited broadcast (255.255.255.255/32, RFC 919)'],
  ['240.0.0.0', 4, 'reserved (240.0.0.0/4, RFC 1112)'],
];

/**
 * Refused IPv6 networks, the first match naming the reason; an address in
 * none of them must still be global unicast (2000::/3, RFC 4291 §2.4):
 * outside it nothing is assigned to a host on the internet.
 */
const refusedIPv6: readonly (readonly [string, number, string])[] = [
  ['::', 128, 'unspecified (::/128, RFC 4291)'],
  ['::1', 128, 'loopback (::1/128, RFC 4291)'],
  ['::ffff:0:0:0', 96, 'IPv4-translated (::ffff:0:0:0/96, RFC 2765, no longer used)'],
  ['::', 96, 'IPv4-compatible (::/96, deprecated by RFC 4291)'],
  ['64:ff9b:1::', 48, 'local-use NAT64 (64:ff9b:1::/48, RFC 8215)'],
  ['::', 8, 'reserved by the IETF (::/8, RFC 4291)'],
  ['100::', 64, 'discard-only (100::/64, RFC 6666)'],
  ['100:0:0:1::', 64, 'dummy prefix (100:0:0:1::/64, RFC 9780)'],
  ['2001::', 32, 'Teredo (2001::/32, RFC 4380), carrying an IPv4 address'],
  ['2001:2::', 48, 'benchmarking (2001:2::/48, RFC 5180)'],
  ['2001:10::', 28, 'deprecated ORCHID (2001:10::/28, RFC 4843)'],
  ['2001:20::', 28, 'ORCHIDv2 identifiers (2001:20::/28, RFC 7343)'],
  ['2001::', 23, 'IETF protocol assignments (2001::/23, RFC 2928)'],
  ['2001:db8::', 32, 'documentation (2001:db8::/32, RFC 3849)'],
  ['2002::', 16, '6to4 (2002::/16, RFC 3056), carrying an IPv4 address'],
  ['3fff::', 20, 'documentation (3fff::/20, RFC 9637)'],
  ['5f00::', 16, 'segment routing (5f00::/16, RFC 9602)'],
  ['fc00::', 7, 'unique local (fc00::/7, RFC 4193)'],
  ['fe80::', 10, 'link-local (fe80::/10, RFC 4291)'],
  ['fec0::', 10, 'site-local (fec0::/10, RFC 3879)'],
  ['ff00::', 8, 'multicast (ff00::/8, RFC 4291)'],
];

const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/**
 * Names that reach this machine or a metadata service whatever DNS says:
 * `localhost` and its subdomains (RFC 6761 §6.3), and the metadata names of
 * the main clouds. Other names are judged by the addresses they resolve to.
 */
const refusedNames =
  /^(?:(?:.+\.)?localhost|metadata|metadata\.google\.internal|metadata\.goog|instance-data(?:\.ec2\.internal)?)$/;

function blockList(
  ranges: readonly (readonly [string, number, string])[],
  type: 'ipv4' | 'ipv6',
): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, type);
  return list;
}

const refusedIPv4List = blockList(refusedIPv4, 'ipv4');
const refusedIPv6List = blockList(refusedIPv6, 'ipv6');

/** What the operator let through: names, addresses and networks. */
export interface AllowList {
  readonly names: ReadonlySet<string>;
  readonly addresses: BlockList;
}

/**
 * Parses SSOGATE_OUTBOUND_ALLOW: comma-separated host names, IP addresses
 * and CIDR networks (`auth.corp.example,127.0.0.1,10.20.0.0/16,::1`). Each
 * item that is none of these is reported in `problems`.
 */
export function parseAllowList(
  text: string | undefined,
  variable: string,
  problems: string[],
): AllowList {
  const names = new Set<string>();
  const addresses = new BlockList();
  for (const raw of (text ?? '').split(',')) {
    const item = raw.trim().toLowerCase();
    if (item === '') continue;
    const [address = '', prefixText, ...rest] = item.replace(/^\[([^\]]*)\]/, '$1').split('/');
    const version = isIP(address);
    if (version !== 0 && rest.length === 0) {
      const max = version === 4 ? 32 : 128;
      const prefix = prefixText === undefined ? max : Number(prefixText);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || prefixText === '') {
        problems.push(`${variable}: '${raw.trim()}': the prefix length must be 0-${max}`);
        continue;
      }
      addresses.addSubnet(address, prefix, version === 4 ? 'ipv4' : 'ipv6');
    } else if (
      /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?$/.test(
        item,
      )
    ) {
      names.add(item.replace(/\.$/, ''));
    } else {
      problems.push(
        `${variable}: '${raw.trim()}' is neither a host name, an IP address nor a CIDR network`,
      );
    }
  }
  return { names, addresses };
}

const emptyAllowList: AllowList = { names: new Set(), addresses: new BlockList() };

/** The policy with the operator's exceptions. */
export function addressPolicy(allow: AllowList = emptyAllowList): AddressPolicy {
  const allowedName = (hostname: string): boolean => allow.names.has(plainName(hostname));
  const addressRefusal = (hostname: string, address: string): string | undefined => {
    if (allowedName(hostname)) return undefined;
    const plain = address.replace(/^\[(.*)\]$/, '$1');
    const family = isIP(plain);
    if (family === 0) return `${address} is not an IP address`;
    if (allowedAddress(allow.addresses, plain)) return undefined;
    const reason = specialPurpose(plain);
    return reason === undefined ? undefined : `${address} is ${reason}`;
  };
  return {
    hostRefusal(hostname) {
      if (allowedName(hostname)) return undefined;
      const plain = hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(plain) !== 0) return addressRefusal(hostname, plain);
      if (refusedNames.test(plainName(hostname))) {
        return `${hostname} names this machine or a cloud metadata service`;
      }
      return undefined;
    },
    addressRefusal,
  };
}

/** Names compare without case and without the root's trailing dot. */
function plainName(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}

function allowedAddress(allowed: BlockList, address: string): boolean {
  const embedded = embeddedIPv4(address);
  return (
    allowed.check(address, isIPv4(address) ? 'ipv4' : 'ipv6') ||
    (embedded !== undefined && allowed.check(embedded, 'ipv4'))
  );
}

/**
 * What makes an address not globally reachable, or undefined for a public
 * one. An IPv4-mapped or NAT64 address (64:ff9b::/96) is judged by the IPv4
 * address it carries, since that is where the packets end up.
 */
function specialPurpose(address: string): string | undefined {
  if (isIPv4(address)) return rangeOf(refusedIPv4, refusedIPv4List, address, 'ipv4');
  const carried = embeddedIPv4(address);
  if (carried !== undefined) {
    const reason = rangeOf(refusedIPv4, refusedIPv4List, carried, 'ipv4');
    return reason === undefined ? undefined : `${reason}, carried in IPv6`;
  }
  return (
    rangeOf(refusedIPv6, refusedIPv6List, address, 'ipv6') ??
    (globalUnicast.check(address, 'ipv6')
      ? undefined
      : 'outside global unicast (2000::/3, RFC 4291 section 2.4)')
  );
}

function rangeOf(
  ranges: readonly (readonly [string, number, string])[],
  all: BlockList,
  address: string,
  type: 'ipv4' | 'ipv6',
): string | undefined {
  if (!all.check(address, type)) return undefined;
  for (const [network, prefix, reason] of ranges) {
    const one = new BlockList();
    one.addSubnet(network, prefix, type);
    if (one.check(address, type)) return reason;
  }
  return undefined;
}

/**
 * The IPv4 address inside ::ffff:a.b.c.d (IPv4-mapped, RFC 4291 §2.5.5.2) or
 * 64:ff9b::a.b.c.d (the well-known NAT64 prefix, RFC 6052): the two forms
 * judged by what they carry. Other forms that carry one are refused whole.
 */
export function embeddedIPv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  if (groups === undefined) return undefined;
  const zeros = (from: number, to: number): boolean =>
    groups.slice(from, to).every((group) => group === 0);
  const fromGroups = (high: number, low: number): string =>
    [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  const [g0, g1, , , , g5, g6 = 0, g7 = 0] = groups;
  if (zeros(0, 5) && g5 === 0xffff) return fromGroups(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && zeros(2, 6)) return fromGroups(g6, g7);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const bytes = dotted[1].split('.').map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((group) => parseInt(group, 16));
  const before = parse(head);
  const after = tail === undefined ? [] : parse(tail);
  const missing = 8 - before.length - after.length;
  return [...before, ...Array<number>(tail === undefined ? 0 : missing).fill(0), ...after];
}
