import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clientKey } from './client-key.js';

describe('clientKey', () => {
  test('IPv4 counts per address, also when mapped into IPv6', () => {
    assert.equal(clientKey('203.0.113.7'), '203.0.113.7');
    assert.equal(clientKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(clientKey('::FFFF:203.0.113.7'), '203.0.113.7');
  });

  test('IPv6 counts per /64, however the address is written', () => {
    const key = '2001:db8:0:1::/64';
    for (const address of [
      '2001:db8:0:1::1',
      '2001:db8:0:1:ffff:ffff:ffff:ffff',
      '2001:0db8:0000:0001:0000:0000:0000:0001',
      '2001:db8::1:0:0:0:1',
      '2001:db8:0:1::1%eth0',
      '2001:db8:0:1::203.0.113.7',
    ]) {
      assert.equal(clientKey(address), key, address);
    }
    assert.equal(clientKey('::1'), '0:0:0:0::/64');
    assert.equal(clientKey('2001:db8::'), '2001:db8:0:0::/64');
    assert.notEqual(clientKey('2001:db8:0:2::1'), key);
  });

  test('anything else is taken as it is', () => {
    assert.equal(clientKey('not an address'), 'not an address');
  });
});
