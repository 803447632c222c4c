import type { Redis } from 'ioredis';

/**
 * Runs a write that must not be lost once answered (a new session, an ended
 * one, a consumed pending sign-in) and resolves its result. `write` gets the
 * connection to send it on, and must send every command of the write there.
 */
export type DurableWrite = <T>(write: (redis: Redis) => Promise<T>) => Promise<T>;

/**
 * One Redis server: the write on the commands' own connection, nothing more
 * (no round trip added). A lone server has no replica to wait for; what it
 * keeps across a restart is its persistence's business (docs/operations.md).
 */
export function directWrites(redis: Redis): DurableWrite {
  return (write) => write(redis);
}

/**
 * A write whose reply the master gave, but that no replica confirmed in time
 * (WAIT), or whose connection dropped before the confirmation came: it may
 * be lost at a failover, so it is answered as an outage (503), never as done.
 * backend-errors.ts knows it by its name.
 */
export class ReplicaUnconfirmedError extends Error {
  override readonly name = 'ReplicaUnconfirmedError';
}

interface PooledConnection {
  readonly redis: Redis;
  /** How many times it has closed: a change between a write and its WAIT means another server. */
  closes: number;
}

interface ReplicaConfirmedWritesOptions {
  /** Opens one connection to the current master (connectRedis), following failovers. */
  readonly connect: (index: number) => Promise<Redis>;
  /** Connections for confirmed writes; a write holds one for its write and its WAIT. */
  readonly size: number;
  /** WAIT's time-out: how long a replica may take to confirm (below the command time-out). */
  readonly waitTimeoutMs: number;
  /** How long a write may wait for a free connection before it is refused. */
  readonly acquireTimeoutMs: number;
}

export interface ReplicaConfirmedWrites {
  readonly write: DurableWrite;
  close(): Promise<void>;
  /** The pool's connections, for closing and for tests. */
  readonly connections: readonly Redis[];
}

/**
 * Behind Sentinels, Redis replicates asynchronously: a write the master has
 * answered but not yet sent to its replica is dropped when the replica is
 * promoted. So a durable write is followed, on the same connection, by
 * `WAIT 1 <time-out>`, which returns once a replica has acknowledged every
 * write of that connection (Redis counts the offset per client); fewer than
 * one in time is ReplicaUnconfirmedError. The Sentinels promote the replica
 * with the largest replication offset, so a write one replica confirmed is
 * on the new master.
 *
 * WAIT blocks its connection until it returns; on the one multiplexed
 * connection every request's reads would queue behind it. And since WAIT
 * counts its own connection's writes only, the write and its WAIT must share
 * a connection that nothing else writes on meanwhile (else WAIT would also
 * wait for others' writes, or a write sent after it would be counted as
 * confirmed). Hence a small pool of connections, each lent to one durable
 * write at a time; reads and the other writes keep the commands' connection.
 *
 * A connection that closes between a write and its WAIT's reply may have
 * reconnected to another server, where WAIT would answer for nothing of
 * ours: such a write is refused too (and ioredis is told not to resend
 * unanswered commands after a reconnection, where a resent WAIT would be
 * counted on the new master).
 */
export async function openReplicaConfirmedWrites(
  options: ReplicaConfirmedWritesOptions,
): Promise<ReplicaConfirmedWrites> {
  const pooled: PooledConnection[] = [];
  try {
    for (let index = 0; index < options.size; index += 1) {
      const redis = await options.connect(index);
      const connection: PooledConnection = { redis, closes: 0 };
      redis.on('close', () => {
        connection.closes += 1;
      });
      pooled.push(connection);
    }
  } catch (error) {
    for (const { redis } of pooled) redis.disconnect();
    throw error;
  }

  const idle = [...pooled];
  const waiting: ((connection: PooledConnection) => void)[] = [];
  let closed = false;

  const acquire = (): Promise<PooledConnection> => {
    if (closed) return Promise.reject(new ReplicaUnconfirmedError('the Redis stores are closed'));
    const free = idle.pop();
    if (free !== undefined) return Promise.resolve(free);
    return new Promise((resolve, reject) => {
      const handOver = (connection: PooledConnection) => {
        clearTimeout(timer);
        resolve(connection);
      };
      const timer = setTimeout(() => {
        const index = waiting.indexOf(handOver);
        if (index >= 0) waiting.splice(index, 1);
        reject(
          new ReplicaUnconfirmedError(
            `no Redis connection free for a confirmed write within ${options.acquireTimeoutMs} ms`,
          ),
        );
      }, options.acquireTimeoutMs);
      waiting.push(handOver);
    });
  };

  const release = (connection: PooledConnection): void => {
    const next = waiting.shift();
    if (next !== undefined) next(connection);
    else idle.push(connection);
  };

  const write: DurableWrite = async (run) => {
    const connection = await acquire();
    try {
      const closesBefore = connection.closes;
      const result = await run(connection.redis);
      const confirmed = await connection.redis.wait(1, options.waitTimeoutMs);
      if (connection.closes !== closesBefore) {
        throw new ReplicaUnconfirmedError(
          'the connection to the Redis master closed before a replica confirmed the write',
        );
      }
      if (confirmed < 1) {
        throw new ReplicaUnconfirmedError(
          `no Redis replica confirmed the write within ${options.waitTimeoutMs} ms`,
        );
      }
      return result;
    } finally {
      release(connection);
    }
  };

  return {
    write,
    connections: pooled.map(({ redis }) => redis),
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}
