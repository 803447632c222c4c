/**
 * CPU time of the gateway per sign-in of three kinds of source, in turns in
 * one run, so all three meet the same machine: OAuth2 (the repository's
 * example OAuth2 server, src/example-server/, standard style with PKCE), an
 * LDAP directory (slapd, the password form, a pooled service-account
 * connection: src/features/ldap-directory/) and a SAML 2.0 identity provider
 * (SimpleSAMLphp under `php -S`, its login form filled by an HTTP client,
 * the signed Response posted back). The fixtures are the tests' own, from
 * the build output.
 *
 *   npm run bench:sources
 *
 * The gateway runs as a child process (SQLite in a temporary folder) and
 * only its CPU is counted: the utime + stime of /proc/PID/stat over a
 * kind's turn, divided by the sign-ins it completed. The servers and the
 * HTTP client run in this process or their own, outside the count. Each
 * sign-in is a new browser: the start, every redirect, the form or the
 * identity provider's pages, the callback, the session and the page it
 * returns to. Sign-ins of a turn run CONCURRENCY (4) at a time.
 * Knobs: ROUNDS (4, the first left out as warm-up), PER_TURN (40), KINDS
 * (`oauth2,ldap,saml`: fewer for a profile), GATEWAY_NODE_OPTIONS (given
 * to the gateway's node, as `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../src/app/open-storage.js';
import { compileEntry } from '../src/core/index.js';
import { exampleEntries, startExampleServer } from '../src/example-server/index.js';
import { loadConfig } from '../src/foundation/config/load-config.js';
import { ldapEntry } from '../src/features/ldap-directory/test-support/password-form.js';
import { directoryUsers, startSlapd } from '../src/features/ldap-directory/test-support/slapd.js';
import { formOf, startSimpleSamlPhp } from '../src/features/saml/test-support/simplesamlphp.js';
import { TestBrowser } from '../src/test-support/browser.js';
import { signInAtExample } from '../src/test-support/gateway-fixture.js';
import { freePort } from '../src/test-support/free-port.js';
import { benchGateway, cpuMs, signInBenchSettings } from './throughput.js';

const rounds = Number(process.env.ROUNDS ?? 4);
const perTurn = Number(process.env.PER_TURN ?? 40);
const concurrency = Number(process.env.CONCURRENCY ?? 4);
type Kind = 'oauth2' | 'ldap' | 'saml';

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-bench-sources-'));
  const port = await freePort();
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const samlId = 'bench-saml';
  const example = await startExampleServer({ host: '127.0.0.1' });
  const slapd = await startSlapd();
  const idp = await startSimpleSamlPhp(
    [{ username: 'carol', name: 'Carol Example', email: 'carol@example.test', groups: ['staff'] }],
    [
      {
        entityId: `${gatewayUrl}/_sso/saml/${samlId}/metadata`,
        acsUrl: `${gatewayUrl}/_sso/callback/${samlId}`,
      },
    ],
  );
  const env = signInBenchSettings(dir, gatewayUrl);
  const oauth2 = exampleEntries(example.url).standard;
  const entries = [
    oauth2,
    ldapEntry('bench-ldap', slapd.url, { timeoutMs: 5000 }),
    {
      type: 'saml',
      id: samlId,
      name: 'Bench SAML',
      enabled: true,
      saml: {
        ssoUrl: idp.ssoUrl,
        idpEntityId: idp.entityId,
        idpCertificate: idp.certificate,
        attributes: { name: 'displayName', email: 'mail', groups: 'groups' },
      },
    },
  ];
  const storage = await openStorage(loadConfig({ ...env, SSOGATE_PORT: String(port) }));
  try {
    for (const [index, input] of entries.entries()) {
      await storage.entries.create(compileEntry(input).input, index);
    }
  } finally {
    await storage.close();
  }
  const gateway = await benchGateway(
    {
      ...env,
      ...(process.env.GATEWAY_NODE_OPTIONS === undefined
        ? {}
        : { NODE_OPTIONS: process.env.GATEWAY_NODE_OPTIONS }),
    },
    port,
  );
  const ldapUser = directoryUsers[1] ?? directoryUsers[0];
  if (ldapUser === undefined) throw new Error('no directory user');

  const flows: Record<Kind, () => Promise<void>> = {
    async oauth2() {
      const browser = new TestBrowser();
      // Signed in at the OAuth2 server first, so its authorization is silent (not the gateway's CPU).
      await signInAtExample(browser, example.url, 'alice');
      const page = await browser.open(
        `${gatewayUrl}/_sso/login/example-standard?return_to=/_sso/me`,
      );
      if (page.status !== 200) throw new Error(`oauth2 sign-in: ${page.status} ${page.body}`);
    },
    async ldap() {
      const browser = new TestBrowser();
      const form = await browser.open(`${gatewayUrl}/_sso/login/bench-ldap?return_to=/_sso/me`);
      const { action, fields } = formOf(form.body);
      const page = await browser.submit(new URL(action, form.url).href, {
        ...fields,
        username: ldapUser.uid,
        password: ldapUser.password,
      });
      if (page.status !== 200) throw new Error(`ldap sign-in: ${page.status} ${page.body}`);
    },
    async saml() {
      const browser = new TestBrowser();
      const login = await browser.open(`${gatewayUrl}/_sso/login/${samlId}?return_to=/_sso/me`);
      const form = formOf(login.body);
      const posted = await browser.submit(new URL(form.action, login.url).href, {
        ...form.fields,
        username: 'carol',
        password: 'carol-password',
      });
      const answer = formOf(posted.body);
      const page = await browser.submit(answer.action, answer.fields);
      if (page.status !== 200) throw new Error(`saml sign-in: ${page.status} ${page.body}`);
    },
  };

  const turn = async (kind: Kind): Promise<number> => {
    const pid = gateway.pid ?? 0;
    let left = perTurn;
    const before = cpuMs(pid);
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left > 0) {
          left -= 1;
          await flows[kind]();
        }
      }),
    );
    return (cpuMs(pid) - before) / perTurn;
  };

  const kinds = (process.env.KINDS ?? 'oauth2,ldap,saml')
    .split(',')
    .filter((kind): kind is Kind => kind === 'oauth2' || kind === 'ldap' || kind === 'saml');
  const results = new Map<Kind, number[]>(kinds.map((kind) => [kind, []]));
  try {
    for (let round = 1; round <= rounds; round += 1) {
      const line: string[] = [];
      for (const kind of kinds) {
        const ms = await turn(kind);
        line.push(`${kind} ${ms.toFixed(2)} ms`);
        if (round > 1) results.get(kind)?.push(ms);
      }
      process.stdout.write(`round ${round}: ${line.join(', ')} CPU a sign-in\n`);
    }
    const median = (values: readonly number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    const base = median(results.get('oauth2') ?? [Number.NaN]);
    process.stdout.write(
      `\nmedian of rounds 2-${rounds}, ${perTurn} sign-ins a turn, the gateway process's CPU:\n`,
    );
    process.stdout.write('| sign-in | CPU ms a sign-in | against OAuth2 |\n|---|---|---|\n');
    for (const kind of kinds) {
      const ms = median(results.get(kind) ?? []);
      process.stdout.write(`| ${kind} | ${ms.toFixed(2)} | ×${(ms / base).toFixed(2)} |\n`);
    }
  } finally {
    await gateway.stop();
    await idp.stop();
    await slapd.stop();
    await example.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
