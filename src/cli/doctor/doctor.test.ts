import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '../../app/open-storage.js';
import { loadConfig } from '../../foundation/config/load-config.js';
import { compileEntry } from '../../core/index.js';
import { exampleEntries } from '../../example-server/presets.js';
import { testBackendName, withTestBackend } from '../../test-support/test-backend.js';
import { runCommand } from '../test-support/run-command.js';
import type { Finding } from './findings.js';
import type { ProviderOptions } from './test-support/tls-provider.js';
import { makeCertificates, startTlsProvider } from './test-support/tls-provider.js';

interface Report {
  readonly ok: boolean;
  readonly findings: readonly Finding[];
}

/**
 * A data folder, the suite's backend migrated with one OpenID Connect entry
 * of `issuer`, and the settings of a deployment behind a TLS proxy; runs
 * `ssogate doctor --json` on it after `prepare`.
 */
async function doctorOn(
  entryInput: Record<string, unknown>,
  caFile: string,
  prepare: (env: Record<string, string>) => Promise<void> = () => Promise.resolve(),
): Promise<{ code: number; report: Report; text: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'ssogate-doctor-'));
  try {
    return await withTestBackend(
      async (backend) => {
        const env: Record<string, string> = {
          ...backend.env,
          SSOGATE_DATA_DIR: join(folder, 'data'),
          SSOGATE_PUBLIC_URL: 'https://sso.corp.example',
          SSOGATE_TRUSTED_PROXIES: '10.0.0.0/8',
          SSOGATE_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
          SSOGATE_OUTBOUND_ALLOW: 'localhost,127.0.0.1,::1',
          SSOGATE_CA_FILE: caFile,
        };
        const storage = await openStorage(loadConfig(env));
        try {
          await storage.entries.create(compileEntry(entryInput).input, 1);
        } finally {
          await storage.close();
        }
        await prepare(env);
        const json = await runCommand(['doctor', '--json'], { env });
        const text = await runCommand(['doctor'], { env });
        return { code: json.code, report: JSON.parse(json.out) as Report, text: text.out };
      },
      { sqliteFile: join(folder, 'data', 'ssogate.db') },
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The doctor's report on a provider with a certificate valid `days` and these quirks. */
async function doctorAgainstProvider(days: number, options: ProviderOptions = {}) {
  const certificates = await makeCertificates(days);
  const provider = await startTlsProvider(certificates, options);
  try {
    return await doctorOn(openIdEntry(provider.issuer), certificates.caFile);
  } finally {
    await provider.close();
    await certificates.remove();
  }
}

/** An OpenID Connect entry `corp` of that issuer. */
const openIdEntry = (issuer: string): Record<string, unknown> => ({
  id: 'corp',
  name: 'Corp',
  enabled: true,
  appid: 'gateway',
  appsecret: 'gateway-secret',
  oidc: { issuer },
});

const codesOf = (report: Report): string[] =>
  report.findings.flatMap((finding) => (finding.code === undefined ? [] : [finding.code]));

describe('ssogate doctor', () => {
  test('a good setup passes every check, exit status 0', async () => {
    const { code, report, text } = await doctorAgainstProvider(90);
    assert.deepEqual(codesOf(report), []);
    assert.equal(report.ok, true);
    assert.equal(code, 0);
    const checked = report.findings.map((finding) => `${finding.check}: ${finding.detail}`);
    for (const expected of [
      /^database: reachable, all \d+ migrations applied$/,
      // SQLite keeps its file there; PostgreSQL with a configured key needs no folder.
      testBackendName().startsWith('sqlite')
        ? /^data folder: private \(mode 0700\)$/
        : /^data folder: absent, and not used by this configuration$/,
      /^public URL: https: cookies are Secure/,
      /^entry corp: TLS chain valid, certificate expires in 8\d days$/,
      /^entry corp: discovery document valid$/,
      /^entry corp: key set of 1 key$/,
      /^entry corp: clock within \d+ s of the provider's$/,
    ]) {
      assert.ok(
        checked.some((line) => expected.test(line)),
        `${String(expected)} in\n${checked.join('\n')}`,
      );
    }
    assert.match(text, /^STATUS +CHECK +SUBJECT +FOUND$/m);
    assert.match(text, /\nNo problem found in \d+ checks\.\n$/);
  });

  test('an unreachable provider fails the connection and the discovery', async () => {
    const certificates = await makeCertificates(90);
    // A port that was free a moment ago and has nobody listening now.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) =>
      closed.close(() => {
        resolve();
      }),
    );
    try {
      const { code, report, text } = await doctorOn(
        openIdEntry(`https://localhost:${port}`),
        certificates.caFile,
      );
      assert.deepEqual(codesOf(report), ['connect_failed', 'discovery_failed']);
      assert.equal(code, 1);
      assert.match(text, /FAIL .*ECONNREFUSED/);
      assert.match(text, /fix \[connect_failed\]: check that the server is up/);
    } finally {
      await certificates.remove();
    }
  });

  test('an expired certificate is refused, with the reason', async () => {
    const { code, report } = await doctorAgainstProvider(-1);
    assert.deepEqual(codesOf(report), ['tls_certificate_invalid', 'discovery_failed']);
    const finding = report.findings.find((found) => found.code === 'tls_certificate_invalid');
    assert.match(finding?.detail ?? '', /CERT_HAS_EXPIRED/);
    assert.equal(code, 1);
  });

  test('a certificate ending within 14 days is a warning', async () => {
    const { code, report } = await doctorAgainstProvider(5);
    assert.deepEqual(codesOf(report), ['tls_certificate_expiring']);
    assert.equal(report.findings.find((found) => found.code !== undefined)?.status, 'warn');
    assert.equal(code, 1);
  });

  test('a provider whose Date is 10 minutes off is a clock skew', async () => {
    const { code, report } = await doctorAgainstProvider(90, { dateOffsetMs: 10 * 60_000 });
    assert.deepEqual(codesOf(report), ['clock_skew']);
    const finding = report.findings.find((found) => found.code === 'clock_skew');
    assert.match(finding?.detail ?? '', /this clock is (?:59\d|60\d) s behind the provider's/);
    assert.equal(code, 1);
  });

  test('a key set answering 403 fails, naming the status', async () => {
    const { code, report } = await doctorAgainstProvider(90, { keySetStatus: 403 });
    assert.deepEqual(codesOf(report), ['key_set_failed']);
    const finding = report.findings.find((found) => found.code === 'key_set_failed');
    assert.match(finding?.detail ?? '', /403/);
    assert.match(finding?.subject ?? '', /\/jwks$/);
    assert.equal(code, 1);
  });

  test('an entry calling plain http on another machine fails before any connection', async () => {
    const certificates = await makeCertificates(90);
    try {
      const { getStyle } = exampleEntries('http://auth.corp.example');
      const { code, report } = await doctorOn(getStyle, certificates.caFile);
      const refused = report.findings.filter((found) => found.code !== undefined);
      assert.deepEqual(
        refused.map((found) => [found.code, found.subject]),
        [['insecure_http_refused', 'http://auth.corp.example']],
      );
      assert.match(refused[0]?.detail ?? '', /SSOGATE_ALLOW_INSECURE_HTTP/);
      assert.equal(code, 1);
    } finally {
      await certificates.remove();
    }
  });

  test('a data folder, or a file in it, readable by others fails', async () => {
    const certificates = await makeCertificates(90);
    const provider = await startTlsProvider(certificates);
    try {
      const { code, report } = await doctorOn(
        openIdEntry(provider.issuer),
        certificates.caFile,
        async (env) => {
          const folder = env.SSOGATE_DATA_DIR ?? '';
          // On PostgreSQL with a configured key the gateway made no folder: one is made here.
          await mkdir(folder, { recursive: true });
          await chmod(folder, 0o755);
          await writeFile(join(folder, 'notes.txt'), 'left here', { mode: 0o644 });
          await chmod(join(folder, 'notes.txt'), 0o644);
        },
      );
      const exposed = report.findings.filter((found) => found.code === 'data_dir_exposed');
      assert.deepEqual(
        exposed.map((found) => [
          found.subject.replace(/^.*\/data/, 'data'),
          found.fix?.slice(0, 12),
        ]),
        [
          ['data', 'chmod go-rwx'],
          ['data/notes.txt', 'chmod go-rwx'],
        ],
      );
      assert.match(exposed[0]?.detail ?? '', /mode 0755/);
      assert.equal(code, 1);
    } finally {
      await provider.close();
      await certificates.remove();
    }
  });

  test('every configuration problem is listed at once, and nothing else is tried', async () => {
    const { code, out } = await runCommand(['doctor'], {
      env: { SSOGATE_PORT: 'eighty', SSOGATE_PUBLIC_URL: 'ftp://sso', SSOGATE_LOG_LEVEL: 'loud' },
    });
    assert.equal(code, 1);
    const failed = out.split('\n').filter((line) => line.startsWith('FAIL'));
    assert.deepEqual(
      failed.map((line) => line.split(/ +/)[2]),
      ['SSOGATE_PORT', 'SSOGATE_PUBLIC_URL', 'SSOGATE_LOG_LEVEL'],
    );
    assert.match(out, /fix \[config_invalid\]/);
    assert.doesNotMatch(out, /database/);
  });

  test('http on a public host fails unless SSOGATE_ALLOW_INSECURE_HTTP; https without trusted proxies warns', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ssogate-doctor-'));
    try {
      const base = {
        SSOGATE_DATA_DIR: folder,
        SSOGATE_DATABASE_URL: `sqlite:${join(folder, 'x.db')}`,
      };
      const codes = async (env: Record<string, string>): Promise<string[]> => {
        const { out } = await runCommand(['doctor', '--json'], { env: { ...base, ...env } });
        return codesOf(JSON.parse(out) as Report).filter(
          (code) => code.startsWith('public_url') || code.startsWith('trusted'),
        );
      };
      assert.deepEqual(await codes({ SSOGATE_PUBLIC_URL: 'http://sso.corp.example' }), [
        'public_url_insecure',
      ]);
      assert.deepEqual(
        await codes({
          SSOGATE_PUBLIC_URL: 'http://sso.corp.example',
          SSOGATE_ALLOW_INSECURE_HTTP: 'true',
        }),
        ['public_url_http'],
      );
      assert.deepEqual(await codes({ SSOGATE_PUBLIC_URL: 'https://sso.corp.example' }), [
        'trusted_proxies_unset',
      ]);
      assert.deepEqual(await codes({}), ['public_url_unset']);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  test('a host listed without the port of the public URL is a warning, naming the port to write', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ssogate-doctor-'));
    try {
      const { out } = await runCommand(['doctor', '--json'], {
        env: {
          SSOGATE_DATA_DIR: folder,
          SSOGATE_DATABASE_URL: `sqlite:${join(folder, 'x.db')}`,
          SSOGATE_PUBLIC_URL: 'http://sso.localhost:8080',
          SSOGATE_UPSTREAM:
            'app1.localhost=http://127.0.0.1:3001,app2.localhost:8080=http://127.0.0.1:3002',
        },
      });
      const warned = (JSON.parse(out) as Report).findings.filter(
        ({ code }) => code === 'host_port_missing',
      );
      assert.deepEqual(
        warned.map(({ subject }) => subject),
        ['app1.localhost'],
      );
      assert.match(warned[0]?.fix ?? '', /app1\.localhost:8080/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  test('--help says what is checked; a stray word is a usage error', async () => {
    const help = await runCommand(['doctor', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: ssogate doctor \[--json\]/);
    assert.match(help.out, /docs\/doctor\.md/);
    const wrong = await runCommand(['doctor', 'now']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.err, /unexpected "now"/);
    assert.match((await runCommand(['--help'])).out, /ssogate doctor \[--json\]/);
  });
});
