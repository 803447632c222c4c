import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompiledLdapEntry } from './compiled-entry.js';
import { entryCallOrigins } from './call-urls.js';
import { mapDirectoryUser, renderFilter, renderUserDn } from './ldap-entry.js';
import { validateEntry } from './validate-entry.js';

const base = {
  type: 'ldap',
  id: 'corp',
  name: 'Corp',
  enabled: true,
  appsecret: 'service password',
  ldap: {
    url: 'ldaps://ldap.corp.example',
    bindDn: 'cn=gateway,ou=services,dc=corp,dc=example',
    baseDn: 'ou=people,dc=corp,dc=example',
    userFilter: '(&(objectClass=person)(uid={username}))',
  },
};

function compiled(changes: Record<string, unknown> = {}): CompiledLdapEntry {
  const result = validateEntry({ ...base, ldap: { ...base.ldap, ...changes } });
  assert.ok(result.ok, JSON.stringify(result));
  assert.ok('ldap' in result.entry);
  return result.entry;
}

function problems(ldap: Record<string, unknown>, top: Record<string, unknown> = {}) {
  const result = validateEntry({ ...base, ...top, ldap: { ...base.ldap, ...ldap } });
  assert.ok(!result.ok);
  return result.problems.map(({ code, field }) => [code, field]);
}

describe('an LDAP entry', () => {
  test('compiles with its defaults; the port is written out and is part of its origin', () => {
    const entry = compiled();
    assert.equal(entry.ldap.url, 'ldaps://ldap.corp.example:636');
    assert.equal(
      entry.ldap.lookup.kind === 'search' ? entry.ldap.lookup.bindPassword : undefined,
      'service password',
    );
    assert.equal(entry.ldap.userIdAttribute, 'uid');
    assert.equal(entry.ldap.groupBaseDn, entry.ldap.baseDn);
    assert.deepEqual(entryCallOrigins(entry), ['ldaps://ldap.corp.example:636']);
    assert.equal(
      compiled({ url: 'ldap://ldap.corp.example' }).ldap.url,
      'ldap://ldap.corp.example:389',
    );
  });

  test('each bad field is named with its code', () => {
    assert.deepEqual(problems({ url: 'ldap://ldap.corp.example/dc=corp?uid' }), [
      ['field_invalid', 'ldap.url'],
    ]);
    assert.deepEqual(problems({ baseDn: 'dc=corp,' }), [['ldap_dn_invalid', 'ldap.baseDn']]);
    assert.deepEqual(problems({ userFilter: '(&(uid={username})' }), [
      ['ldap_filter_invalid', 'ldap.userFilter'],
    ]);
    assert.deepEqual(problems({ userFilter: '(uid={user})' }), [
      ['ldap_filter_invalid', 'ldap.userFilter'],
    ]);
    assert.deepEqual(problems({ startTls: true }), [['field_invalid', 'ldap.startTls']]);
    assert.deepEqual(problems({}, { appsecret: '' }), [['field_invalid', 'appsecret']]);
    assert.deepEqual(problems({ userIdAttribute: 'uid)(x' }), [
      ['field_invalid', 'ldap.userIdAttribute'],
    ]);
  });

  test('DNs with escapes and filters with escapes are accepted', () => {
    const entry = compiled({
      baseDn: 'ou=R\\2cD,O=Example\\, Inc.,dc=corp',
      userFilter: '(|(uid={username})(mail={username})(cn=a\\2a))',
    });
    assert.equal(entry.ldap.baseDn, 'ou=R\\2cD,O=Example\\, Inc.,dc=corp');
  });

  test('extensible match filters are accepted: Active Directory rules in chain and bitwise', () => {
    const entry = compiled({
      userFilter:
        '(&(objectClass=user)(sAMAccountName={username})(!(userAccountControl:1.2.840.113556.1.4.803:=2)))',
      groupFilter: '(&(objectClass=group)(member:1.2.840.113556.1.4.1941:={dn}))',
    });
    assert.equal(
      entry.ldap.groupFilter,
      '(&(objectClass=group)(member:1.2.840.113556.1.4.1941:={dn}))',
    );
    assert.ok(compiled({ userFilter: '(&(uid={username})(:dn:2.5.13.5:=x)(cn:dn:=y))' }));
    assert.deepEqual(problems({ userFilter: '(&(uid={username})(cn::=x))' }), [
      ['ldap_filter_invalid', 'ldap.userFilter'],
    ]);
  });

  test('a username is escaped into the filter (RFC 4515 §3)', () => {
    assert.equal(
      renderFilter('(uid={username})', 'username', '*)(uid=*\\\0'),
      '(uid=\\2a\\29\\28uid=\\2a\\5c\\00)',
    );
  });

  test('a username is escaped into the DN template (RFC 4514 §2.4)', () => {
    const template = 'uid={username},ou=people,dc=corp';
    assert.equal(renderUserDn(template, 'ann'), 'uid=ann,ou=people,dc=corp');
    assert.equal(
      renderUserDn(template, 'x,ou=admins+cn=a"b<c>;d\\e=f\0'),
      'uid=x\\,ou\\=admins\\+cn\\=a\\"b\\<c\\>\\;d\\\\e\\=f\\00,ou=people,dc=corp',
    );
    assert.equal(renderUserDn(template, '#a b '), 'uid=\\#a b\\ ,ou=people,dc=corp');
    assert.equal(renderUserDn(template, ' '), 'uid=\\ ,ou=people,dc=corp');
  });

  test('a direct bind by DN template instead of a service account: exactly one of the two', () => {
    const direct = {
      url: 'ldaps://ldap.corp.example',
      baseDn: 'ou=people,dc=corp,dc=example',
      userDnTemplate: 'uid={username},ou=people,dc=corp,dc=example',
    };
    const result = validateEntry({ ...base, appsecret: undefined, ldap: direct });
    assert.ok(result.ok, JSON.stringify(result));
    assert.ok('ldap' in result.entry);
    assert.deepEqual(result.entry.ldap.lookup, {
      kind: 'template',
      userDnTemplate: direct.userDnTemplate,
    });
    const refused = (ldap: Record<string, unknown>) => {
      const answer = validateEntry({ ...base, ldap });
      assert.ok(!answer.ok);
      return answer.problems.map(({ code, field }) => [code, field]);
    };
    assert.deepEqual(refused({ ...base.ldap, userDnTemplate: direct.userDnTemplate }), [
      ['field_invalid', 'ldap.bindDn'],
      ['field_invalid', 'ldap.userFilter'],
    ]);
    assert.deepEqual(refused({ url: direct.url, baseDn: direct.baseDn }), [
      ['field_invalid', 'ldap.bindDn'],
    ]);
    assert.deepEqual(refused({ ...direct, userDnTemplate: 'uid=alice,ou=people,dc=corp' }), [
      ['ldap_dn_invalid', 'ldap.userDnTemplate'],
    ]);
    assert.deepEqual(refused({ ...direct, userDnTemplate: 'uid={user},ou=people' }), [
      ['ldap_dn_invalid', 'ldap.userDnTemplate'],
    ]);
    assert.deepEqual(refused({ ...direct, userDnTemplate: '{username}' }), [
      ['ldap_dn_invalid', 'ldap.userDnTemplate'],
    ]);
  });

  test('nestedGroups needs a group filter', () => {
    assert.deepEqual(problems({ nestedGroups: true }), [['field_invalid', 'ldap.nestedGroups']]);
    const entry = compiled({ nestedGroups: true, groupFilter: '(member={dn})' });
    assert.equal(entry.ldap.nestedGroups, true);
  });

  test("the user and the groupMapping's groups from the directory's answer", () => {
    const entry = validateEntry({
      ...base,
      groupMapping: { expression: "JSON_GET($response, 'groups')", adminGroups: ['admins'] },
    });
    assert.ok(entry.ok && 'ldap' in entry.entry);
    const user = mapDirectoryUser(entry.entry.ldap, entry.entry.groupMapping, {
      dn: 'uid=ann,ou=people,dc=corp,dc=example',
      attributes: { uid: 'ann', cn: ['Ann Lee', 'Ann'], mail: 'ann@corp.example' },
      groupDns: ['cn=admins,ou=groups,dc=corp', 'cn=R\\2cD,ou=groups,dc=corp'],
    });
    assert.equal(user.userId, 'ann');
    assert.equal(user.userName, 'Ann Lee');
    assert.equal(user.email, 'ann@corp.example');
    assert.deepEqual(user.groups, ['admins', 'R,D']);
  });
});
