import type { Client, Entry, SearchResult } from 'ldapts';
import { InvalidCredentialsError } from 'ldapts';
import type { CompiledLdap, DirectoryAnswer } from '../../core/index.js';
import { SignInError, isSsogateError, renderFilter, renderUserDn } from '../../core/index.js';
import type { ConnectionPool, PoolsByKey } from '../../foundation/outbound/connection-pool.js';
import type { ConnectionDeps } from './directory-connection.js';
import {
  connectedClient,
  directoryError,
  serviceBind,
  startConnection,
  step,
} from './directory-connection.js';
import { directoryPool } from './directory-pool.js';

interface DirectoryDeps extends ConnectionDeps {
  /**
   * The gateway's pools of service-account connections, by entry
   * (directory-pool.ts); absent, each sign-in opens a connection of its own
   * (a test sign-in, which traces the whole sign-in, connection included).
   */
  readonly pools?: PoolsByKey<Client>;
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
 * With a service account and the gateway's pools, the connection comes
 * from the entry's pool, already bound as the service account
 * (`pooledSignIn`); otherwise it is opened for this sign-in alone.
 */
export async function signInWithDirectory(
  deps: DirectoryDeps,
  ldap: CompiledLdap,
  username: string,
  password: string,
): Promise<DirectoryAnswer> {
  const sign = new DirectorySignIn(deps, ldap, username, password);
  if (username === '') throw sign.failed('no username was typed');
  if (password === '') {
    throw sign.failed(
      'an empty password is refused: it would be an unauthenticated bind (RFC 4513 §5.1.2)',
    );
  }
  if (ldap.lookup.kind === 'search' && deps.pools !== undefined) {
    return pooledSignIn(sign, directoryPool(deps.pools, deps, ldap));
  }
  return singleConnectionSignIn(sign);
}

/** The steps of one sign-in, on whichever connection it is given. */
class DirectorySignIn {
  readonly attributes: string[];

  constructor(
    readonly deps: DirectoryDeps,
    readonly ldap: CompiledLdap,
    readonly username: string,
    private readonly password: string,
  ) {
    this.attributes = [
      ldap.userIdAttribute,
      ldap.nameAttribute,
      ldap.emailAttribute,
      ...(ldap.groupFilter === undefined ? [ldap.memberOfAttribute] : []),
    ];
  }

  failed(reason: string): SignInError {
    return new SignInError('ldap_sign_in_failed', reason, {
      entryId: this.deps.entryId,
      userId: this.username,
    });
  }

  async userBind(client: Client, dn: string): Promise<void> {
    this.deps.observe?.begin('user bind');
    try {
      await client.bind(dn, this.password);
    } catch (error) {
      if (error instanceof InvalidCredentialsError)
        throw this.failed('the directory refused the password');
      throw directoryError(this.deps, 'the bind as the user', error);
    }
  }

  /** The search for the user by the filter, as the service account; sizeLimit 2 tells one from several. */
  async userSearch(client: Client, userFilter: string): Promise<SearchResult> {
    const { deps, ldap } = this;
    const filter = renderFilter(userFilter, 'username', this.username);
    deps.observe?.begin('user search');
    deps.observe?.result('base', ldap.baseDn);
    deps.observe?.result('filter', filter);
    const found = await step(deps, 'the user search', () =>
      client.search(ldap.baseDn, {
        scope: 'sub',
        filter,
        attributes: this.attributes,
        sizeLimit: 2,
        timeLimit: Math.ceil(deps.timeoutMs / 1000),
      }),
    );
    deps.observe?.result('found', String(found.searchEntries.length));
    return found;
  }

  /**
   * The DN the typed password is bound to: the one user found, or, for no
   * user or several, a name that is no one's, so an unknown user costs the
   * directory the same round trips as a wrong password.
   */
  bindTarget(found: SearchResult): string {
    const [user, another] = found.searchEntries;
    return user !== undefined && another === undefined
      ? user.dn
      : `cn=ssogate-no-user,${this.ldap.baseDn}`;
  }

  /** The one user found, once the password was bound. */
  onlyUser(found: SearchResult): Entry {
    const [user, another] = found.searchEntries;
    if (user === undefined) throw this.failed('no user matches the filter');
    if (another !== undefined) throw this.failed('more than one user matches the filter');
    return user;
  }

  async answerOf(client: Client, user: Entry, serviceBound: boolean): Promise<DirectoryAnswer> {
    const { deps, ldap } = this;
    deps.observe?.result('bound as', user.dn);
    deps.observe?.begin('groups');
    const groupDns = await groupsOf(deps, client, ldap, user, serviceBound);
    deps.observe?.result(
      ldap.groupFilter === undefined ? `read from ${ldap.memberOfAttribute}` : 'group search',
      groupDns.length === 0 ? '(none)' : groupDns.join('; '),
    );
    return { dn: user.dn, attributes: attributesOf(user, ldap), groupDns };
  }
}

/** The sign-in on a connection opened for it and closed after it. */
async function singleConnectionSignIn(sign: DirectorySignIn): Promise<DirectoryAnswer> {
  const { deps, ldap } = sign;
  const observe = deps.observe;
  const client = connectedClient(deps, ldap);
  try {
    await startConnection(deps, client, ldap);
    const { lookup } = ldap;
    if (lookup.kind === 'template') {
      const dn = renderUserDn(lookup.userDnTemplate, sign.username);
      await sign.userBind(client, dn);
      const own = await step(deps, 'the read of the user entry', () =>
        client.search(dn, {
          scope: 'base',
          filter: '(objectClass=*)',
          attributes: sign.attributes,
          sizeLimit: 1,
          timeLimit: Math.ceil(deps.timeoutMs / 1000),
        }),
      );
      const [user] = own.searchEntries;
      if (user === undefined) throw sign.failed('the user entry could not be read');
      return await sign.answerOf(client, user, false);
    }
    observe?.begin('service bind');
    await serviceBind(deps, client, ldap);
    observe?.result('bound as', lookup.bindDn);
    const found = await sign.userSearch(client, lookup.userFilter);
    await sign.userBind(client, sign.bindTarget(found));
    return await sign.answerOf(client, sign.onlyUser(found), false);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

const unanswered = (error: unknown): boolean =>
  isSsogateError(error) && error.code === 'ldap_unavailable';

/**
 * The sign-in on a connection lent by the entry's pool, bound as the service
 * account. The user's bind is made on that same connection, and the
 * connection then binds as the service account again before it goes back:
 * a bind sets the whole connection's identity (RFC 4511 §4.2.1; a failed
 * one leaves it anonymous), so the pool never lends one bound as a user.
 * The other way, a second connection for the user's bind, would cost every
 * sign-in a TCP connect and, with TLS, a handshake, which is what the pool
 * saves; the re-bind costs one round trip and no handshake, and it is also
 * the bind a group search needs. A connection whose re-bind fails, or that
 * got no answer, is closed, never given back. A reused connection the
 * directory closed since (its idle limit, a restart) fails the search
 * without an answer, and the search is tried on another, at worst a new one.
 */
async function pooledSignIn(
  sign: DirectorySignIn,
  pool: ConnectionPool<Client>,
): Promise<DirectoryAnswer> {
  const { deps, ldap } = sign;
  const { lookup } = ldap;
  if (lookup.kind !== 'search') throw new Error('a pooled sign-in needs a service account');
  let lease = await pool.acquire();
  let reusable = false;
  try {
    let found: SearchResult;
    for (;;) {
      try {
        found = await sign.userSearch(lease.connection, lookup.userFilter);
        break;
      } catch (error) {
        if (!(lease.reused && unanswered(error))) throw error;
        lease.release(false);
        lease = await pool.acquire();
      }
    }
    const client = lease.connection;
    const userBound = await sign.userBind(client, sign.bindTarget(found)).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    await serviceBind(deps, client, ldap);
    reusable = true;
    if (userBound !== undefined) throw userBound;
    return await sign.answerOf(client, sign.onlyUser(found), true);
  } catch (error) {
    if (unanswered(error)) reusable = false;
    throw error;
  } finally {
    lease.release(reusable);
  }
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
  serviceBound: boolean,
): Promise<string[]> {
  if (ldap.groupFilter === undefined) return valuesOf(user, ldap.memberOfAttribute);
  const { groupFilter } = ldap;
  if (!serviceBound) await serviceBind(deps, client, ldap);
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
