import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 now, for a server whose own URL must be known
 * before it listens.
 *
 * The port is drawn below the kernel's ephemeral range
 * (/proc/sys/net/ipv4/ip_local_port_range), from which `listen(0)` and every
 * outgoing connection (to PostgreSQL, Redis, a test server) take theirs: a
 * port from that range, free when probed, is often taken by one of them in
 * the moment before the server listens on it, and the test then fails with
 * EADDRINUSE. Below the range only another test's `freePort` can take it.
 */
export async function freePort(): Promise<number> {
  const [low, high] = portsBelowEphemeral();
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port found between ${low} and ${high}`);
}

function portsBelowEphemeral(): readonly [number, number] {
  let ephemeralLow = 32768;
  try {
    const [first] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/);
    const parsed = Number(first);
    if (Number.isInteger(parsed) && parsed > 12000) ephemeralLow = parsed;
  } catch {
    // Not Linux: the usual default of the range.
  }
  return [10000, ephemeralLow];
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => {
      resolve(false);
    });
    server.listen(port, '127.0.0.1', () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
}
