import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Socket } from 'node:net';
import { connect as connectTcp } from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { connect as connectTls, rootCertificates } from 'node:tls';
import type { CompiledEntry, OutboundRequest } from '../../core/index.js';
import { entryCallOrigins, validateEntry } from '../../core/index.js';
import type { Config } from '../../foundation/config/load-config.js';
import type { AddressPolicy } from '../../foundation/outbound/address-policy.js';
import { addressPolicy } from '../../foundation/outbound/address-policy.js';
import { OutboundClient } from '../../foundation/outbound/outbound-client.js';
import type { SendOutbound } from '../../foundation/outbound/outbound-policy.js';
import { withTransportPolicy } from '../../foundation/outbound/outbound-policy.js';
import { ProviderMetadata } from '../../foundation/oidc/provider-metadata.js';
import { sourceOf } from '../../features/sign-in/sources/source-registry.js';
import type { Finding } from './findings.js';
import { passed, problem, reasonOf } from './findings.js';
import type { StoredEntry } from './storage-checks.js';

/** Each connection, DNS answer and metadata fetch of the doctor is given this long. */
const stepTimeoutMs = 5000;
/** A certificate closer than this to its end is a warning: renewal has likely failed. */
const expiryWarningDays = 14;
/** Beyond this, id_tokens' iat and exp are judged against the wrong time (oidc.clockSkewSeconds defaults to 60). */
const maxSkewSeconds = 60;
const dayMs = 86_400_000;

/** Judged by the transport policy only: nothing is sent. */
const noCall: SendOutbound = () => Promise.resolve({ status: 204, body: '' });
const probe: OutboundRequest = {
  method: 'GET',
  url: '',
  headers: {},
  body: undefined,
  timeoutMs: stepTimeoutMs,
  maxResponseBytes: 0,
};

/**
 * For every enabled entry: the origins it makes the gateway call, each once
 * (DNS, the address policy of src/foundation/outbound/address-policy.ts, TCP and TLS),
 * then, for OpenID Connect, the discovery document, the key set and the
 * clock's skew against the provider's Date header.
 */
export async function entryFindings(
  config: Config,
  stored: readonly StoredEntry[],
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const policy = addressPolicy(config.outboundAllow);
  const entries: CompiledEntry[] = [];
  for (const { id, definition } of stored) {
    if (definition.enabled !== true) continue;
    const result = validateEntry({ ...definition, id });
    if (result.ok) entries.push(result.entry);
    else
      findings.push(
        problem(
          'entry_unreadable',
          `entry ${id}`,
          id,
          result.problems.map((error) => error.message).join('; '),
          'open the entry in the console (or the admin API) and save it corrected',
        ),
      );
  }
  const origins = new Map<string, string[]>();
  for (const entry of entries) {
    for (const origin of entryCallOrigins(entry))
      origins.set(origin, [...(origins.get(origin) ?? []), entry.id]);
  }
  for (const [origin, ids] of origins) {
    findings.push(...(await originFindings(origin, `entry ${ids.join(', ')}`, policy, config)));
  }
  const client = new OutboundClient({
    policy,
    ...(config.caCertificates === undefined ? {} : { extraCertificates: config.caCertificates }),
  });
  try {
    for (const entry of entries) {
      // What each entry's kind of sign-in source asks to be checked beyond its
      // origins: so far only an OpenID Provider's discovery (DoctorCheck).
      for (const check of sourceOf(entry).doctorChecks) {
        findings.push(...(await openIdFindings(entry.id, check.issuer, client.send, policy)));
      }
    }
  } finally {
    await client.close();
  }
  return findings;
}

async function originFindings(
  origin: string,
  check: string,
  policy: AddressPolicy,
  config: Config,
): Promise<Finding[]> {
  const url = new URL(origin);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowFix = `if it is meant to be internal, add ${host} to SSOGATE_OUTBOUND_ALLOW`;
  // Plain http to another machine is refused by the flow's transport policy.
  try {
    await withTransportPolicy(noCall, config.allowInsecureHttp)({ ...probe, url: origin });
  } catch (error) {
    return [
      problem(
        'insecure_http_refused',
        check,
        origin,
        reasonOf(error),
        'have the entry call https; SSOGATE_ALLOW_INSECURE_HTTP=true only on a closed test network',
      ),
    ];
  }
  const hostRefusal = policy.hostRefusal(url.hostname);
  if (hostRefusal !== undefined) {
    return [problem('address_refused', check, origin, hostRefusal, allowFix)];
  }
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await withTimeout(lookup(host, { all: true }), `resolving ${host}`)).map(
        (answer) => answer.address,
      );
    } catch (error) {
      return [
        problem(
          'dns_unresolved',
          check,
          origin,
          `${host} does not resolve: ${reasonOf(error)}`,
          "check the host name, and the resolver of the gateway's machine (/etc/resolv.conf)",
        ),
      ];
    }
  }
  const findings: Finding[] = [passed(check, origin, `resolves to ${addresses.join(', ')}`)];
  for (const address of addresses) {
    const refusal = policy.addressRefusal(url.hostname, address);
    if (refusal !== undefined)
      findings.push(problem('address_refused', check, origin, `${address}: ${refusal}`, allowFix));
  }
  if (findings.length > 1) return findings;
  // An LDAP entry's origin always names its port (src/core/entry/ldap-entry.ts).
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  findings.push(
    url.protocol === 'https:' || url.protocol === 'ldaps:'
      ? await tlsFinding(check, origin, host, port, config)
      : await tcpFinding(check, origin, host, port),
  );
  return findings;
}

async function tcpFinding(
  check: string,
  origin: string,
  host: string,
  port: number,
): Promise<Finding> {
  try {
    const socket = await opened(connectTcp({ host, port }), 'connect', `${host}:${port}`);
    socket.destroy();
    const plain = origin.startsWith('ldap:') ? 'plain ldap' : 'plain http';
    return passed(check, origin, `TCP connection to port ${port} accepted (${plain})`);
  } catch (error) {
    return connectFailed(check, origin, error);
  }
}

async function tlsFinding(
  check: string,
  origin: string,
  host: string,
  port: number,
  config: Config,
): Promise<Finding> {
  let socket: TLSSocket;
  try {
    const tls = connectTls({
      host,
      port,
      ...(isIP(host) === 0 ? { servername: host } : {}),
      // Judged below rather than refused, so the report can say why.
      rejectUnauthorized: false,
      ...(config.caCertificates === undefined
        ? {}
        : { ca: [...rootCertificates, ...config.caCertificates] }),
    });
    socket = await opened(tls, 'secureConnect', `${host}:${port}`);
  } catch (error) {
    return connectFailed(check, origin, error);
  }
  const certificate: PeerCertificate = socket.getPeerCertificate();
  const authorized = socket.authorized;
  const reason = socket.authorizationError;
  socket.destroy();
  const until = Date.parse(certificate.valid_to);
  const days = Math.floor((until - Date.now()) / dayMs);
  if (!authorized) {
    return problem(
      'tls_certificate_invalid',
      check,
      origin,
      `the certificate is refused: ${String(reason)} (valid until ${certificate.valid_to})`,
      'renew or fix the certificate and its chain at the server; a private CA goes in SSOGATE_CA_FILE',
    );
  }
  if (days < expiryWarningDays) {
    return problem(
      'tls_certificate_expiring',
      check,
      origin,
      `the certificate expires in ${days} days (${certificate.valid_to})`,
      "have the server's certificate renewed now",
    );
  }
  return passed(check, origin, `TLS chain valid, certificate expires in ${days} days`);
}

function connectFailed(check: string, origin: string, error: unknown): Finding {
  return problem(
    'connect_failed',
    check,
    origin,
    reasonOf(error),
    'check that the server is up, the port, and that firewalls let this machine through',
  );
}

async function openIdFindings(
  id: string,
  issuer: string,
  send: SendOutbound,
  policy: AddressPolicy,
): Promise<Finding[]> {
  const check = `entry ${id}`;
  const dates = new Map<string, { date: string | undefined; at: number }>();
  const recording: SendOutbound = async (request) => {
    const response = await send({
      ...request,
      timeoutMs: Math.min(request.timeoutMs, stepTimeoutMs),
    });
    dates.set(request.url, { date: response.headers?.date, at: Date.now() });
    return response;
  };
  const metadata = new ProviderMetadata(recording, Date.now, policy);
  let discovery;
  try {
    discovery = await metadata.discovery(issuer);
  } catch (error) {
    return [
      problem(
        'discovery_failed',
        check,
        `${issuer}/.well-known/openid-configuration`,
        reasonOf(error),
        'check oidc.issuer: it must be exactly the issuer the provider names in its document',
      ),
    ];
  }
  const findings: Finding[] = [
    passed(check, `${issuer}/.well-known/openid-configuration`, 'discovery document valid'),
  ];
  try {
    const keys = await metadata.keySet(discovery);
    findings.push(
      passed(
        check,
        discovery.jwksUri,
        `key set of ${keys.keys.length} ${keys.keys.length === 1 ? 'key' : 'keys'}`,
      ),
    );
  } catch (error) {
    findings.push(
      problem(
        'key_set_failed',
        check,
        discovery.jwksUri,
        reasonOf(error),
        "check the provider's jwks_uri answers a JWK set to this machine (no proxy or firewall refusing it)",
      ),
    );
  }
  findings.push(skewFinding(check, issuer, [...dates.values()][0]));
  return findings;
}

/** The local clock against the provider's Date header (RFC 9110 §6.6.1), to the second. */
function skewFinding(
  check: string,
  issuer: string,
  seen: { date: string | undefined; at: number } | undefined,
): Finding {
  const theirs = seen?.date === undefined ? Number.NaN : Date.parse(seen.date);
  if (seen === undefined || Number.isNaN(theirs)) {
    return passed(check, issuer, 'clock: the provider sent no Date header to compare with');
  }
  const skewSeconds = Math.round((seen.at - theirs) / 1000);
  const side = skewSeconds > 0 ? 'ahead of' : 'behind';
  if (Math.abs(skewSeconds) > maxSkewSeconds) {
    return problem(
      'clock_skew',
      check,
      issuer,
      `this clock is ${Math.abs(skewSeconds)} s ${side} the provider's`,
      'synchronise the clock with NTP (timedatectl set-ntp true; chrony or systemd-timesyncd)',
    );
  }
  return passed(check, issuer, `clock within ${Math.abs(skewSeconds)} s of the provider's`);
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} took over ${stepTimeoutMs / 1000} s`));
    }, stepTimeoutMs);
  });
  return Promise.race([promise, expired]).finally(() => {
    clearTimeout(timer);
  });
}

/** The socket once `event` fires; destroyed on an error or after the step's time. */
function opened<S extends Socket>(socket: S, event: string, where: string): Promise<S> {
  return new Promise<S>((resolve, reject) => {
    socket.setTimeout(stepTimeoutMs, () => {
      socket.destroy(new Error(`no connection to ${where} within ${stepTimeoutMs / 1000} s`));
    });
    socket.once('error', reject);
    socket.once(event, () => {
      socket.setTimeout(0);
      resolve(socket);
    });
  });
}
