import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addressPolicy, embeddedIPv4, parseAllowList } from './address-policy.js';

const strict = addressPolicy();

/** Addresses the gateway must never connect to unless the operator allows them. */
const refused = [
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '100.64.0.1',
  '100.127.255.254',
  '127.0.0.1',
  '127.255.255.254',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.170',
  '192.168.1.1',
  '198.18.0.1',
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '240.0.0.1',
  '::',
  '::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:169.254.169.254',
  '::ffff:10.0.0.1',
  '::127.0.0.1',
  '64:ff9b::127.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::1',
  '2002:7f00:1::',
  '2002:c0a8:101::1',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'fec0::1',
  'ff02::1',
  '100::1',
  '2001:db8::1',
];

/** Public addresses, also in the IPv6 forms that carry a public IPv4 address. */
const allowed = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.216.34',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.169.0.1',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:82a::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('the outbound address policy', () => {
  for (const address of refused) {
    test(`refuses ${address}`, () => {
      const reason = strict.addressRefusal('idp.example', address);
      assert.ok(reason !== undefined, `${address} was allowed`);
      assert.ok(reason.startsWith(address));
    });
  }
  for (const address of allowed) {
    test(`allows ${address}`, () => {
      assert.equal(strict.addressRefusal('idp.example', address), undefined);
    });
  }

  test('judges URL hosts: address literals as written by the URL parser, names by name', () => {
    for (const url of [
      'http://127.0.0.1:6379/',
      'http://[::1]:5432/',
      'http://169.254.169.254/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://METADATA.google.internal./',
      'http://10.0.0.1/',
      'http://0x7f000001/',
      'http://2130706433/',
      'http://127.1/',
      'http://0177.0.0.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://localhost:8080/',
      'http://api.localhost/',
      'http://0.0.0.0/',
      'http://[::]/',
    ]) {
      assert.ok(strict.hostRefusal(new URL(url).hostname) !== undefined, `${url} was allowed`);
    }
    for (const url of ['https://idp.example/', 'https://8.8.8.8/', 'https://[2606:4700::1]/']) {
      assert.equal(strict.hostRefusal(new URL(url).hostname), undefined, url);
    }
  });

  test('lets through the names, addresses and networks of the allowlist, and nothing else', () => {
    const problems: string[] = [];
    const allow = parseAllowList(
      ' auth.corp.internal , 127.0.0.1, 10.20.0.0/16,[fd00::]/8 ,LOCALHOST',
      'SSOGATE_OUTBOUND_ALLOW',
      problems,
    );
    assert.deepEqual(problems, []);
    const policy = addressPolicy(allow);
    assert.equal(policy.hostRefusal('127.0.0.1'), undefined);
    assert.equal(policy.hostRefusal('localhost'), undefined);
    assert.equal(policy.addressRefusal('auth.corp.internal', '10.1.2.3'), undefined);
    assert.equal(policy.addressRefusal('Auth.Corp.Internal.', '169.254.169.254'), undefined);
    assert.equal(policy.addressRefusal('idp.example', '10.20.3.4'), undefined);
    assert.equal(policy.addressRefusal('idp.example', '::ffff:127.0.0.1'), undefined);
    assert.equal(policy.addressRefusal('idp.example', 'fd12::1'), undefined);
    assert.ok(policy.addressRefusal('idp.example', '10.21.0.1') !== undefined);
    assert.ok(policy.addressRefusal('idp.example', '127.0.0.2') !== undefined);
    assert.ok(policy.hostRefusal('metadata.google.internal') !== undefined);
  });

  test('reports every allowlist item that is not a name, an address or a network', () => {
    const problems: string[] = [];
    parseAllowList(
      '10.0.0.0/33,http://x/,::1/129,a b,10.0.0.0/',
      'SSOGATE_OUTBOUND_ALLOW',
      problems,
    );
    assert.equal(problems.length, 5, problems.join('\n'));
    for (const problem of problems) assert.match(problem, /^SSOGATE_OUTBOUND_ALLOW: '/);
  });

  test('finds the IPv4 address an IPv6 address carries', () => {
    assert.equal(embeddedIPv4('::ffff:7f00:1'), '127.0.0.1');
    assert.equal(embeddedIPv4('64:ff9b::a9fe:a9fe'), '169.254.169.254');
    assert.equal(embeddedIPv4('2002:c0a8:0101::'), '192.168.1.1');
    assert.equal(embeddedIPv4('2606:4700::1'), undefined);
    assert.equal(embeddedIPv4('::1'), undefined);
  });
});
