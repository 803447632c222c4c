/**
 * What metrics and tracing cost: the same gateway started four times, as
 * its own process, with telemetry off (twice: the second shows how far two
 * identical processes drift apart), with metrics on (SSOGATE_METRICS_TOKEN)
 * and with metrics and tracing on (OTEL_EXPORTER_OTLP_ENDPOINT, to a
 * receiver in this process that accepts and drops the spans).
 *
 * The four are loaded at the same time, each by its own wrk (or its own
 * browsers), round after round: on a shared, busy machine other work comes
 * and goes within seconds and moves a lone run's rate by tens of per cent,
 * but it slows setups measured together alike. Each round gives, per setup,
 * the rate and the gateway process's CPU time per request (all its threads,
 * from /proc/PID/task/TID/schedstat), each divided by the "off" setup's
 * figure of the same round; the medians are reported.
 *
 * - GET /_sso/auth with a valid session (the fast path), with wrk;
 * - GET / proxied to a hello-world server, with wrk;
 * - whole sign-ins against the example OAuth2 server in this process
 *   (start, authorization, callback with its token and user-info calls),
 *   four browsers at a time.
 *
 *   npm run build:test && node build/bench/metrics-cost.js
 *
 * Needs wrk (apt-get install wrk). BENCH_SECONDS, BENCH_CONNECTIONS and
 * BENCH_ROUNDS change the run.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleEntries, startExampleServer } from '../src/example-server/index.js';
import { GatewayMetrics } from '../src/foundation/observability/gateway-metrics.js';
import { Telemetry } from '../src/foundation/observability/telemetry.js';
import type { GatewayProcess } from '../src/multi-instance/test-support/gateway-process.js';
import { freePort } from '../src/test-support/free-port.js';
import { TestBrowser } from '../src/test-support/browser.js';
import {
  benchGateway,
  connections,
  nodeServer,
  seconds,
  median,
  signedInCookie,
  wrkRun,
} from './throughput.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const browsers = Number(process.env.BENCH_BROWSERS ?? 4);

interface Setup {
  readonly label: string;
  readonly gateway: GatewayProcess;
  readonly cookie: string;
}

/** CPU time of every thread of a process so far, in nanoseconds (Linux). */
async function cpuNanos(pid: number | undefined): Promise<number> {
  if (pid === undefined) throw new Error('no process id');
  let total = 0;
  for (const task of await readdir(`/proc/${pid}/task`)) {
    const text = await readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8').catch(() => '0');
    total += Number(text.split(' ')[0]);
  }
  return total;
}

/** One measure of a setup: its rate and how many were done. */
interface Run {
  readonly rate: number;
  readonly count: number;
}

/** Sign-ins per second: `browsers` browsers signing in again and again for `seconds`. */
async function signInRate(gatewayUrl: string, exampleUrl: string): Promise<Run> {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: browsers }, async () => {
      const browser = new TestBrowser();
      const login = await browser.submit(`${exampleUrl}/login`, {
        username: 'alice',
        password: 'alice-password',
        continue: '/',
      });
      if (login.status !== 200) throw new Error(`example sign-in: ${login.status}`);
      while (Date.now() < until) {
        // Up to the callback's redirect: where it sends the browser is not measured.
        const page = await browser.open(`${gatewayUrl}/_sso/login/example-get?return_to=/done`, {
          maxHops: 2,
        });
        if (page.status !== 302 || !page.url.includes('/_sso/callback/')) {
          throw new Error(`sign-in: ${page.status} ${JSON.stringify(page.hops)}`);
        }
        done += 1;
      }
    }),
  );
  return { rate: done / seconds, count: done };
}

/** A wrk run as a Run. */
async function wrkMeasure(url: string, cookie: string): Promise<Run> {
  const { rate, requests } = await wrkRun(url, cookie);
  return { rate, count: requests };
}

/**
 * The instrumentation calls alone, in this process: nanoseconds per call
 * with metrics on and off, the least of several tries (the least is the
 * one other work disturbed least).
 */
function instrumentationCost(): void {
  const origin = 'http://127.0.0.1:3000';
  const on = new Telemetry(new GatewayMetrics({ version: 'bench', upstreams: [origin] }));
  const off = new Telemetry(undefined);
  const headers = {};
  const calls: [string, (t: Telemetry) => void][] = [
    [
      'forward-auth fast path (now + forwardAuthFast)',
      (t) => {
        t.forwardAuthFast(headers, t.now(), 204, true);
      },
    ],
    [
      'proxied request (proxyStarted + proxyFinished)',
      (t) => {
        t.proxyFinished(t.proxyStarted(origin, [], headers), 200);
      },
    ],
    [
      'session cache lookup',
      (t) => {
        t.sessionCacheLookup(true);
      },
    ],
    [
      'sign-in start and end (counts)',
      (t) => {
        t.signInStarted('example-get', 'key', t.now());
        t.signInFinished('example-get', 'success');
      },
    ],
  ];
  const n = 1_000_000;
  process.stdout.write('instrumentation calls, ns per call (least of 5 tries of 1,000,000)\n');
  for (const [label, call] of calls) {
    const best = { off: Infinity, on: Infinity };
    for (let attempt = 0; attempt < 5; attempt += 1) {
      for (const [name, telemetry] of [
        ['off', off],
        ['on', on],
      ] as const) {
        const start = process.hrtime.bigint();
        for (let index = 0; index < n; index += 1) call(telemetry);
        best[name] = Math.min(best[name], Number(process.hrtime.bigint() - start) / n);
      }
    }
    process.stdout.write(
      `${label.padEnd(50)} off ${best.off.toFixed(1).padStart(6)}  on ${best.on.toFixed(1).padStart(6)}\n`,
    );
  }
}

async function main(): Promise<void> {
  instrumentationCost();
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-bench-'));
  const example = await startExampleServer({ host: '127.0.0.1' });
  const upstream = await nodeServer(
    (port) =>
      `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'text/plain'); s.end('hello'); }).listen(${port}, '127.0.0.1', () => console.log('up'))`,
  );
  // An OTLP receiver that takes the spans and keeps nothing.
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
    );
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const entriesFile = join(dir, 'entries.json');
  await writeFile(
    entriesFile,
    JSON.stringify({ entries: [{ ...exampleEntries(example.url).getStyle, isDefault: true }] }),
  );
  const setups: Setup[] = [];
  const variants: [string, Record<string, string>][] = [
    ['off', {}],
    // The same as the first, in a process of its own: how far two identical
    // setups drift apart in a run, the floor under any difference below.
    ['off, a second process', {}],
    ['metrics on', { SSOGATE_METRICS_TOKEN: randomBytes(16).toString('hex') }],
    [
      'metrics and tracing on',
      {
        SSOGATE_METRICS_TOKEN: randomBytes(16).toString('hex'),
        OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
      },
    ],
  ];
  const clearRequests = setInterval(() => {
    example.requests.length = 0;
  }, 1000);
  try {
    for (const [index, [label, extra]] of variants.entries()) {
      // Callbacks come back to the public URL, where the browser keeps its binding cookie.
      const port = await freePort();
      const env = {
        SSOGATE_PUBLIC_URL: `http://127.0.0.1:${port}`,
        SSOGATE_DATA_DIR: join(dir, String(index)),
        SSOGATE_SECRET_KEY: randomBytes(32).toString('base64'),
        SSOGATE_UPSTREAM: upstream.url,
        SSOGATE_ENTRIES_FILE: entriesFile,
        SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
        SSOGATE_SIGN_INS_PER_MINUTE: '100000',
        SSOGATE_PENDING_SIGN_INS_MAX: '10000000',
        ...extra,
      };
      const gateway = await benchGateway(env, port);
      const cookie = await signedInCookie(env, {
        userId: 'bench',
        sourceEntryId: null,
        email: 'bench@example.test',
        userName: 'Bench',
      });
      setups.push({ label, gateway, cookie });
    }
    const measures: [string, (setup: Setup) => Promise<Run>][] = [
      ['GET /_sso/auth, valid session', (s) => wrkMeasure(`${s.gateway.url}/_sso/auth`, s.cookie)],
      ['GET / proxied', (s) => wrkMeasure(`${s.gateway.url}/`, s.cookie)],
      [`sign-ins (${browsers} browsers)`, (s) => signInRate(s.gateway.url, example.url)],
    ];
    const results = measures.map(() =>
      setups.map(() => ({
        rates: [] as number[],
        rateRatios: [] as number[],
        cpu: [] as number[],
        ratios: [] as number[],
      })),
    );
    for (let round = 0; round < rounds; round += 1) {
      for (const [m, [, measure]] of measures.entries()) {
        // All setups at once: whatever else the machine does slows them alike.
        const measured = await Promise.all(
          setups.map(async (setup) => {
            const before = await cpuNanos(setup.gateway.pid);
            const run = await measure(setup);
            const used = (await cpuNanos(setup.gateway.pid)) - before;
            return { rate: run.rate, micros: used / Math.max(run.count, 1) / 1000 };
          }),
        );
        const off = measured[0] ?? { rate: 1, micros: 1 };
        for (const [s, { rate, micros }] of measured.entries()) {
          const result = results[m]?.[s];
          result?.rates.push(rate);
          result?.rateRatios.push(rate / off.rate);
          result?.cpu.push(micros);
          result?.ratios.push(micros / off.micros);
        }
      }
      process.stdout.write(`  round ${round + 1} of ${rounds} measured\n`);
    }
    process.stdout.write(
      `\nwrk -t2 -c${connections} -d${seconds}s, ${browsers} browsers, median of ${rounds} rounds, ${new Date().toISOString()}, Node.js ${process.version}\n` +
        'gateway CPU µs per request (or sign-in) and its ratio to "off" in the same round; rate and its ratio\n',
    );
    for (const [m, [measureLabel]] of measures.entries()) {
      for (const [s, { label }] of setups.entries()) {
        const { rates = [], rateRatios = [], cpu = [], ratios = [] } = results[m]?.[s] ?? {};
        process.stdout.write(
          `${measureLabel.padEnd(30)} ${label.padEnd(23)} ${median(cpu).toFixed(1).padStart(8)} µs  ${median(ratios).toFixed(3)}  ${Math.round(median(rates)).toLocaleString('en-US').padStart(7)}/s  ${median(rateRatios).toFixed(3)}\n` +
            `${''.padEnd(55)}(CPU ratios: ${ratios.map((r) => r.toFixed(3)).join(' ')}; rate ratios: ${rateRatios.map((r) => r.toFixed(3)).join(' ')})\n`,
        );
      }
    }
  } finally {
    clearInterval(clearRequests);
    for (const { gateway } of setups) await gateway.stop();
    upstream.child.kill();
    receiver.close();
    await example.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
