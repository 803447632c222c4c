import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addressPolicy, embeddedIPv4, parseAllowList } from './address-policy.js';

const strict = addressPolicy();

/**
 * Every range of the IANA IPv4 and IPv6 Special-Purpose Address Registries
 * (RFC 6890 and its updates) that is not globally reachable, and the
 * deprecated or local forms that carry an IPv4 address, with addresses at
 * its edges: the gateway never connects to them unless the operator allows
 * them. The reason names the range (for a carried IPv4 address, its range).
 */
const refusedRanges: readonly (readonly [string, readonly string[]])[] = [
  ['0.0.0.0/8', ['0.0.0.0', '0.1.2.3', '0.255.255.255']],
  ['10.0.0.0/8', ['10.0.0.1', '10.255.255.255']],
  ['100.64.0.0/10', ['100.64.0.1', '100.127.255.254']],
  ['127.0.0.0/8', ['127.0.0.1', '127.255.255.254']],
  ['169.254.0.0/16', ['169.254.169.254', '169.254.0.1']],
  ['172.16.0.0/12', ['172.16.0.1', '172.31.255.255']],
  ['192.0.0.0/24', ['192.0.0.0', '192.0.0.8', '192.0.0.9', '192.0.0.170', '192.0.0.255']],
  ['192.0.2.0/24', ['192.0.2.1', '192.0.2.255']],
  ['192.88.99.0/24', ['192.88.99.1', '192.88.99.255']],
  ['192.168.0.0/16', ['192.168.1.1', '192.168.255.255']],
  ['198.18.0.0/15', ['198.18.0.1', '198.19.255.255']],
  ['198.51.100.0/24', ['198.51.100.1', '198.51.100.255']],
  ['203.0.113.0/24', ['203.0.113.1', '203.0.113.255']],
  ['224.0.0.0/4', ['224.0.0.1', '239.255.255.250']],
  ['255.255.255.255/32', ['255.255.255.255']],
  ['240.0.0.0/4', ['240.0.0.1', '255.255.255.254']],
  ['::/128', ['::']],
  ['::1/128', ['::1']],
  // IPv4-mapped (RFC 4291 §2.5.5.2) and NAT64 (RFC 6052): judged by the address carried.
  ['127.0.0.0/8', ['::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::127.0.0.1']],
  ['169.254.0.0/16', ['::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe']],
  ['10.0.0.0/8', ['::ffff:10.0.0.1', '64:ff9b::a00:1']],
  ['::ffff:0:0:0/96', ['::ffff:0:127.0.0.1', '::ffff:0:7f00:1', '::ffff:0:808:808']],
  ['::/96', ['::127.0.0.1', '::8.8.8.8', '::2']],
  ['64:ff9b:1::/48', ['64:ff9b:1::1', '64:ff9b:1:ffff::808:808']],
  ['::/8', ['::1:0:0:1', '1::1', 'ff::1', '64:ff9c::1']],
  ['100::/64', ['100::1', '100::ffff:ffff:ffff:ffff']],
  ['100:0:0:1::/64', ['100:0:0:1::1']],
  ['2001::/32', ['2001::7f00:1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::808:808']],
  ['2001:2::/48', ['2001:2::1']],
  ['2001:10::/28', ['2001:10::1']],
  ['2001:20::/28', ['2001:20::1', '2001:2f::1']],
  ['2001::/23', ['2001:1::1', '2001:3::1', '2001:4:112::1', '2001:1ff::1']],
  ['2001:db8::/32', ['2001:db8::1', '2001:db8:ffff::1']],
  ['2002::/16', ['2002:7f00:1::', '2002:c0a8:101::1', '2002:808:808::1']],
  ['3fff::/20', ['3fff::1', '3fff:fff::1']],
  ['5f00::/16', ['5f00::1']],
  ['fc00::/7', ['fc00::1', 'fd12:3456::1']],
  ['fe80::/10', ['fe80::1', 'fe80::1%eth0', 'febf::1']],
  ['fec0::/10', ['fec0::1']],
  ['ff00::/8', ['ff02::1', 'ff05::2']],
  ['2000::/3', ['4000::1', '8000::1', 'e000::1']],
];

/**
 * Public addresses: globally reachable ones, special-purpose ranges the
 * registries mark globally reachable (AS112, AMT), and the IPv4-mapped and
 * NAT64 forms that carry a public IPv4 address (DNS64 gives these for every
 * name on an IPv6-only network).
 */
const allowed = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.216.34',
  '100.63.255.255',
  '100.128.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.169.0.1',
  '192.31.196.1',
  '192.52.193.1',
  '192.175.48.1',
  '192.88.98.255',
  '192.88.100.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:82a::200e',
  '2620:4f:8000::1',
  '2001:200::1',
  '2003::1',
  '3ffe::1',
  '3fff:1000::1',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
];

describe('the outbound address policy', () => {
  for (const [range, addresses] of refusedRanges) {
    test(`refuses ${range}: ${addresses.join(', ')}`, () => {
      for (const address of addresses) {
        const reason = strict.addressRefusal('idp.example', address);
        assert.ok(reason !== undefined, `${address} was allowed`);
        assert.ok(reason.startsWith(address), reason);
        assert.ok(reason.includes(`(${range}`), `${address}: ${reason}`);
        const host = address.includes(':') ? `[${address.replace(/%.*$/, '')}]` : address;
        assert.ok(strict.hostRefusal(new URL(`https://${host}/`).hostname) !== undefined, host);
      }
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
      'http://[::ffff:0:127.0.0.1]/',
      'http://[2001::7f00:1]/',
      'http://[64:ff9b:1::a00:1]/',
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
    // Forms refused whole carry nothing the policy reads.
    assert.equal(embeddedIPv4('2002:c0a8:0101::'), undefined);
    assert.equal(embeddedIPv4('::ffff:0:7f00:1'), undefined);
    assert.equal(embeddedIPv4('2001::7f00:1'), undefined);
    assert.equal(embeddedIPv4('2606:4700::1'), undefined);
    assert.equal(embeddedIPv4('::1'), undefined);
  });
});
