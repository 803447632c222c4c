import { createHash } from 'node:crypto';
import type { Client } from 'ldapts';
import type { CompiledEntry, CompiledLdap } from '../../core/index.js';
import { SignInError, ldapOf } from '../../core/index.js';
import type { PoolsByKey } from '../../foundation/outbound/connection-pool.js';
import { ConnectionPool } from '../../foundation/outbound/connection-pool.js';
import type { ConnectionDeps } from './directory-connection.js';
import { connectedClient, serviceBind, startConnection } from './directory-connection.js';

/**
 * The entry's pool of connections bound as its service account
 * (docs/entries.md#connections-to-the-directory), kept in the gateway's memory by entry id:
 * `ldap.poolSize` at most, each closed after `ldap.poolIdleMs` unused, a
 * sign-in finding them all lent waiting `ldap.poolWaitMs` at most before
 * `ldap_unavailable`. A change to what a connection is made of (the URL,
 * TLS, the account, its password, the time-outs, the limits) makes a new
 * pool and closes the old one.
 */
export function directoryPool(
  pools: PoolsByKey<Client>,
  deps: ConnectionDeps,
  ldap: CompiledLdap,
): ConnectionPool<Client> {
  return pools.poolFor(
    deps.entryId,
    poolSettings(ldap, deps.timeoutMs),
    () =>
      new ConnectionPool<Client>(
        ldap.pool,
        {
          async open() {
            const client = connectedClient(deps, ldap);
            try {
              await startConnection(deps, client, ldap);
              await serviceBind(deps, client, ldap);
              return client;
            } catch (error) {
              await client.unbind().catch(() => undefined);
              throw error;
            }
          },
          alive: (client) => client.isConnected,
          close(client) {
            // An unbind (RFC 4511 §4.3) tells the directory; the socket closes either way.
            void client.unbind().catch(() => undefined);
          },
        },
        (why) =>
          new SignInError(
            'ldap_unavailable',
            why === 'busy'
              ? `all ${String(ldap.pool.size)} connections to the directory (ldap.poolSize) stayed in use for ${String(ldap.pool.waitMs)} ms (ldap.poolWaitMs)`
              : "the directory's connections were closed: the entry changed or the gateway is stopping",
            { entryId: deps.entryId },
          ),
      ),
  );
}

/**
 * What a pool's connections are made of, as one text that changes when any
 * of it does; hashed, so the pools' map keeps no second copy of the service
 * account's password.
 */
function poolSettings(ldap: CompiledLdap, timeoutMs: number): string {
  const { lookup } = ldap;
  const made = JSON.stringify([
    ldap.url,
    ldap.startTls,
    ldap.caCertificate ?? '',
    lookup.kind === 'search' ? [lookup.bindDn, lookup.bindPassword] : [],
    ldap.connectTimeoutMs,
    timeoutMs,
    ldap.pool,
  ]);
  return createHash('sha256').update(made).digest('base64url');
}

/**
 * At each load of the entries: the pools of entries removed, no longer of
 * type ldap, or changed in what their connections are made of are closed.
 */
export function keepDirectoryPools(
  pools: PoolsByKey<Client>,
  entries: readonly CompiledEntry[],
): void {
  const wanted = new Map<string, string>();
  for (const entry of entries) {
    const ldap = ldapOf(entry);
    if (ldap !== undefined) wanted.set(ldap.id, poolSettings(ldap.ldap, ldap.timeoutMs));
  }
  pools.retain(wanted);
}
