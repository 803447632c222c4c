import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './load-config.js';

function problemsOf(env: NodeJS.ProcessEnv, cwd = '/srv/ssogate'): readonly string[] {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  assert.fail('expected a ConfigError');
}

describe('loadConfig', () => {
  test('defaults: one process on SQLite under ./data at http://localhost:8080', () => {
    const config = loadConfig({}, '/srv/ssogate');
    assert.equal(config.port, 8080);
    assert.equal(config.publicUrl, 'http://localhost:8080');
    assert.equal(config.dataDir, '/srv/ssogate/data');
    assert.deepEqual(config.database, { kind: 'sqlite', filename: '/srv/ssogate/data/ssogate.db' });
    assert.equal(config.secureCookies, false);
    assert.equal(config.pendingSignInMs, 10 * 60_000);
    assert.ok(Object.isFrozen(config));
  });

  test('an https public URL makes cookies secure; trailing slashes are dropped', () => {
    const config = loadConfig({ SSOGATE_PUBLIC_URL: 'https://sso.corp.example/' });
    assert.equal(config.publicUrl, 'https://sso.corp.example');
    assert.equal(config.secureCookies, true);
  });

  test('every problem is reported together, naming the variable and how to fix it', () => {
    const problems = problemsOf({
      SSOGATE_PORT: 'eighty',
      SSOGATE_PUBLIC_URL: 'https://sso.corp.example/path',
      SSOGATE_ADMIN_PASSWORD: 'short',
      SSOGATE_DATABASE_URL: 'mysql://x',
      SSOGATE_LOG_LEVEL: 'loud',
    });
    assert.equal(problems.length, 5);
    for (const variable of [
      'SSOGATE_PORT',
      'SSOGATE_PUBLIC_URL',
      'SSOGATE_ADMIN_PASSWORD',
      'SSOGATE_DATABASE_URL',
      'SSOGATE_LOG_LEVEL',
    ]) {
      assert.ok(
        problems.some((problem) => problem.startsWith(`${variable}:`)),
        variable,
      );
    }
    assert.ok(problems.some((problem) => problem.includes('expected a TCP port')));
  });

  test('several PostgreSQL servers are read at start; a malformed list is refused', () => {
    const url = 'postgres://u@db1:5432,db2:5432/ssogate?target_session_attrs=read-write';
    assert.deepEqual(loadConfig({ SSOGATE_DATABASE_URL: url }).database, {
      kind: 'postgres',
      url,
    });
    assert.deepEqual(problemsOf({ SSOGATE_DATABASE_URL: 'postgres://db1,,db2/x' }), [
      'SSOGATE_DATABASE_URL: a PostgreSQL URL lists an empty server between its commas',
    ]);
    assert.deepEqual(
      problemsOf({ SSOGATE_DATABASE_URL: 'postgres://db1,db2/x?target_session_attrs=standby' }),
      [
        'SSOGATE_DATABASE_URL: target_session_attrs=standby is not supported: read-write, primary or any',
      ],
    );
  });

  test('proxy settings are parsed at start, every problem reported with the others', () => {
    const config = loadConfig({
      SSOGATE_UPSTREAM: 'http://127.0.0.1:3000',
      SSOGATE_PUBLIC_URL: 'https://sso.corp.example',
    });
    assert.deepEqual(config.upstreams, [{ prefix: '/', origin: 'http://127.0.0.1:3000' }]);
    assert.deepEqual(config.forwardAuthHosts, ['sso.corp.example']);
    assert.equal(config.upstreamTimeoutMs, 60_000);
    const problems = problemsOf({
      SSOGATE_UPSTREAM: '/app=ftp://x,/=http://127.0.0.1:4000',
      SSOGATE_FORWARD_AUTH_HOSTS: 'app.corp.example,bad host',
      SSOGATE_ACCESS_RULES: '[{"path": "/admin", "users": "alice"}]',
    });
    assert.equal(problems.length, 3);
    assert.match(
      problems[0] ?? '',
      /^SSOGATE_UPSTREAM: upstream of '\/app': must be http or https/,
    );
    assert.match(problems[1] ?? '', /^SSOGATE_FORWARD_AUTH_HOSTS: 'bad host' is not a host name/);
    assert.match(problems[2] ?? '', /^SSOGATE_ACCESS_RULES: rule 1: users: must be a list/);
  });

  test('a setting the schema refuses hides no other problem: one error lists them all', () => {
    const problems = problemsOf({
      SSOGATE_PORT: 'eighty',
      SSOGATE_UPSTREAM: '/app=ftp://x,/=http://127.0.0.1:4000',
      SSOGATE_ACCESS_RULES: '[{"path": "/admin", "users": "alice"}]',
      SSOGATE_TRUSTED_PROXIES: 'not-an-address',
      SSOGATE_SESSION_IDLE_MINUTES: '600',
      SSOGATE_SESSION_LIFETIME_MINUTES: '60',
    });
    assert.deepEqual(
      problems.map((problem) => problem.split(':')[0]),
      [
        'SSOGATE_PORT',
        'SSOGATE_UPSTREAM',
        'SSOGATE_ACCESS_RULES',
        'SSOGATE_TRUSTED_PROXIES',
        'SSOGATE_SESSION_IDLE_MINUTES',
      ],
    );
  });

  test('PostgreSQL and Redis for several instances', () => {
    const config = loadConfig({
      SSOGATE_DATABASE_URL: 'postgres://127.0.0.1:5432/ssogate',
      SSOGATE_REDIS_URL: 'redis://127.0.0.1:6379',
    });
    assert.deepEqual(config.database, {
      kind: 'postgres',
      url: 'postgres://127.0.0.1:5432/ssogate',
    });
    assert.equal(config.redisPrefix, 'ssogate:');
    assert.deepEqual(config.redis, { kind: 'url', url: 'redis://127.0.0.1:6379' });
  });

  test('Redis behind Sentinels: their addresses, the master name and the passwords', () => {
    const config = loadConfig({
      SSOGATE_DATABASE_URL: 'postgres://127.0.0.1:5432/ssogate',
      SSOGATE_REDIS_SENTINELS: ' 10.0.0.5:26379,sentinel-2.corp.internal:26379 ,[fd00::7]:26380',
      SSOGATE_REDIS_MASTER: 'ssogate-main',
      SSOGATE_REDIS_PASSWORD: 'redis-password',
      SSOGATE_REDIS_SENTINEL_PASSWORD: 'sentinel-password',
    });
    assert.deepEqual(config.redis, {
      kind: 'sentinel',
      sentinels: [
        { host: '10.0.0.5', port: 26379 },
        { host: 'sentinel-2.corp.internal', port: 26379 },
        { host: 'fd00::7', port: 26380 },
      ],
      masterName: 'ssogate-main',
      password: 'redis-password',
      sentinelPassword: 'sentinel-password',
    });
    const withoutPasswords = loadConfig({
      SSOGATE_REDIS_SENTINELS: '127.0.0.1:26379',
      SSOGATE_REDIS_MASTER: 'mymaster',
    });
    assert.deepEqual(withoutPasswords.redis, {
      kind: 'sentinel',
      sentinels: [{ host: '127.0.0.1', port: 26379 }],
      masterName: 'mymaster',
      password: undefined,
      sentinelPassword: undefined,
    });
  });

  test('bad Sentinel settings are each reported, and no password is repeated', () => {
    const problems = problemsOf({
      SSOGATE_REDIS_SENTINELS:
        '10.0.0.5:26379,10.0.0.5,host:0,[10.0.0.6]:26379,a b:1,10.0.0.5:26379,',
      SSOGATE_REDIS_URL: 'redis://127.0.0.1:6379',
    });
    assert.deepEqual(
      problems.map((problem) => problem.split(':')[0]),
      Array(5)
        .fill('SSOGATE_REDIS_SENTINELS')
        .concat(['SSOGATE_REDIS_SENTINELS', 'SSOGATE_REDIS_SENTINELS', 'SSOGATE_REDIS_MASTER']),
    );
    assert.match(problems[0] ?? '', /'10\.0\.0\.5' is not host:port/);
    assert.match(problems[4] ?? '', /'10\.0\.0\.5:26379' is listed twice/);
    assert.match(problems[5] ?? '', /'' is not host:port/);
    assert.match(problems[6] ?? '', /set together with SSOGATE_REDIS_URL/);
    assert.match(problems[7] ?? '', /SSOGATE_REDIS_MASTER: missing/);

    const alone = problemsOf({
      SSOGATE_REDIS_MASTER: 'mymaster',
      SSOGATE_REDIS_PASSWORD: 'secret-redis-password',
      SSOGATE_REDIS_SENTINEL_PASSWORD: 'secret-sentinel-password',
    });
    assert.deepEqual(
      alone.map((problem) => problem.split(':')[0]),
      ['SSOGATE_REDIS_MASTER', 'SSOGATE_REDIS_PASSWORD', 'SSOGATE_REDIS_SENTINEL_PASSWORD'],
    );
    for (const problem of alone) assert.match(problem, /set without SSOGATE_REDIS_SENTINELS/);
    assert.ok(!alone.join('\n').includes('secret-'), 'a password in a message');

    const badName = problemsOf({
      SSOGATE_REDIS_SENTINELS: '127.0.0.1:26379',
      SSOGATE_REDIS_MASTER: 'my master',
    });
    assert.deepEqual(
      badName.map((problem) => problem.split(':')[0]),
      ['SSOGATE_REDIS_MASTER', 'SSOGATE_REDIS_MASTER'],
    );
  });

  test('sign-in limits have defaults; trusted proxies are addresses, ranges or range names', () => {
    const defaults = loadConfig({});
    assert.equal(defaults.signInsPerMinute, 60);
    assert.equal(defaults.pendingPerBrowser, 5);
    assert.equal(defaults.pendingSignInsMax, 100_000);
    assert.deepEqual(defaults.trustedProxies, []);
    const behindProxies = loadConfig({
      SSOGATE_TRUSTED_PROXIES: ' 10.0.0.0/8, 192.0.2.1,fd00::/8 , loopback',
    });
    assert.deepEqual(behindProxies.trustedProxies, [
      '10.0.0.0/8',
      '192.0.2.1',
      'fd00::/8',
      'loopback',
    ]);
    const problems = problemsOf({
      SSOGATE_TRUSTED_PROXIES: '10.0.0.0/33,proxy.corp.example,::1/129,1.2.3.4/8/8',
      SSOGATE_PENDING_PER_BROWSER: '0',
    });
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.match(problems[0] ?? '', /^SSOGATE_PENDING_PER_BROWSER: /);
    for (const problem of problems.slice(1)) assert.match(problem, /^SSOGATE_TRUSTED_PROXIES: /);
  });

  test('SSOGATE_WORKERS: 1 by default, a number, or auto for the cores available', () => {
    assert.equal(loadConfig({}).workers, 1);
    assert.equal(loadConfig({ SSOGATE_WORKERS: '4' }).workers, 4);
    assert.equal(loadConfig({ SSOGATE_WORKERS: 'auto' }).workers, availableParallelism());
    for (const bad of ['0', '257', '1.5', 'all']) {
      assert.match(
        problemsOf({ SSOGATE_WORKERS: bad })[0] ?? '',
        /^SSOGATE_WORKERS: .*expected worker processes sharing the listener, 1-256, or auto/,
      );
    }
  });

  test('several workers need a database they can share, and the metrics their own listener', () => {
    const problems = problemsOf({
      SSOGATE_WORKERS: '2',
      SSOGATE_DATABASE_URL: 'sqlite::memory:',
      SSOGATE_METRICS_TOKEN: 'a-metrics-token-of-some-length',
    });
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(
      problems[0] ?? '',
      /^SSOGATE_WORKERS: several workers cannot share a database in memory/,
    );
    assert.match(
      problems[1] ?? '',
      /^SSOGATE_WORKERS: with several workers the metrics need SSOGATE_METRICS_ADDRESS/,
    );
    // One worker keeps both, as before; the metrics' own listener is the primary's.
    loadConfig({
      SSOGATE_DATABASE_URL: 'sqlite::memory:',
      SSOGATE_METRICS_TOKEN: 'a-metrics-token-of-some-length',
    });
    loadConfig({
      SSOGATE_WORKERS: '2',
      SSOGATE_METRICS_TOKEN: 'a-metrics-token-of-some-length',
      SSOGATE_METRICS_ADDRESS: '127.0.0.1:9464',
    });
  });

  test("SSOGATE_ADMIN_SECOND_FACTOR: off by default; required, with a factor's maximum age or none", () => {
    assert.equal(loadConfig({}).adminSecondFactor, undefined);
    assert.equal(loadConfig({ SSOGATE_ADMIN_SECOND_FACTOR: 'off' }).adminSecondFactor, undefined);
    assert.deepEqual(loadConfig({ SSOGATE_ADMIN_SECOND_FACTOR: 'required' }).adminSecondFactor, {
      withinMs: undefined,
    });
    const recent = loadConfig({
      SSOGATE_ADMIN_SECOND_FACTOR: 'required',
      SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES: '30',
    });
    assert.deepEqual(recent.adminSecondFactor, { withinMs: 30 * 60_000 });
    const problems = problemsOf({
      SSOGATE_ADMIN_SECOND_FACTOR: 'Required',
      SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES: '43201',
    });
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0] ?? '', /^SSOGATE_ADMIN_SECOND_FACTOR: .*; expected off, or required /);
    assert.match(problems[1] ?? '', /^SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES: .*1-43200/);
    assert.deepEqual(problemsOf({ SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES: '15' }), [
      'SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES: 15 needs SSOGATE_ADMIN_SECOND_FACTOR=required; without it no second factor is asked of administrators',
    ]);
  });

  test('the idle time-out may not exceed the lifetime', () => {
    const problems = problemsOf({
      SSOGATE_SESSION_IDLE_MINUTES: '100',
      SSOGATE_SESSION_LIFETIME_MINUTES: '60',
    });
    assert.match(problems[0] ?? '', /SSOGATE_SESSION_IDLE_MINUTES/);
  });

  test('connection time-outs have defaults; the idle one may not be shorter than the upstream one', () => {
    const config = loadConfig({});
    assert.equal(config.headersTimeoutMs, 30_000);
    assert.equal(config.bodyTimeoutMs, 30_000);
    assert.equal(config.idleTimeoutMs, 120_000);
    assert.equal(config.websocketIdleTimeoutMs, 600_000);
    const problems = problemsOf({
      SSOGATE_UPSTREAM_TIMEOUT_SECONDS: '300',
      SSOGATE_IDLE_TIMEOUT_SECONDS: '120',
    });
    assert.match(problems[0] ?? '', /SSOGATE_IDLE_TIMEOUT_SECONDS/);
  });

  test('a configuration file mirrors the environment, which wins', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssogate-config-'));
    const file = join(dir, 'ssogate.yaml');
    await writeFile(file, 'port: 9000\npublicUrl: https://sso.corp.example\nlogLevel: warn\n');
    const config = loadConfig({ SSOGATE_CONFIG_FILE: file, SSOGATE_LOG_LEVEL: 'error' }, dir);
    assert.equal(config.port, 9000);
    assert.equal(config.publicUrl, 'https://sso.corp.example');
    assert.equal(config.logLevel, 'error');
    await writeFile(file, 'prot: 9000\n');
    assert.match(
      problemsOf({ SSOGATE_CONFIG_FILE: file }, dir)[0] ?? '',
      /'prot' is not a setting/,
    );
    assert.match(
      problemsOf({ SSOGATE_CONFIG_FILE: join(dir, 'missing.yaml') }, dir)[0] ?? '',
      /cannot read/,
    );
  });

  test('outbound settings: the allowlist and the connection cap', () => {
    const config = loadConfig({});
    assert.equal(config.outboundMaxConnections, 16);
    assert.equal(config.outboundAllow.names.size, 0);
    assert.match(
      problemsOf({ SSOGATE_OUTBOUND_MAX_CONNECTIONS: '0' })[0] ?? '',
      /^SSOGATE_OUTBOUND_MAX_CONNECTIONS: /,
    );
    assert.deepEqual(problemsOf({ SSOGATE_OUTBOUND_ALLOW: '127.0.0.1,10.0.0.0/40,http://idp/' }), [
      "SSOGATE_OUTBOUND_ALLOW: '10.0.0.0/40': the prefix length must be 0-32",
      "SSOGATE_OUTBOUND_ALLOW: 'http://idp/' is neither a host name, an IP address nor a CIDR network",
    ]);
  });

  test('SSOGATE_COOKIE_DOMAIN: the domain of every listed host, without its dots', () => {
    const config = loadConfig({
      SSOGATE_PUBLIC_URL: 'https://sso.corp.example',
      SSOGATE_COOKIE_DOMAIN: '.Corp.Example.',
      SSOGATE_UPSTREAM: 'wiki.corp.example=http://127.0.0.1:3000',
      SSOGATE_FORWARD_AUTH_HOSTS: '*.apps.corp.example,grafana.corp.example:8443',
    });
    assert.equal(config.hosts.cookieDomain, 'corp.example');
    assert.ok(config.hosts.several);
    // The public URL's own host may be the domain.
    const apex = {
      SSOGATE_PUBLIC_URL: 'https://corp.example',
      SSOGATE_COOKIE_DOMAIN: 'corp.example',
    };
    assert.equal(loadConfig(apex).hosts.cookieDomain, 'corp.example');
    assert.equal(loadConfig({}).hosts.cookieDomain, undefined);
  });

  test('SSOGATE_COOKIE_DOMAIN is refused at start, with the other problems, for each wrong domain', () => {
    const refusal = (domain: string, more: NodeJS.ProcessEnv = {}) =>
      problemsOf({
        SSOGATE_PUBLIC_URL: 'https://sso.corp.example',
        SSOGATE_COOKIE_DOMAIN: domain,
        ...more,
      });
    const cases: [string, NodeJS.ProcessEnv, RegExp][] = [
      [
        '.example.org',
        {},
        /example\.org is neither the public URL's host \(sso\.corp\.example\) nor a parent of it/,
      ],
      ['.wiki.corp.example', {}, /wiki\.corp\.example is neither the public URL's host/],
      ['ple.corp.example', {}, /is neither the public URL's host/],
      ['.com', { SSOGATE_PUBLIC_URL: 'https://sso.example.com' }, /'\.com' is a single label/],
      [
        'herokuapp.com',
        { SSOGATE_PUBLIC_URL: 'https://corp.herokuapp.com' },
        /'herokuapp\.com' is a public suffix/,
      ],
      ['co.uk', { SSOGATE_PUBLIC_URL: 'https://sso.corp.co.uk' }, /'co\.uk' is a public suffix/],
      [
        'github.io',
        { SSOGATE_PUBLIC_URL: 'https://corp.github.io' },
        /'github\.io' is a public suffix/,
      ],
      [
        '127.0.0.1',
        { SSOGATE_PUBLIC_URL: 'http://127.0.0.1:8080' },
        /'127\.0\.0\.1' is an IP address/,
      ],
      ['[::1]', { SSOGATE_PUBLIC_URL: 'http://[::1]:8080' }, /'\[::1\]' is an IP address/],
      ['.example', {}, /'\.example' is a single label/],
      [
        'localhost',
        { SSOGATE_PUBLIC_URL: 'http://localhost:8080' },
        /'localhost' is a single label/,
      ],
      ['corp.example:443', {}, /is not a domain name/],
      ['*.corp.example', {}, /is not a domain name/],
      [
        '.corp.example',
        { SSOGATE_UPSTREAM: 'wiki.other.example=http://127.0.0.1:3000' },
        /the listed host wiki\.other\.example is outside corp\.example/,
      ],
      [
        '.corp.example',
        { SSOGATE_FORWARD_AUTH_HOSTS: 'grafana.corp.example,*.example' },
        /the listed host \*\.example is outside corp\.example/,
      ],
    ];
    for (const [domain, more, expected] of cases) {
      const problems = refusal(domain, more);
      assert.equal(problems.length, 1, `${domain}: ${problems.join('; ')}`);
      assert.match(problems[0] ?? '', /^SSOGATE_COOKIE_DOMAIN: /);
      assert.match(problems[0] ?? '', expected);
    }
    // Listed with every other problem of the start.
    const together = problemsOf({
      SSOGATE_PORT: 'eighty',
      SSOGATE_PUBLIC_URL: 'https://sso.corp.example',
      SSOGATE_COOKIE_DOMAIN: 'com',
    });
    assert.equal(together.length, 2);
  });

  test('SSOGATE_CA_FILE is read once at start; an unreadable or damaged file is refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ssogate-config-'));
    assert.equal(loadConfig({}, dir).caCertificates, undefined);
    assert.deepEqual(problemsOf({ SSOGATE_CA_FILE: 'absent.pem' }, dir), [
      `SSOGATE_CA_FILE: cannot read ${join(dir, 'absent.pem')} (ENOENT)`,
    ]);
    await writeFile(
      join(dir, 'key.pem'),
      '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n',
    );
    assert.match(
      problemsOf({ SSOGATE_CA_FILE: 'key.pem' }, dir)[0] ?? '',
      /^SSOGATE_CA_FILE: .*key\.pem holds no PEM certificate/,
    );
    await writeFile(
      join(dir, 'bad.pem'),
      '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n',
    );
    assert.match(
      problemsOf({ SSOGATE_CA_FILE: 'bad.pem' }, dir)[0] ?? '',
      /^SSOGATE_CA_FILE: certificate 1 of .*bad\.pem is not a valid X\.509 certificate/,
    );
  });
});
