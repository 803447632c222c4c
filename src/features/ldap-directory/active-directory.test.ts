import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { CompiledLdap } from '../../core/index.js';
import { compileEntry } from '../../core/index.js';
import { addressPolicy, parseAllowList } from '../../foundation/outbound/address-policy.js';
import { entryFromPreset, findPreset } from '../../foundation/presets/presets.js';
import { signInWithDirectory } from './directory-sign-in.js';
import type { RunningDomainController } from './test-support/samba-ad.js';
import {
  domainDn,
  domainUsers,
  realm,
  sambaSkip,
  serviceAccount,
  startSambaAd,
} from './test-support/samba-ad.js';

const { alice, bob, carol } = domainUsers;

/** Active Directory's own nesting: the groups holding the user, at any depth (MS-ADTS §3.1.1.3.4.4.3). */
const inChainGroupFilter = '(&(objectClass=group)(member:1.2.840.113556.1.4.1941:={dn}))';

/**
 * The Active Directory preset (src/foundation/presets/active-directory.json)
 * filled for the test domain, with the CA of the domain controller's
 * certificate and an administrators' group; `ldap` replaces fields of the
 * preset's own.
 */
function presetEntry(
  dc: RunningDomainController,
  id: string,
  ldap: Record<string, unknown> = {},
): Record<string, unknown> {
  const preset = findPreset('active-directory');
  assert.ok(preset);
  const made = entryFromPreset(preset, {
    id,
    appid: 'gateway',
    appsecret: serviceAccount.password,
    parameters: { url: dc.ldapsUrl, bindDn: serviceAccount.dn, baseDn: domainDn },
  });
  assert.ok(made.ok, made.ok ? '' : JSON.stringify(made.problems));
  const input = made.entry.input as Record<string, unknown> & {
    ldap: Record<string, unknown>;
    groupMapping: Record<string, unknown>;
  };
  return {
    ...input,
    timeoutMs: 5000,
    ldap: { ...input.ldap, caCertificate: dc.caCertificate, ...ldap },
    groupMapping: { ...input.groupMapping, adminGroups: ['gateway-admins'] },
  };
}

function compiled(entry: Record<string, unknown>): CompiledLdap {
  const made = compileEntry(entry);
  assert.ok('ldap' in made);
  return made.ldap;
}

/** The common names of the groups an answer found, sorted. */
function groupNames(groupDns: readonly string[]): string[] {
  return groupDns.map((dn) => /^CN=([^,]+),/i.exec(dn)?.[1] ?? dn).sort();
}

/**
 * Sign-in dependencies that keep what the sign-in's observer hears, as a
 * test sign-in's trace does: `found()` is how many users the search found.
 */
function watched(): { deps: DirectoryDeps; found: () => string | undefined } {
  const results: [string, string][] = [];
  return {
    deps: {
      ...deps,
      observe: {
        begin: () => undefined,
        result: (label, value) => results.push([label, value]),
      },
    },
    found: () => results.find(([label]) => label === 'found')?.[1],
  };
}

async function formSignIn(
  gw: TestGateway,
  browser: TestBrowser,
  entryId: string,
  username: string,
  password: string,
): Promise<{ status: number; body: string }> {
  const form = await browser.open(`${gw.url}/_sso/login/${entryId}?return_to=/after`);
  assert.equal(form.status, 200, form.body);
  const field = (name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`).exec(form.body)?.[1] ?? '';
  const response = await browser.exchange('POST', `${gw.url}/_sso/ldap/${entryId}`, {
    state: field('state'),
    csrf: field('csrf'),
    username,
    password,
  });
  return { status: response.status, body: await response.text() };
}

type DirectoryDeps = Parameters<typeof signInWithDirectory>[0];
let deps: DirectoryDeps;

describe('the Active Directory preset against Samba', { skip: sambaSkip }, () => {
  let dc: RunningDomainController;
  let gw: TestGateway;

  before(async () => {
    dc = await startSambaAd();
    deps = {
      policy: addressPolicy(parseAllowList(dc.address, 'SSOGATE_OUTBOUND_ALLOW', [])),
      timeoutMs: 5000,
      entryId: 'ad',
    };
    try {
      gw = await startTestGateway({
        env: { SSOGATE_OUTBOUND_ALLOW: `127.0.0.1,${dc.address}` },
        entries: () => [presetEntry(dc, 'ad')],
      });
    } catch (error) {
      await dc.stop();
      throw error;
    }
  });
  after(async () => {
    await gw.close();
    await dc.stop();
  });

  test('the password form signs in by sAMAccountName over ldaps://: displayName, mail, memberOf, administrator', async () => {
    const browser = gw.browser();
    const answer = await formSignIn(gw, browser, 'ad', alice.sAMAccountName, alice.password);
    assert.equal(answer.status, 303, answer.body);
    const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
    assert.equal(me.status, 200, me.body);
    const body = JSON.parse(me.body) as Record<string, unknown>;
    assert.equal(body.userId, alice.sAMAccountName);
    assert.equal(body.userName, alice.displayName);
    assert.equal(body.email, alice.mail);
    assert.equal(body.isAdmin, true);
    const stored = await gw.storage.users.findByUserId(alice.sAMAccountName);
    assert.deepEqual([...(stored?.groups ?? [])].sort(), [...alice.groups].sort());
  });

  test('a wrong password, a disabled account and an unknown name get the form again, 401', async () => {
    for (const [username, password] of [
      [alice.sAMAccountName, 'Not-the-password-1'],
      [carol.sAMAccountName, carol.password],
      ['nobody', alice.password],
      // The filter's escaping (RFC 4515 §3): a wildcard is a literal character.
      ['ali*', alice.password],
    ] as const) {
      const answer = await formSignIn(gw, gw.browser(), 'ad', username, password);
      assert.equal(answer.status, 401, `${username}: ${answer.body}`);
      assert.match(answer.body, /The username or password is not right/);
    }
  });

  test('nested groups: the domain controller follows them by LDAP_MATCHING_RULE_IN_CHAIN, through a cycle', async () => {
    const answer = await signInWithDirectory(
      deps,
      compiled(presetEntry(dc, 'ad', { groupFilter: inChainGroupFilter })),
      alice.sAMAccountName,
      alice.password,
    );
    // engineers holds alice; platform holds engineers; staff holds platform, which holds staff back.
    assert.deepEqual(groupNames(answer.groupDns), [
      'engineers',
      'gateway-admins',
      'platform',
      'staff',
    ]);
    // The preset's memberOf: the groups that name the user themselves, only.
    const direct = await signInWithDirectory(
      deps,
      compiled(presetEntry(dc, 'ad')),
      alice.sAMAccountName,
      alice.password,
    );
    assert.deepEqual(groupNames(direct.groupDns), ['engineers', 'gateway-admins']);
  });

  test("the gateway's own nesting walk finds the same groups as the domain controller's", async () => {
    const answer = await signInWithDirectory(
      deps,
      compiled(
        presetEntry(dc, 'ad', {
          groupFilter: '(&(objectClass=group)(member={dn}))',
          nestedGroups: true,
        }),
      ),
      alice.sAMAccountName,
      alice.password,
    );
    assert.deepEqual(groupNames(answer.groupDns), [
      'engineers',
      'gateway-admins',
      'platform',
      'staff',
    ]);
  });

  test('a DN with an escaped comma is bound as found; the primary group is in no memberOf', async () => {
    const answer = await signInWithDirectory(
      deps,
      compiled(presetEntry(dc, 'ad', { groupFilter: inChainGroupFilter })),
      bob.sAMAccountName,
      bob.password,
    );
    assert.equal(answer.dn, bob.dn);
    assert.equal(answer.attributes.displayName, bob.displayName);
    // Domain Users, bob's only group, is named by his primaryGroupID, not by a member value.
    assert.deepEqual(answer.groupDns, []);
  });

  test('a disabled account is not found by the filter, and refused by the domain controller without it', async () => {
    const withCheck = watched();
    await assert.rejects(
      signInWithDirectory(
        withCheck.deps,
        compiled(presetEntry(dc, 'ad')),
        carol.sAMAccountName,
        carol.password,
      ),
      { code: 'ldap_sign_in_failed' },
    );
    assert.equal(withCheck.found(), '0');
    const withoutCheck = watched();
    const entry = presetEntry(dc, 'ad', {
      userFilter: '(&(objectCategory=person)(objectClass=user)(sAMAccountName={username}))',
    });
    await assert.rejects(
      signInWithDirectory(withoutCheck.deps, compiled(entry), carol.sAMAccountName, carol.password),
      { code: 'ldap_sign_in_failed', message: /refused the password/ },
    );
    // Found, and the bind with her right password refused (Active Directory's data 533: disabled).
    assert.equal(withoutCheck.found(), '1');
  });

  test('a wrong password is ldap_sign_in_failed', async () => {
    await assert.rejects(
      signInWithDirectory(
        deps,
        compiled(presetEntry(dc, 'ad')),
        alice.sAMAccountName,
        'Wrong-pass-1',
      ),
      { code: 'ldap_sign_in_failed', message: /refused the password/ },
    );
  });

  test('a userPrincipalName is no sAMAccountName to the preset; a filter naming both takes either', async () => {
    const upn = `${alice.sAMAccountName}@${realm.toLowerCase()}`;
    const bySam = watched();
    await assert.rejects(
      signInWithDirectory(bySam.deps, compiled(presetEntry(dc, 'ad')), upn, alice.password),
      { code: 'ldap_sign_in_failed' },
    );
    assert.equal(bySam.found(), '0');
    const either = compiled(
      presetEntry(dc, 'ad', {
        userFilter:
          '(&(objectCategory=person)(objectClass=user)(|(sAMAccountName={username})(userPrincipalName={username}))(!(userAccountControl:1.2.840.113556.1.4.803:=2)))',
      }),
    );
    for (const username of [upn, alice.sAMAccountName]) {
      const answer = await signInWithDirectory(deps, either, username, alice.password);
      assert.equal(answer.dn, alice.dn);
      assert.equal(answer.attributes.sAMAccountName, alice.sAMAccountName);
    }
  });

  test("StartTLS on port 389 with the domain controller's CA signs in (RFC 4511 §4.14)", async () => {
    const answer = await signInWithDirectory(
      deps,
      compiled(presetEntry(dc, 'ad', { url: dc.ldapUrl, startTls: true })),
      alice.sAMAccountName,
      alice.password,
    );
    assert.equal(answer.dn, alice.dn);
  });

  test('a simple bind without TLS is refused by the domain controller: ldap_directory_error', async () => {
    // Active Directory's default (and Samba's "ldap server require strong auth"): strongerAuthRequired, RFC 4511 §4.1.9.
    await assert.rejects(
      signInWithDirectory(
        deps,
        compiled(presetEntry(dc, 'ad', { url: dc.ldapUrl })),
        alice.sAMAccountName,
        alice.password,
      ),
      { code: 'ldap_directory_error', message: /service account.*LDAP result 8/s },
    );
  });

  test('a certificate without the CA of the entry is ldap_unavailable', async () => {
    await assert.rejects(
      signInWithDirectory(
        deps,
        compiled(presetEntry(dc, 'ad', { caCertificate: undefined })),
        alice.sAMAccountName,
        alice.password,
      ),
      { code: 'ldap_unavailable', message: /certificate/i },
    );
  });
});
