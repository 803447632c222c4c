import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { RevocationAnnouncements } from '../revocation-announcements.js';
import type { FailoverPool } from './failover-pool.js';
import type { AnnouncingRevocationFeed } from '../session-revocations.js';

interface PostgresRevocationFeedOptions {
  /**
   * Runs the feed's statements (NOTIFY, the count of listeners) on the
   * shared pool, and makes the feed's own listening connection, to the
   * primary the pool uses (failover-pool.ts).
   */
  readonly pool: FailoverPool;
  /** How long an announcement waits for the instances' acknowledgements. */
  readonly ackTimeoutMs?: number;
  /** How often the listening connection is queried; an unanswered query stops trust. */
  readonly heartbeatMs?: number;
  /** How long after losing the listening connection a new one is tried. */
  readonly reconnectMs?: number;
}

/** The channel every instance listens on; a payload is `instanceId nonce scope subject`. */
const revocationChannel = 'ssogate_revocations';
/**
 * The application_name of every listening connection, by which an announcer
 * counts the instances that will acknowledge (pg_stat_activity).
 */
export const listenerApplicationName = 'ssogate-revocations';

/**
 * Revocations between instances sharing one PostgreSQL database without
 * Redis, over LISTEN/NOTIFY (the same protocol as
 * src/foundation/storage/redis/redis-revocation-feed.ts): an announcer applies the
 * revocation here, sends it with pg_notify and counts, in the same statement,
 * the listening connections of every instance (by application_name); each
 * other instance applies it and acknowledges on the announcer's own channel.
 * The announcement resolves when as many acknowledgements arrived as there
 * were listeners (its own delivery included), or after `ackTimeoutMs`. So a
 * sign-out is answered once every listening instance has forgotten the
 * session.
 *
 * The listening connection is the feed's own (not the pool's). What is
 * remembered is trusted only while it is known to be live: when it errors
 * or ends, everything is forgotten and nothing is remembered until a new
 * connection has listened again and answered a query sent after LISTEN (a
 * notification committed before that query was sent is delivered before its
 * answer). A heartbeat query left unanswered for a whole period stops trust
 * too, until one is answered.
 */
export async function createPostgresRevocationFeed(
  options: PostgresRevocationFeedOptions,
): Promise<AnnouncingRevocationFeed> {
  const ackTimeoutMs = options.ackTimeoutMs ?? 2000;
  const heartbeatMs = options.heartbeatMs ?? 1000;
  const reconnectMs = options.reconnectMs ?? 500;
  const instanceId = randomUUID().replaceAll('-', '');
  const ackChannel = (id: string) => `ssogate_revocation_acks_${id}`;
  const ownAcks = ackChannel(instanceId);
  const feed = new RevocationAnnouncements({
    instanceId,
    ackTimeoutMs,
    acknowledge: (sender, nonce) =>
      // The sender's id names a channel: only one of ours is answered.
      /^[0-9a-f]{32}$/.test(sender)
        ? options.pool.query('select pg_notify($1, $2)', [ackChannel(sender), nonce])
        : Promise.resolve(),
  });
  let client: pg.Client | undefined;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const heard = (message: pg.Notification): void => {
    const payload = message.payload ?? '';
    if (message.channel === ownAcks) feed.acknowledged(payload);
    else if (message.channel === revocationChannel) feed.heard(payload);
  };

  /** A heartbeat: trust again once the connection answers (after one left unanswered). */
  const ping = (connection: pg.Client): void => {
    feed.confirm(
      () => connection.query('select 1'),
      () => connection === client && !closed,
    );
  };

  const lost = (connection: pg.Client): void => {
    if (connection !== client) return;
    client = undefined;
    feed.distrust();
    connection.removeAllListeners('notification');
    connection.end().catch(() => undefined);
    if (!closed) scheduleConnect();
  };

  const connect = async (): Promise<void> => {
    const connection = options.pool.ownClient({
      application_name: listenerApplicationName,
      connectionTimeoutMillis: 3000,
    });
    connection.on('error', () => {
      lost(connection);
    });
    connection.on('end', () => {
      lost(connection);
    });
    connection.on('notification', heard);
    client = connection;
    try {
      await connection.connect();
      await connection.query(`LISTEN ${revocationChannel}`);
      await connection.query(`LISTEN ${ownAcks}`);
      // Answered after LISTEN: from here on nothing announced is missed.
      await connection.query('select 1');
    } catch (error) {
      lost(connection);
      throw error;
    }
    if (closed) {
      await connection.end();
      return;
    }
    if (connection === client) feed.live = true;
  };

  function scheduleConnect(): void {
    if (reconnectTimer !== undefined) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect().catch(() => {
        // lost() has scheduled the next try.
      });
    }, reconnectMs);
    reconnectTimer.unref();
  }

  try {
    // Each failed try moves to the next server the URL lists.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await connect();
        break;
      } catch (error) {
        if (attempt >= options.pool.serverCount) throw error;
        // Tried again here, not by the timer the failure set.
        clearTimeout(reconnectTimer);
        reconnectTimer = undefined;
      }
    }
  } catch (error) {
    // The storage fails to open: no connection is tried again behind it.
    closed = true;
    clearTimeout(reconnectTimer);
    throw error;
  }

  feed.startHeartbeat(heartbeatMs, () => {
    if (client !== undefined) ping(client);
  });

  return {
    listen(listener) {
      feed.listeners.add(listener);
    },
    catchUp: () => feed.live,
    announce: (revocation) =>
      feed.announce(revocation, async (message) => {
        const { rows } = await options.pool.query<{ receivers: number | string }>(
          `select pg_notify($1, $2), (select count(*) from pg_stat_activity
             where application_name = $3 and datname = current_database()) as receivers`,
          [revocationChannel, message, listenerApplicationName],
        );
        return Number(rows[0]?.receivers ?? 0);
      }),
    async close() {
      closed = true;
      feed.live = false;
      clearTimeout(reconnectTimer);
      feed.close();
      const connection = client;
      client = undefined;
      if (connection !== undefined) await connection.end().catch(() => undefined);
    },
  };
}
