import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHosts, parseUpstreams } from './proxy-settings.js';
import {
  applicationHost,
  domainBinding,
  hostListed,
  onAuthHost,
  servedHosts,
  sessionServesHost,
} from './served-hosts.js';

function hostsOf(upstream: string | undefined, forwardAuth: string | undefined) {
  const problems: string[] = [];
  const hosts = servedHosts(
    'https://sso.corp.example',
    parseUpstreams(upstream, 'SSOGATE_UPSTREAM', problems),
    parseHosts(forwardAuth, 'SSOGATE_FORWARD_AUTH_HOSTS', problems),
  );
  assert.deepEqual(problems, []);
  return hosts;
}

describe('the hosts the gateway serves', () => {
  test('the public host, upstream hosts and forward-auth hosts, wildcards included', () => {
    const hosts = hostsOf(
      'wiki.corp.example=http://127.0.0.1:3000,git.corp.example/api=http://127.0.0.1:3001,/=http://127.0.0.1:4000',
      'grafana.corp.example,*.tools.example',
    );
    assert.equal(hosts.auth, 'sso.corp.example');
    assert.ok(hosts.several);
    for (const host of [
      'sso.corp.example',
      'SSO.corp.example.',
      'sso.corp.example:443',
      'wiki.corp.example',
      'git.corp.example',
      'grafana.corp.example',
      'ci.tools.example',
    ]) {
      assert.ok(hostListed(hosts, host), host);
    }
    for (const host of ['evil.example', 'tools.example', 'wiki.corp.example:8443', 'corp.example'])
      assert.ok(!hostListed(hosts, host), host);
    assert.ok(applicationHost(hosts, 'wiki.corp.example'));
    assert.ok(!applicationHost(hosts, 'sso.corp.example'));
    assert.ok(onAuthHost(hosts, 'sso.corp.example'));
    assert.ok(!onAuthHost(hosts, 'wiki.corp.example'));
    assert.ok(!onAuthHost(hosts, undefined));
  });

  test('one host only: every request is on the auth host, as before', () => {
    for (const hosts of [
      hostsOf('/=http://127.0.0.1:4000', undefined),
      hostsOf(undefined, 'sso.corp.example'),
      hostsOf('sso.corp.example=http://127.0.0.1:4000', undefined),
      // Another port of the same name shares its cookies: no handoff there.
      hostsOf(undefined, 'sso.corp.example:8443'),
    ]) {
      assert.ok(!hosts.several);
      assert.ok(onAuthHost(hosts, 'anything.example'));
      assert.ok(onAuthHost(hosts, undefined));
    }
  });

  test('with a cookie domain, a sign-in bound to it serves every host under it and no other', () => {
    const problems: string[] = [];
    const withDomain = (domain: string) =>
      servedHosts(
        'https://sso.corp.example',
        [],
        parseHosts('grafana.corp.example', 'SSOGATE_FORWARD_AUTH_HOSTS', problems),
        domain,
      );
    const hosts = withDomain('corp.example');
    const bound = domainBinding('corp.example');
    assert.equal(bound, '.corp.example');
    for (const host of [
      'sso.corp.example',
      'grafana.corp.example',
      'Wiki.Corp.Example.',
      'corp.example',
      'a.b.corp.example:8443',
    ])
      assert.ok(sessionServesHost(hosts, bound, host), host);
    for (const host of [undefined, 'corp.example.evil', 'xcorp.example', 'evil.example', ''])
      assert.ok(!sessionServesHost(hosts, bound, host), String(host));
    // Bound to another domain, or the gateway no longer setting it: no session anywhere.
    assert.ok(!sessionServesHost(withDomain('sso.corp.example'), bound, 'sso.corp.example'));
    assert.ok(!sessionServesHost(hostsOf(undefined, undefined), bound, 'sso.corp.example'));
    // The console stays on the auth host, even with no other host listed.
    const alone = servedHosts('https://sso.corp.example', [], [], 'corp.example');
    assert.ok(alone.several);
    assert.ok(!onAuthHost(alone, 'other.corp.example'));
    assert.ok(onAuthHost(alone, 'sso.corp.example'));
    assert.deepEqual(problems, []);
  });
});
