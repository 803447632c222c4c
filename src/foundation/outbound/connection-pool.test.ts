import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { waitUntil } from '../../test-support/wait-until.js';
import { ConnectionPool, PoolsByKey } from './connection-pool.js';

interface Fake {
  readonly id: number;
  alive: boolean;
  closed: boolean;
}

function fakes() {
  const made: Fake[] = [];
  return {
    made,
    maker: {
      open: () => {
        const fake = { id: made.length + 1, alive: true, closed: false };
        made.push(fake);
        return Promise.resolve(fake);
      },
      alive: (fake: Fake) => fake.alive && !fake.closed,
      close: (fake: Fake) => {
        fake.closed = true;
      },
    },
  };
}

const refusal = (why: 'busy' | 'closed') => new Error(why);

describe('a connection pool', () => {
  test('lends one connection again and again, opening no second', async () => {
    const { made, maker } = fakes();
    const pool = new ConnectionPool({ size: 2, idleMs: 60_000, waitMs: 1000 }, maker, refusal);
    for (let index = 0; index < 5; index += 1) {
      const lease = await pool.acquire();
      assert.equal(lease.reused, index > 0);
      lease.release(true);
    }
    assert.equal(made.length, 1);
    pool.close();
    assert.equal(made[0]?.closed, true);
  });

  test('a connection given back as not reusable, or found dead, is closed and replaced', async () => {
    const { made, maker } = fakes();
    const pool = new ConnectionPool({ size: 1, idleMs: 60_000, waitMs: 1000 }, maker, refusal);
    (await pool.acquire()).release(false);
    assert.equal(made[0]?.closed, true);
    const second = await pool.acquire();
    second.release(true);
    if (made[1] !== undefined) made[1].alive = false;
    const third = await pool.acquire();
    assert.equal(third.reused, false);
    assert.equal(made.length, 3);
    assert.equal(made[1]?.closed, true);
    third.release(true);
    pool.close();
  });

  test('a caller finding every connection lent waits for one, or is refused after waitMs', async () => {
    const { made, maker } = fakes();
    const pool = new ConnectionPool({ size: 1, idleMs: 60_000, waitMs: 50 }, maker, refusal);
    const held = await pool.acquire();
    await assert.rejects(pool.acquire(), /busy/);
    assert.equal(pool.stats().waiting, 0);
    const waiting = pool.acquire();
    held.release(true);
    const handed = await waiting;
    assert.equal(handed.connection, made[0]);
    assert.equal(handed.reused, true);
    // Given back as broken: the waiter gets a new one in its place.
    const next = pool.acquire();
    handed.release(false);
    assert.equal((await next).reused, false);
    assert.equal(made.length, 2);
    pool.close();
  });

  test('an idle connection is closed after idleMs; closing the pool refuses its waiters', async () => {
    const { made, maker } = fakes();
    const pool = new ConnectionPool({ size: 1, idleMs: 1000, waitMs: 60_000 }, maker, refusal);
    (await pool.acquire()).release(true);
    await waitUntil(() => made[0]?.closed === true, { message: 'the idle connection to close' });
    assert.equal(pool.stats().idle, 0);
    const held = await pool.acquire();
    const waiting = pool.acquire();
    pool.close();
    await assert.rejects(waiting, /closed/);
    held.release(true);
    assert.equal(made[1]?.closed, true);
    await assert.rejects(pool.acquire(), /closed/);
  });

  test('pools by key: new settings or a key no longer wanted close the old pool', async () => {
    const { made, maker } = fakes();
    const pools = new PoolsByKey<Fake>();
    const make = () => new ConnectionPool({ size: 1, idleMs: 60_000, waitMs: 50 }, maker, refusal);
    (await pools.poolFor('a', 'one', make).acquire()).release(true);
    assert.equal(pools.poolFor('a', 'one', make), pools.get('a'));
    (await pools.poolFor('a', 'two', make).acquire()).release(true);
    assert.equal(made[0]?.closed, true);
    pools.retain(new Map([['a', 'two']]));
    const secondClosed = () => made[1]?.closed;
    assert.equal(secondClosed(), false);
    pools.retain(new Map([['a', 'three']]));
    assert.equal(secondClosed(), true);
    assert.equal(pools.get('a'), undefined);
  });
});
