/**
 * Sign-ins at a fixed pace, as people arrive: one whole flow started every
 * 1/rate seconds whether or not the last has ended (an open loop, so a slow
 * server meets the same arrivals, not fewer). Each flow is a new browser:
 * the start URL, every redirect by hand with its cookies, and a 200 at the
 * end. Prints one JSON line: flows started, ended well, failed, and the
 * rate achieved.
 *
 *   node build/bench/paced-sign-ins.js START_URL RATE SECONDS
 *
 * `bench/cpu-alternated.sh mixed` runs it beside wrk on /_sso/auth, for the
 * check rate beside sign-ins at the pace we aim to serve, 75 a second
 * (docs/benchmarks.md).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';

const [startUrl, rateText, secondsText] = process.argv.slice(2);
if (startUrl === undefined || rateText === undefined || secondsText === undefined) {
  process.stderr.write('usage: paced-sign-ins START_URL RATE SECONDS\n');
  process.exit(2);
}
const rate = Number(rateText);
const seconds = Number(secondsText);

/** One browser's cookies, by origin (the flow's hosts differ only by port). */
type Jar = Map<string, Map<string, string>>;

function remember(jar: Jar, origin: string, setCookie: string | string[] | undefined): void {
  const lines = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  const cookies = jar.get(origin) ?? new Map<string, string>();
  for (const line of lines) {
    const pair = line.split(';')[0] ?? '';
    const at = pair.indexOf('=');
    if (at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
  jar.set(origin, cookies);
}

async function oneFlow(): Promise<boolean> {
  const jar: Jar = new Map();
  let url = new URL(startUrl ?? '');
  for (let hop = 0; hop < 10; hop += 1) {
    const cookies = [...(jar.get(url.origin) ?? new Map<string, string>())]
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
    const answer = await request(url, {
      headers: { accept: 'text/html', ...(cookies === '' ? {} : { cookie: cookies }) },
      signal: AbortSignal.timeout(10_000),
    });
    await answer.body.text();
    remember(jar, url.origin, answer.headers['set-cookie']);
    const location = answer.headers.location;
    if (answer.statusCode >= 300 && answer.statusCode < 400 && typeof location === 'string') {
      url = new URL(location, url);
      continue;
    }
    return answer.statusCode === 200;
  }
  return false;
}

let started = 0;
let succeeded = 0;
let failed = 0;
const flows: Promise<void>[] = [];
const began = performance.now();
const end = began + seconds * 1000;
for (let next = began; next < end; next += 1000 / rate) {
  const wait = next - performance.now();
  if (wait > 0) await delay(wait);
  started += 1;
  flows.push(
    oneFlow().then(
      (ok) => {
        if (ok) succeeded += 1;
        else failed += 1;
      },
      () => {
        failed += 1;
      },
    ),
  );
}
await Promise.all(flows);
const elapsed = (performance.now() - began) / 1000;
process.stdout.write(
  `${JSON.stringify({ started, succeeded, failed, perSecond: Number((succeeded / elapsed).toFixed(1)) })}\n`,
);
