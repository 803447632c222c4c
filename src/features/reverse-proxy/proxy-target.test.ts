import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUpstreams } from '../../foundation/config/proxy-settings.js';
import { proxyTarget } from './proxy-target.js';

const upstreams = parseUpstreams(
  [
    'wiki.corp.example=http://10.0.0.5:3000',
    'git.corp.example/=http://10.0.0.6:3000',
    'git.corp.example/api=http://10.0.0.7:3000',
    '/ci=http://10.0.0.8:3000',
    '/=http://10.0.0.9:3000',
  ].join(','),
  'SSOGATE_UPSTREAM',
  [],
);

function originFor(host: string | undefined, path: string): string | undefined {
  const target = proxyTarget(upstreams, path, host);
  assert.ok(!('refused' in target));
  return target.upstream?.origin;
}

describe('the upstream of a request, by host and path', () => {
  test("a host's own upstreams, longest prefix first", () => {
    assert.equal(originFor('wiki.corp.example', '/page'), 'http://10.0.0.5:3000');
    assert.equal(originFor('WIKI.corp.example:443', '/'), 'http://10.0.0.5:3000');
    assert.equal(originFor('git.corp.example', '/api/v1'), 'http://10.0.0.7:3000');
    assert.equal(originFor('git.corp.example', '/apis'), 'http://10.0.0.6:3000');
  });

  test('a host with upstreams of its own never falls through to the path-only ones', () => {
    assert.equal(originFor('wiki.corp.example', '/ci/job'), 'http://10.0.0.5:3000');
  });

  test('any other host, or none, gets the path-only upstreams as before', () => {
    assert.equal(originFor('sso.corp.example', '/ci/job'), 'http://10.0.0.8:3000');
    assert.equal(originFor('other.example', '/x'), 'http://10.0.0.9:3000');
    assert.equal(originFor(undefined, '/x'), 'http://10.0.0.9:3000');
  });

  test('a host whose own prefixes do not match has no upstream', () => {
    const only = parseUpstreams('git.corp.example/api=http://10.0.0.7:3000', 'V', []);
    const target = proxyTarget(only, '/page', 'git.corp.example');
    assert.ok(!('refused' in target));
    assert.equal(target.upstream, undefined);
  });
});
