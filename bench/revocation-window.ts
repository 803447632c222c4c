/**
 * The window between a sign-out's answer on one instance and its refusal on
 * another, with sessions in Redis: two instances' stores on one key prefix,
 * one ends a session, and the other's revocation listener notes when it
 * forgot it. A session ending resolves only after every instance has
 * acknowledged it, so the window should be zero; the script counts
 * deliveries that came after the ending resolved, and for comparison the
 * same delivery after a bare PUBLISH (what a sign-out answered at once
 * would race against).
 *
 *   npm run build:test && node build/bench/revocation-window.js
 *
 * Needs Redis on loopback (BENCH_REDIS_URL).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openRedisStores } from '../src/foundation/storage/redis/open-redis-stores.js';
import { connectRedis } from '../src/foundation/storage/redis/redis-connection.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 2000);
const url = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

async function main(): Promise<void> {
  const prefix = `bench${randomBytes(4).toString('hex')}:`;
  const one = await openRedisStores({ target: { kind: 'url', url }, prefix });
  const two = await openRedisStores({ target: { kind: 'url', url }, prefix });
  const heardAt = new Map<string, number>();
  two.revocations.listen((revocation) => {
    if (revocation.scope === 'session') heardAt.set(revocation.idHash, performance.now());
  });
  const endings: number[] = [];
  const windows: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const idHash = `w${round}`;
    const now = Date.now();
    await one.sessions.create({
      idHash,
      userRowId: 1,
      entryId: null,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + 60_000,
    });
    const start = performance.now();
    await one.sessions.delete(idHash);
    const answered = performance.now();
    endings.push(answered - start);
    // Not heard yet when the ending resolved: the window is open until it is.
    const heard = heardAt.get(idHash);
    windows.push(heard === undefined ? Number.POSITIVE_INFINITY : Math.max(0, heard - answered));
  }

  // The same delivery after a bare PUBLISH, as a sign-out that did not wait would see it.
  const publisher = await connectRedis({ kind: 'url', url }, 'bench-publisher');
  const bare: number[] = [];
  const channel = `${prefix}revocations`;
  for (let round = 0; round < rounds; round += 1) {
    const idHash = `b${round}`;
    await publisher.publish(channel, `bench ${round} session ${idHash}`);
    const answered = performance.now();
    while (!heardAt.has(idHash)) await new Promise((resolve) => setImmediate(resolve));
    bare.push(Math.max(0, (heardAt.get(idHash) ?? answered) - answered));
  }
  publisher.disconnect();
  await Promise.all([one.close(), two.close()]);

  const late = windows.filter((window) => window > 0).length;
  process.stdout.write(
    [
      `${rounds} sign-outs, Redis at ${url}, ${new Date().toISOString()}`,
      `session ending (delete + publish + acknowledgements): p50 ${ms(percentile(endings, 50))}, p99 ${ms(percentile(endings, 99))}`,
      `window after the ending resolved: p99 ${ms(percentile(windows, 99))}, max ${ms(Math.max(...windows))}, ${late} of ${rounds} heard late`,
      `window after a bare PUBLISH resolved: p50 ${ms(percentile(bare, 50))}, p99 ${ms(percentile(bare, 99))}, max ${ms(Math.max(...bare))}`,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
