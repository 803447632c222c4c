/**
 * Requests per second of the gateway in front of an application, next to a
 * bare node:http hello-world server measured in the same run, with wrk from
 * Debian on loopback:
 * - the bare server, answering "hello" itself;
 * - GET /_sso/auth with a valid session (what nginx asks on every request);
 * - GET / through the reverse proxy to the same hello server (session
 *   check, identity headers, one upstream hop);
 * - a bare node:http proxy to that server, with no checks: the floor for
 *   any proxy in Node.js on this machine.
 *
 *   npm run bench:proxy      # npm run build:test && node build/bench/proxy-throughput.js
 *
 * Sessions are in SQLite; the session is made directly in storage. Needs wrk
 * (apt-get install wrk). BENCH_SECONDS, BENCH_CONNECTIONS and BENCH_ROUNDS
 * change the run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  benchGateway,
  connections,
  nodeServer,
  seconds,
  median,
  signedInCookie,
  wrk,
} from './throughput.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

/** A hello-world node:http server in a process of its own. */
function helloServer(): ReturnType<typeof nodeServer> {
  return nodeServer(
    (port) =>
      `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'text/plain'); s.end('hello'); }).listen(${port}, '127.0.0.1', () => console.log('up'))`,
  );
}

/** The least a proxy can do: a node:http proxy with a keep-alive agent and no checks at all. */
function bareProxy(upstreamUrl: string): ReturnType<typeof nodeServer> {
  const target = new URL(upstreamUrl);
  return nodeServer(
    (port) =>
      `const http = require('node:http'); const agent = new http.Agent({ keepAlive: true });
     http.createServer((q, s) => {
       const o = http.request({ host: '${target.hostname}', port: ${target.port}, path: q.url, method: q.method, headers: q.headers, agent },
         (r) => { s.writeHead(r.statusCode, r.headers); r.pipe(s); });
       q.pipe(o);
     }).listen(${port}, '127.0.0.1', () => console.log('up'))`,
  );
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-bench-'));
  const bare = await helloServer();
  const upstream = await helloServer();
  const proxy = await bareProxy(upstream.url);
  const env = {
    SSOGATE_DATA_DIR: dir,
    SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
    SSOGATE_UPSTREAM: upstream.url,
  };
  const cookie = await signedInCookie(env, {
    userId: 'bench',
    sourceEntryId: null,
    email: 'bench@example.test',
    userName: 'Bench',
  });
  const gateway = await benchGateway(env);
  // The targets take turns, round after round. On a shared machine other
  // work slows whichever target runs at that moment, so each round's rates
  // are compared with the bare server of the same round, and the median
  // round is reported, rates and ratios alike.
  const targets: [string, string, string | undefined][] = [
    ['bare node:http hello world', `${bare.url}/`, undefined],
    ['GET /_sso/auth, valid session', `${gateway.url}/_sso/auth`, cookie],
    ['GET / proxied to the hello server', `${gateway.url}/`, cookie],
    ['bare node:http proxy, no checks', `${proxy.url}/`, undefined],
  ];
  const measured = targets.map((): { rates: number[]; ratios: number[] } => ({
    rates: [],
    ratios: [],
  }));
  try {
    for (let round = 0; round < rounds; round += 1) {
      let baseline = 1;
      for (const [index, [, url, withCookie]] of targets.entries()) {
        const rate = await wrk(url, withCookie);
        if (index === 0) baseline = rate;
        measured[index]?.rates.push(rate);
        measured[index]?.ratios.push(rate / baseline);
      }
    }
  } finally {
    await gateway.stop();
    bare.child.kill();
    upstream.child.kill();
    proxy.child.kill();
    await rm(dir, { recursive: true, force: true });
  }
  process.stdout.write(
    `\nwrk -t2 -c${connections} -d${seconds}s, median of ${rounds} rounds, ${new Date().toISOString()}, Node.js ${process.version}\n`,
  );
  for (const [index, [label]] of targets.entries()) {
    const { rates = [], ratios = [] } = measured[index] ?? {};
    const perRound = ratios.map((ratio) => ratio.toFixed(2)).join(' ');
    process.stdout.write(
      `${label.padEnd(36)} ${Math.round(median(rates)).toLocaleString('en-US').padStart(9)} req/s  ${median(ratios).toFixed(2)}  (rounds: ${perRound})\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
