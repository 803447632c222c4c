import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, connect as netConnect } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { connect as tlsConnect } from 'node:tls';
import { Client, ResultCodeError } from 'ldapts';
import type { CompiledLdap } from '../../core/index.js';
import { SignInError } from '../../core/index.js';
import type { AddressPolicy } from '../../foundation/outbound/address-policy.js';

/** What opening a connection to an entry's directory needs. */
export interface ConnectionDeps {
  /** The outbound address policy (SSOGATE_OUTBOUND_ALLOW), applied before connecting. */
  readonly policy: AddressPolicy;
  /** The time allowed for each operation. */
  readonly timeoutMs: number;
  /** Which entry, for the errors' audit events. */
  readonly entryId: string;
}

/**
 * A client of the entry's directory that opens one connection and never
 * another. ldapts opens a new socket by itself when an operation finds its
 * connection closed, and that socket is neither upgraded by StartTLS nor
 * bound: the next bind would send a password in the clear, and a pooled
 * connection would search unauthenticated. So the second socket is refused
 * and the operation fails as `ldap_unavailable`; a pool then drops the
 * client and opens a new one the whole way (connect, StartTLS, bind).
 */
export function connectedClient(deps: ConnectionDeps, ldap: CompiledLdap): Client {
  const { hostname } = new URL(ldap.url);
  const refusal = deps.policy.hostRefusal(hostname);
  if (refusal !== undefined) {
    throw new SignInError(
      'ldap_unavailable',
      `a connection to ${hostname} refused before connecting: ${refusal}; SSOGATE_OUTBOUND_ALLOW can let it through`,
      { entryId: deps.entryId },
    );
  }
  const lookup = checkedLookup(deps.policy);
  let sockets = 0;
  const once = (): void => {
    sockets += 1;
    if (sockets > 1) {
      throw new Error('the connection closed; it is not opened again unencrypted and unbound');
    }
  };
  return new Client({
    url: ldap.url,
    timeout: deps.timeoutMs,
    connectTimeout: ldap.connectTimeoutMs,
    // Given for ldaps:// only: ldapts takes any TLS options as a wish for TLS from the start.
    ...(ldap.url.startsWith('ldaps:') ? { tlsOptions: tlsOptions(ldap) } : {}),
    createConnection: ((port: number, host: string) => {
      once();
      return netConnect({ port, host, lookup });
    }) as typeof netConnect,
    // ldapts calls it as (port, host, options) for ldaps://, and as (options) for StartTLS,
    // which upgrades the socket already open.
    createSecureConnection: (...args: unknown[]) => {
      if (typeof args[0] !== 'number') return tlsConnect(args[0] as ConnectionOptions);
      once();
      return tlsConnect({
        ...(args[2] as ConnectionOptions),
        port: args[0],
        host: args[1] as string,
        lookup,
      });
    },
  });
}

/** Opens the connection: upgraded by StartTLS when the entry says so. */
export async function startConnection(
  deps: ConnectionDeps,
  client: Client,
  ldap: CompiledLdap,
): Promise<void> {
  await step(deps, 'the TLS upgrade', async () => {
    if (ldap.startTls) await client.startTLS(tlsOptions(ldap));
  });
}

/** Binds as the entry's service account (with a `bindDn`; a template entry has none). */
export async function serviceBind(
  deps: ConnectionDeps,
  client: Client,
  ldap: CompiledLdap,
): Promise<void> {
  const { lookup } = ldap;
  if (lookup.kind !== 'search') return;
  await step(deps, 'the bind as the service account', () =>
    client.bind(lookup.bindDn, lookup.bindPassword),
  );
}

function tlsOptions(ldap: CompiledLdap): ConnectionOptions {
  const hostname = new URL(ldap.url).hostname.replace(/^\[|\]$/g, '');
  return {
    minVersion: 'TLSv1.2',
    // RFC 6066 §3: a server name is a host name, never an address.
    ...(isIP(hostname) === 0 ? { servername: hostname } : {}),
    // The name the certificate is checked against. StartTLS upgrades a
    // socket already open, so Node knows no host but this one; without it
    // an address would be checked as "localhost" (RFC 4513 §3.1.3: the
    // server's identity is the host of the URL).
    host: hostname,
    ...(ldap.caCertificate === undefined ? {} : { ca: ldap.caCertificate }),
  };
}

/** One operation; a failure becomes `ldap_directory_error` or `ldap_unavailable`. */
export async function step<T>(
  deps: ConnectionDeps,
  name: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw directoryError(deps, name, error);
  }
}

/**
 * A directory that answered with an error code is `ldap_directory_error`
 * (RFC 4511 §4.1.9); no answer at all (refused, reset, timed out, TLS not
 * verified) is `ldap_unavailable`.
 */
export function directoryError(deps: ConnectionDeps, name: string, error: unknown): SignInError {
  if (error instanceof SignInError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ResultCodeError) {
    return new SignInError(
      'ldap_directory_error',
      `${name} failed: ${message} (LDAP result ${error.code})`,
      { entryId: deps.entryId },
    );
  }
  return new SignInError('ldap_unavailable', `${name} failed: ${message}`, {
    entryId: deps.entryId,
  });
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** The resolver the connection uses: every address of the answer must pass the policy. */
function checkedLookup(policy: AddressPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) {
        callback(error, '');
        return;
      }
      for (const { address } of addresses) {
        const refusal = policy.addressRefusal(hostname, address);
        if (refusal !== undefined) {
          callback(
            new Error(
              `${hostname} resolves to ${refusal}; SSOGATE_OUTBOUND_ALLOW can let it through`,
            ),
            '',
          );
          return;
        }
      }
      if (options.all === true) callback(null, addresses);
      else callback(null, addresses[0]?.address ?? '', addresses[0]?.family);
    });
  };
}
