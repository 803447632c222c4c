import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { withoutPort } from './proxy-settings.js';

type PublicSuffixModule = typeof import('tldts');

const loadModule = createRequire(import.meta.url);
let publicSuffixes: PublicSuffixModule | undefined;

// RFC 1123 §2.1 host names: letters, digits and hyphens in labels of 1-63
// characters, neither starting nor ending with a hyphen.
const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const domainName = new RegExp(`^${label}(?:\\.${label})*$`);

/**
 * SSOGATE_COOKIE_DOMAIN (docs/proxy.md#one-cookie-for-a-whole-domain): the
 * domain the session cookie is set for, so that every host under it shares
 * the sign-in without a handoff. Returns it lower-case, without the leading
 * or trailing dot (`corp.example`), or undefined when unset or refused; each
 * refusal is pushed to `problems` with the others of the start:
 * - not a domain name, an IP address (a Domain attribute names hosts by
 *   name, RFC 6265 §5.1.3), or a single label (`example`, `localhost`);
 * - a public suffix (`com`, `co.uk`, `github.io`), by the Public Suffix
 *   List that npm's `tldts` keeps, its private section included: a cookie
 *   for one would reach every site registered under it, and browsers drop it;
 * - not the public URL's host nor a parent of it: the cookie set at the
 *   sign-in's callback, on the public URL's host, must be one the browser keeps;
 * - not covering a listed host (`listedHosts`: the hosts of SSOGATE_UPSTREAM
 *   and SSOGATE_FORWARD_AUTH_HOSTS, wildcards included). A host outside the
 *   domain would need the handoff beside the domain's cookie: one of the
 *   two ways per gateway keeps what a session is valid for plain, so such a
 *   host is refused rather than handed off.
 *
 * The list is loaded the first time a start names a domain, synchronously
 * like the configuration it checks: a gateway without one never holds it.
 */
export function parseCookieDomain(
  raw: string | undefined,
  publicUrl: string,
  listedHosts: readonly string[],
  variable: string,
  problems: string[],
): string | undefined {
  if (raw === undefined) return undefined;
  const domain = raw.trim().toLowerCase().replace(/^\./, '').replace(/\.$/, '');
  const refusal = refusalOf(domain);
  if (refusal !== undefined) {
    problems.push(`${variable}: '${raw}' ${refusal}`);
    return undefined;
  }
  const before = problems.length;
  const publicHost = withoutPort(new URL(publicUrl).hostname.toLowerCase());
  if (!underDomain(publicHost, domain)) {
    problems.push(
      `${variable}: ${domain} is neither the public URL's host (${publicHost}) nor a parent of it; the session cookie is set on that host, which must be under the domain`,
    );
  }
  for (const host of listedHosts) {
    const name = withoutPort(host.replace(/^\*\./, ''));
    if (!underDomain(name, domain))
      problems.push(
        `${variable}: the listed host ${host} is outside ${domain}; every host of SSOGATE_UPSTREAM and SSOGATE_FORWARD_AUTH_HOSTS must be under it (or leave ${variable} unset: each host then gets its session by a handoff)`,
      );
  }
  return problems.length === before ? domain : undefined;
}

function refusalOf(domain: string): string | undefined {
  if (isIP(domain.replace(/^\[|\]$/g, '')) !== 0 || /^[\d.]+$/.test(domain))
    return 'is an IP address; a cookie domain is a name, such as .corp.example';
  if (domain.length > 253 || !domainName.test(domain))
    return 'is not a domain name (letters, digits and hyphens in dot-separated labels, such as .corp.example)';
  if (!domain.includes('.'))
    return 'is a single label; name a parent domain of the public URL, such as .corp.example';
  publicSuffixes ??= loadModule('tldts') as PublicSuffixModule;
  if (publicSuffixes.getPublicSuffix(domain, { allowPrivateDomains: true }) === domain)
    return 'is a public suffix (Public Suffix List): its cookie would reach every site registered under it, and browsers refuse one';
  return undefined;
}

/** Whether `host` (a name, no port) is `domain` or a host under it. */
export function underDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}
