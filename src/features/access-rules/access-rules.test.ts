import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccessRule } from '../../foundation/config/proxy-settings.js';
import type { SessionRecord, UserRecord } from '../../foundation/storage/types.js';
import { accessAllowed, accessVerdict, canonicalHost } from './access-rules.js';

function user(
  userId: string,
  department: string | null = null,
  groups: readonly string[] = [],
): UserRecord {
  return {
    id: 1,
    userId,
    sourceEntryId: null,
    userName: null,
    email: null,
    mobile: null,
    department,
    enabled: true,
    isAdmin: false,
    passwordHash: null,
    extra: {},
    groups,
    createdAt: 0,
    updatedAt: 0,
    lastSignInAt: null,
  };
}

function rule(path: string, host: string | undefined, users: string[]): AccessRule {
  return { path, host, users, departments: [], groups: [], admins: false };
}

test('a groups condition lets in the members of any listed group only', () => {
  const rules: AccessRule[] = [{ ...rule('/ops', undefined, []), groups: ['sre', 'oncall'] }];
  assert.equal(accessAllowed(rules, undefined, '/ops/x', user('ann', null, ['oncall'])), true);
  assert.equal(accessAllowed(rules, undefined, '/ops/x', user('bob', null, ['dev'])), false);
  assert.equal(accessAllowed(rules, undefined, '/ops/x', user('cid')), false);
});

const alice = user('alice');
const bob = user('bob');

describe('access rules with a host', () => {
  const rules = [
    rule('/hr', 'app.corp.example', ['alice']),
    rule('/', '*.wiki.example', ['alice']),
  ];

  test('every spelling of the rule host meets the rule', () => {
    for (const host of [
      'app.corp.example',
      'APP.Corp.Example',
      'app.corp.example.',
      'app.corp.example:443',
      'app.corp.example:80',
      'app.corp.example.:443',
      'app.corp.example:0443',
      'app.corp.example:8443',
      ' app.corp.example ',
    ]) {
      assert.equal(accessAllowed(rules, host, '/hr/pay', bob), false, host);
      assert.equal(accessAllowed(rules, host, '/hr/pay', alice), true, host);
    }
    assert.equal(accessAllowed(rules, 'other.corp.example', '/hr/pay', bob), true);
    assert.equal(accessAllowed(rules, 'app.corp.example', '/docs', bob), true);
  });

  test('a wildcard host covers its subdomains, not the domain itself', () => {
    for (const host of ['a.wiki.example', 'A.B.wiki.example.', 'a.wiki.example:443'])
      assert.equal(accessAllowed(rules, host, '/page', bob), false, host);
    assert.equal(accessAllowed(rules, 'a.wiki.example', '/page', alice), true);
    assert.equal(accessAllowed(rules, 'wiki.example', '/page', bob), true);
    assert.equal(accessAllowed(rules, 'evilwiki.example', '/page', bob), true);
  });

  test('a rule with a port covers that port only; default ports are no port', () => {
    const ported = [
      rule('/', 'app.corp.example:8443', ['alice']),
      rule('/', 'b.corp.example:443', ['alice']),
    ];
    assert.equal(accessAllowed(ported, 'app.corp.example:8443', '/x', bob), false);
    assert.equal(accessAllowed(ported, 'APP.corp.example.:08443', '/x', bob), false);
    assert.equal(accessAllowed(ported, 'app.corp.example', '/x', bob), true);
    assert.equal(accessAllowed(ported, 'b.corp.example', '/x', bob), false);
    assert.equal(accessAllowed(ported, 'b.corp.example:80', '/x', bob), false);
  });

  test('a host that cannot be read is refused; no host is refused where a host rule covers the path', () => {
    for (const host of [
      'app.corp.example, other.example',
      'app%2ecorp.example',
      '*.corp.example',
      'app.corp.example:99999',
      'app..corp.example',
      'user@app.corp.example',
      '',
    ])
      assert.equal(accessAllowed(rules, host, '/docs', alice), false, host);
    assert.equal(accessAllowed(rules, '[::1]:8080', '/docs', bob), true);
    assert.equal(accessAllowed(rules, undefined, '/hr', alice), false);
    assert.equal(accessAllowed(rules, undefined, '/docs', alice), false);
    const pathOnly = [rule('/hr', 'app.corp.example', ['alice']), rule('/admin', undefined, [])];
    assert.equal(accessAllowed(pathOnly, undefined, '/docs', bob), true);
    assert.equal(accessAllowed(pathOnly, undefined, '/HR;x', alice), false);
    assert.equal(accessAllowed(pathOnly, undefined, '/admin', alice), false);
  });

  test('canonical hosts', () => {
    assert.deepEqual(canonicalHost('App.Corp.Example.:443'), {
      name: 'app.corp.example',
      port: undefined,
    });
    assert.deepEqual(canonicalHost('app.corp.example:08443'), {
      name: 'app.corp.example',
      port: 8443,
    });
    assert.deepEqual(canonicalHost('[::1]'), { name: '[::1]', port: undefined });
    assert.equal(canonicalHost('app.corp.example:'), undefined);
  });
});

test('a rule asking for a second factor lets its users through with one recent enough', () => {
  const rules: AccessRule[] = [
    { ...rule('/pay', undefined, ['ann']), factor: 2, withinMs: 15 * 60_000 },
    { ...rule('/ops', undefined, ['ann']), factor: 2 },
    rule('/wiki', undefined, ['ann']),
  ];
  const session: SessionRecord = {
    idHash: 'h',
    userRowId: 1,
    entryId: null,
    createdAt: 0,
    lastSeenAt: 0,
    expiresAt: 1e12,
  };
  const given: SessionRecord = { ...session, factor: { method: 'totp', at: 1_000_000 } };
  const ann = user('ann');
  const at = (now: number, record: SessionRecord = given) => ({ session: record, now });
  assert.equal(
    accessVerdict(rules, undefined, '/pay', ann, undefined, at(0, session)),
    'second-factor',
  );
  assert.equal(accessVerdict(rules, undefined, '/pay', ann), 'second-factor');
  assert.equal(
    accessVerdict(rules, undefined, '/pay', ann, undefined, at(1_000_000 + 15 * 60_000)),
    'allow',
  );
  assert.equal(
    accessVerdict(rules, undefined, '/pay', ann, undefined, at(1_000_001 + 15 * 60_000)),
    'second-factor',
    'older than within: step up',
  );
  assert.equal(accessVerdict(rules, undefined, '/ops', ann, undefined, at(1e11)), 'allow');
  assert.equal(accessVerdict(rules, undefined, '/wiki', ann, undefined, at(0, session)), 'allow');
  // A user the rule does not list is refused, factor or not: no page would help.
  assert.equal(
    accessVerdict(rules, undefined, '/pay', user('bob'), undefined, at(1_000_000)),
    'deny',
  );
  assert.equal(accessAllowed(rules, undefined, '/pay', ann, undefined, at(0, session)), false);
});
