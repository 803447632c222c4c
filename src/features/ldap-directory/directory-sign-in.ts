import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, connect as netConnect } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { connect as tlsConnect } from 'node:tls';
import type { Entry } from 'ldapts';
import { Client, InvalidCredentialsError, ResultCodeError } from 'ldapts';
import type { CompiledLdap, DirectoryAnswer } from '../../core/index.js';
import { SignInError, renderFilter, renderUserDn } from '../../core/index.js';
import type { AddressPolicy } from '../../foundation/outbound/address-policy.js';

interface DirectoryDeps {
  /** The outbound address policy (SSOGATE_OUTBOUND_ALLOW), applied before connecting. */
  readonly policy: AddressPolicy;
  /** The time allowed for each operation. */
  readonly timeoutMs: number;
  /** Which entry, for the errors' audit events. */
  readonly entryId: string;
  /**
   * Told of each operation as it begins and of what it found: an
   * administrator's test sign-in records them (src/features/trial-sign-in/).
   * The typed password is never given to it.
   */
  readonly observe?: DirectoryObserver;
}

/** What a test sign-in's trace hears of a sign-in against the directory. */
export interface DirectoryObserver {
  begin(operation: string): void;
  result(label: string, value: string): void;
}

/** At most this many values of one attribute are kept (a user in thousands of groups). */
const maxValues = 256;

/** Nested groups are followed this many levels below the user's own groups. */
const maxNestingDepth = 8;

/**
 * The sign-in against a directory (docs/entries.md#ldap-directories):
 * bind as the service account, find the one user the filter names with the
 * typed username escaped (RFC 4515 §3), bind as that user with the typed
 * password, then read their groups. Or, with a userDnTemplate, bind at once
 * as the DN the template makes with the username escaped (RFC 4514 §2.4)
 * and read the user's own entry as them. A wrong password, an unknown user
 * and a name matching more than one entry get the same `ldap_sign_in_failed`,
 * after the same binds, so the answer tells nothing about which.
 * An empty password is refused before any connection: a simple bind with a
 * DN and no password is an unauthenticated bind that succeeds without
 * checking anything (RFC 4513 §5.1.2).
 */
export async function signInWithDirectory(
  deps: DirectoryDeps,
  ldap: CompiledLdap,
  username: string,
  password: string,
): Promise<DirectoryAnswer> {
  const failed = (reason: string) =>
    new SignInError('ldap_sign_in_failed', reason, { entryId: deps.entryId, userId: username });
  if (username === '') throw failed('no username was typed');
  if (password === '') {
    throw failed(
      'an empty password is refused: it would be an unauthenticated bind (RFC 4513 §5.1.2)',
    );
  }
  const observe = deps.observe;
  const client = connectedClient(deps, ldap);
  const userBind = async (dn: string): Promise<void> => {
    observe?.begin('user bind');
    try {
      await client.bind(dn, password);
    } catch (error) {
      if (error instanceof InvalidCredentialsError)
        throw failed('the directory refused the password');
      throw directoryError(deps, 'the bind as the user', error);
    }
  };
  const attributes = [
    ldap.userIdAttribute,
    ldap.nameAttribute,
    ldap.emailAttribute,
    ...(ldap.groupFilter === undefined ? [ldap.memberOfAttribute] : []),
  ];
  const answerOf = async (user: Entry): Promise<DirectoryAnswer> => {
    observe?.result('bound as', user.dn);
    observe?.begin('groups');
    const groupDns = await groupsOf(deps, client, ldap, user);
    observe?.result(
      ldap.groupFilter === undefined ? `read from ${ldap.memberOfAttribute}` : 'group search',
      groupDns.length === 0 ? '(none)' : groupDns.join('; '),
    );
    return { dn: user.dn, attributes: attributesOf(user, ldap), groupDns };
  };
  try {
    await step(deps, 'the TLS upgrade', async () => {
      if (ldap.startTls) await client.startTLS(tlsOptions(ldap));
    });
    const { lookup } = ldap;
    if (lookup.kind === 'template') {
      const dn = renderUserDn(lookup.userDnTemplate, username);
      await userBind(dn);
      const own = await step(deps, 'the read of the user entry', () =>
        client.search(dn, {
          scope: 'base',
          filter: '(objectClass=*)',
          attributes,
          sizeLimit: 1,
          timeLimit: Math.ceil(deps.timeoutMs / 1000),
        }),
      );
      const [user] = own.searchEntries;
      if (user === undefined) throw failed('the user entry could not be read');
      return await answerOf(user);
    }
    observe?.begin('service bind');
    await serviceBind(deps, client, ldap);
    observe?.result('bound as', lookup.bindDn);
    const filter = renderFilter(lookup.userFilter, 'username', username);
    observe?.begin('user search');
    observe?.result('base', ldap.baseDn);
    observe?.result('filter', filter);
    const found = await step(deps, 'the user search', () =>
      client.search(ldap.baseDn, {
        scope: 'sub',
        filter,
        attributes,
        sizeLimit: 2,
        timeLimit: Math.ceil(deps.timeoutMs / 1000),
      }),
    );
    observe?.result('found', String(found.searchEntries.length));
    const [user, another] = found.searchEntries;
    // Bound all the same, to a name that is no one's, so an unknown user
    // costs the directory the same round trips as a wrong password.
    await userBind(
      user !== undefined && another === undefined ? user.dn : `cn=ssogate-no-user,${ldap.baseDn}`,
    );
    if (user === undefined) throw failed('no user matches the filter');
    if (another !== undefined) throw failed('more than one user matches the filter');
    return await answerOf(user);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

function connectedClient(deps: DirectoryDeps, ldap: CompiledLdap): Client {
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
  return new Client({
    url: ldap.url,
    timeout: deps.timeoutMs,
    connectTimeout: ldap.connectTimeoutMs,
    // Given for ldaps:// only: ldapts takes any TLS options as a wish for TLS from the start.
    ...(ldap.url.startsWith('ldaps:') ? { tlsOptions: tlsOptions(ldap) } : {}),
    createConnection: ((port: number, host: string) =>
      netConnect({ port, host, lookup })) as typeof netConnect,
    // ldapts calls it as (port, host, options) for ldaps://, and as (options) for StartTLS.
    createSecureConnection: (...args: unknown[]) =>
      typeof args[0] === 'number'
        ? tlsConnect({
            ...(args[2] as ConnectionOptions),
            port: args[0],
            host: args[1] as string,
            lookup,
          })
        : tlsConnect(args[0] as ConnectionOptions),
  });
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

async function serviceBind(deps: DirectoryDeps, client: Client, ldap: CompiledLdap): Promise<void> {
  const { lookup } = ldap;
  if (lookup.kind !== 'search') return;
  await step(deps, 'the bind as the service account', () =>
    client.bind(lookup.bindDn, lookup.bindPassword),
  );
}

/**
 * The user's groups: a search by the group filter (as the service account,
 * or as the user when there is none), or their memberOf. With nestedGroups
 * the groups found are searched for again, all of one level in one search
 * (an RFC 4515 `|` of the filter for each), until a level finds nothing new,
 * `maxNestingDepth` levels or `maxValues` groups; a group met again (a
 * cycle) is not searched twice.
 */
async function groupsOf(
  deps: DirectoryDeps,
  client: Client,
  ldap: CompiledLdap,
  user: Entry,
): Promise<string[]> {
  if (ldap.groupFilter === undefined) return valuesOf(user, ldap.memberOfAttribute);
  const { groupFilter } = ldap;
  await serviceBind(deps, client, ldap);
  const search = async (dns: readonly string[]): Promise<string[]> => {
    const filters = dns.map((dn) => renderFilter(groupFilter, 'dn', dn));
    const groups = await step(deps, 'the group search', () =>
      client.search(ldap.groupBaseDn, {
        scope: 'sub',
        filter: filters.length === 1 ? (filters[0] ?? '') : `(|${filters.join('')})`,
        attributes: ['1.1'],
        sizeLimit: maxValues,
        timeLimit: Math.ceil(deps.timeoutMs / 1000),
      }),
    );
    return groups.searchEntries.map((entry) => entry.dn);
  };
  const found = new Map<string, string>();
  const keep = (dns: readonly string[]): string[] => {
    const added: string[] = [];
    for (const dn of dns) {
      // DNs compare without case (RFC 4517 §4.2.15 for the usual attribute types).
      const key = dn.toLowerCase();
      if (!found.has(key) && found.size < maxValues) {
        found.set(key, dn);
        added.push(dn);
      }
    }
    return added;
  };
  let level = keep(await search([user.dn]));
  for (let depth = 0; ldap.nestedGroups && depth < maxNestingDepth && level.length > 0; depth++) {
    level = keep(await search(level));
  }
  return [...found.values()];
}

function attributesOf(user: Entry, ldap: CompiledLdap): Record<string, string | string[]> {
  const attributes: Record<string, string | string[]> = {};
  for (const name of [ldap.userIdAttribute, ldap.nameAttribute, ldap.emailAttribute]) {
    const values = valuesOf(user, name);
    if (values.length > 0) attributes[name] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return attributes;
}

/** An attribute's text values, whatever the case its name came back in. */
function valuesOf(user: Entry, name: string): string[] {
  const key = Object.keys(user).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  const value: unknown = key === undefined ? undefined : user[key];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((item): item is string => typeof item === 'string').slice(0, maxValues);
}

/** One operation; a failure becomes `ldap_directory_error` or `ldap_unavailable`. */
async function step<T>(deps: DirectoryDeps, name: string, run: () => Promise<T>): Promise<T> {
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
function directoryError(deps: DirectoryDeps, name: string, error: unknown): SignInError {
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
