import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { CompiledLdap } from '../../core/index.js';
import { compileEntry } from '../../core/index.js';
import { addressPolicy, parseAllowList } from '../../foundation/outbound/address-policy.js';
import type { CertificateFiles } from '../../cli/doctor/test-support/tls-provider.js';
import { makeCertificates } from '../../cli/doctor/test-support/tls-provider.js';
import type { Client } from 'ldapts';
import { PoolsByKey } from '../../foundation/outbound/connection-pool.js';
import { signInWithDirectory } from './directory-sign-in.js';
import type { RunningSlapd } from './test-support/slapd.js';
import {
  directoryUsers,
  serviceAccountEntry,
  slapdSkip,
  startSlapd,
  suffix,
} from './test-support/slapd.js';

const [alice] = directoryUsers as [(typeof directoryUsers)[number]];
const deps = {
  policy: addressPolicy(parseAllowList('127.0.0.1', 'SSOGATE_OUTBOUND_ALLOW', [])),
  timeoutMs: 2000,
  entryId: 'tls',
};

function directory(ldap: Record<string, unknown>): CompiledLdap {
  const entry = compileEntry({
    ...serviceAccountEntry({ userFilter: '(uid={username})', ...ldap }),
    id: 'tls',
    name: 'TLS',
  });
  assert.ok('ldap' in entry);
  return entry.ldap;
}

describe('a directory over TLS', { skip: slapdSkip }, () => {
  let certificates: CertificateFiles;
  let slapd: RunningSlapd;
  let ca: string;

  before(async () => {
    certificates = await makeCertificates(30);
    ca = await readFile(certificates.caFile, 'utf8');
    slapd = await startSlapd({ certificate: certificates.certificate, key: certificates.key });
  });
  after(async () => {
    await slapd.stop();
    await certificates.remove();
  });

  test('ldaps:// with the CA of the entry signs in', async () => {
    const answer = await signInWithDirectory(
      deps,
      directory({ url: slapd.ldapsUrl, caCertificate: ca }),
      alice.uid,
      alice.password,
    );
    assert.equal(answer.dn, `uid=alice,ou=people,${suffix}`);
  });

  test('StartTLS with the CA of the entry signs in (RFC 4511 §4.14)', async () => {
    const answer = await signInWithDirectory(
      deps,
      directory({ url: slapd.url, startTls: true, caCertificate: ca }),
      alice.uid,
      alice.password,
    );
    assert.equal(answer.dn, `uid=alice,ou=people,${suffix}`);
  });

  test('a pooled connection over ldaps:// and StartTLS serves sign-ins one after another', async () => {
    for (const ldap of [
      { url: slapd.ldapsUrl, caCertificate: ca },
      { url: slapd.url, startTls: true, caCertificate: ca },
    ]) {
      const pools = new PoolsByKey<Client>();
      try {
        for (const user of [alice, alice]) {
          const answer = await signInWithDirectory(
            { ...deps, pools },
            directory(ldap),
            user.uid,
            user.password,
          );
          assert.equal(answer.dn, `uid=alice,ou=people,${suffix}`);
        }
        assert.equal(pools.get('tls')?.stats().opened, 1, JSON.stringify(ldap));
      } finally {
        pools.closeAll();
      }
    }
  });

  test('a certificate no CA vouches for is ldap_unavailable, over ldaps:// and StartTLS', async () => {
    for (const ldap of [{ url: slapd.ldapsUrl }, { url: slapd.url, startTls: true }]) {
      await assert.rejects(
        signInWithDirectory(deps, directory(ldap), alice.uid, alice.password),
        { code: 'ldap_unavailable', message: /certificate/i },
        JSON.stringify(ldap),
      );
    }
  });

  describe('a certificate for localhost only, at 127.0.0.1', () => {
    let localhostOnly: CertificateFiles;
    let other: RunningSlapd;
    let otherCa: string;

    before(async () => {
      localhostOnly = await makeCertificates(30, 'DNS:localhost');
      otherCa = await readFile(localhostOnly.caFile, 'utf8');
      other = await startSlapd({ certificate: localhostOnly.certificate, key: localhostOnly.key });
    });
    after(async () => {
      await other.stop();
      await localhostOnly.remove();
    });

    test('is refused after StartTLS too: the address of the URL is checked, not "localhost"', async () => {
      for (const ldap of [
        { url: other.ldapsUrl, caCertificate: otherCa },
        { url: other.url, startTls: true, caCertificate: otherCa },
      ]) {
        await assert.rejects(
          signInWithDirectory(deps, directory(ldap), alice.uid, alice.password),
          { code: 'ldap_unavailable', message: /IP: 127\.0\.0\.1 is not in the cert's list/ },
          JSON.stringify(ldap),
        );
      }
    });
  });
});
