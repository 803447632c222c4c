/**
 * What a pool needs of its connections: how one is opened ready for use,
 * whether one is still open, and how one is closed.
 */
interface PoolMaker<C> {
  /** A new connection, ready for use (for a directory: bound as the service account). */
  open(): Promise<C>;
  /** False once the other side closed it or it failed: it is then dropped, never lent. */
  alive(connection: C): boolean;
  close(connection: C): void;
}

interface PoolLimits {
  /** At most this many connections, lent and idle together. */
  readonly size: number;
  /** An idle connection is closed after this long unused. */
  readonly idleMs: number;
  /** A caller waits at most this long for a connection when all are lent. */
  readonly waitMs: number;
}

/** A connection lent by the pool; given back once, by `release`. */
interface Lease<C> {
  readonly connection: C;
  /** Whether it served earlier callers (a fresh one was opened for this one otherwise). */
  readonly reused: boolean;
  /**
   * Gives it back: `reusable` false (it failed, or it is no longer in the
   * state the pool promises) closes it instead.
   */
  release(reusable: boolean): void;
}

interface PoolStats {
  /** Connections opened over the pool's life: what a test of reuse counts. */
  readonly opened: number;
  readonly idle: number;
  readonly lent: number;
  readonly waiting: number;
}

interface Waiter<C> {
  readonly resolve: (lease: Lease<C>) => void;
  readonly reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

interface Idle<C> {
  readonly connection: C;
  readonly timer: NodeJS.Timeout;
}

/**
 * A bounded pool of connections to one server: at most `size`, idle ones
 * closed after `idleMs`, a caller finding all lent waiting at most `waitMs`
 * for one to come back, then refused with `busy()`'s error. A connection
 * that failed or was closed by the other side is dropped, and a new one is
 * opened in its place when a caller asks. Not a module-level object: each
 * gateway keeps its own (src/foundation/http/gateway-memory.ts).
 */
export class ConnectionPool<C> {
  private readonly idle: Idle<C>[] = [];
  private readonly waiters: Waiter<C>[] = [];
  /** Lent connections and those being opened: what counts against `size` beside the idle. */
  private taken = 0;
  private opened = 0;
  private closed = false;

  constructor(
    private readonly limits: PoolLimits,
    private readonly maker: PoolMaker<C>,
    /** The error a caller gets after waiting `waitMs`, or when the pool has closed. */
    private readonly refusal: (why: 'busy' | 'closed') => Error,
  ) {}

  async acquire(): Promise<Lease<C>> {
    if (this.closed) throw this.refusal('closed');
    const reused = this.takeIdle();
    if (reused !== undefined) return reused;
    if (this.idle.length + this.taken < this.limits.size) return this.openLease();
    return new Promise<Lease<C>>((resolve, reject) => {
      const waiter: Waiter<C> = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(this.refusal('busy'));
        }, this.limits.waitMs),
      };
      this.waiters.push(waiter);
    });
  }

  stats(): PoolStats {
    return {
      opened: this.opened,
      idle: this.idle.length,
      lent: this.taken,
      waiting: this.waiters.length,
    };
  }

  /** Closes the idle connections now and the lent ones as they come back; waiters are refused. */
  close(): void {
    this.closed = true;
    for (const { connection, timer } of this.idle.splice(0)) {
      clearTimeout(timer);
      this.maker.close(connection);
    }
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(this.refusal('closed'));
    }
  }

  /** The most recently returned idle connection still alive (the others then idle out first). */
  private takeIdle(): Lease<C> | undefined {
    for (let idle = this.idle.pop(); idle !== undefined; idle = this.idle.pop()) {
      clearTimeout(idle.timer);
      if (this.maker.alive(idle.connection)) {
        this.taken += 1;
        return this.lease(idle.connection, true);
      }
      this.maker.close(idle.connection);
    }
    return undefined;
  }

  private async openLease(): Promise<Lease<C>> {
    this.taken += 1;
    let connection: C;
    try {
      connection = await this.maker.open();
    } catch (error) {
      this.taken -= 1;
      this.serveWaiters();
      throw error;
    }
    this.opened += 1;
    if (this.closed) {
      this.taken -= 1;
      this.maker.close(connection);
      throw this.refusal('closed');
    }
    return this.lease(connection, false);
  }

  private lease(connection: C, reused: boolean): Lease<C> {
    let released = false;
    return {
      connection,
      reused,
      release: (reusable) => {
        if (released) return;
        released = true;
        this.taken -= 1;
        if (reusable && !this.closed && this.maker.alive(connection)) {
          const waiter = this.waiters.shift();
          if (waiter === undefined) {
            this.keepIdle(connection);
          } else {
            clearTimeout(waiter.timer);
            this.taken += 1;
            waiter.resolve(this.lease(connection, true));
          }
          return;
        }
        this.maker.close(connection);
        this.serveWaiters();
      },
    };
  }

  private keepIdle(connection: C): void {
    const timer = setTimeout(() => {
      const at = this.idle.findIndex((idle) => idle.timer === timer);
      if (at >= 0) this.idle.splice(at, 1);
      this.maker.close(connection);
    }, this.limits.idleMs);
    // An idle connection never keeps the process running.
    timer.unref();
    this.idle.push({ connection, timer });
  }

  /** A place came free (a connection closed or failed to open): a waiter gets a new one. */
  private serveWaiters(): void {
    while (
      !this.closed &&
      this.waiters.length > 0 &&
      this.idle.length + this.taken < this.limits.size
    ) {
      const waiter = this.waiters.shift();
      if (waiter === undefined) return;
      clearTimeout(waiter.timer);
      this.openLease().then(waiter.resolve, waiter.reject);
    }
  }
}

/**
 * The pools of a gateway, one per key (an entry's id): made on first use,
 * made again when the settings they were made for change, closed when their
 * key is no longer wanted and when the gateway stops.
 */
export class PoolsByKey<C> {
  private readonly pools = new Map<
    string,
    { readonly settings: string; pool: ConnectionPool<C> }
  >();

  /** The key's pool for these settings (a text that changes when they do); an older one is closed. */
  poolFor(key: string, settings: string, make: () => ConnectionPool<C>): ConnectionPool<C> {
    const known = this.pools.get(key);
    if (known?.settings === settings) return known.pool;
    known?.pool.close();
    const pool = make();
    this.pools.set(key, { settings, pool });
    return pool;
  }

  get(key: string): ConnectionPool<C> | undefined {
    return this.pools.get(key)?.pool;
  }

  /**
   * Closes the pools of every key not in `wanted` (an entry removed) or
   * wanted with other settings (an entry changed).
   */
  retain(wanted: ReadonlyMap<string, string>): void {
    for (const [key, { settings, pool }] of this.pools) {
      if (wanted.get(key) !== settings) {
        pool.close();
        this.pools.delete(key);
      }
    }
  }

  closeAll(): void {
    this.retain(new Map());
  }
}
