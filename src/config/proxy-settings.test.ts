import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostAllowed, parseAccessRules, parseHosts, parseUpstreams } from './proxy-settings.js';

function upstreams(raw: unknown): { value: unknown; problems: string[] } {
  const problems: string[] = [];
  return { value: parseUpstreams(raw, 'SSOGATE_UPSTREAM', problems), problems };
}

describe('SSOGATE_UPSTREAM', () => {
  test('one URL, PREFIX=URL pairs or JSON; longest prefix first, trailing slash dropped', () => {
    assert.deepEqual(upstreams('http://127.0.0.1:3000/').value, [
      { prefix: '/', origin: 'http://127.0.0.1:3000' },
    ]);
    const expected = [
      { prefix: '/app/api', origin: 'http://127.0.0.1:3001' },
      { prefix: '/app', origin: 'https://app.internal' },
      { prefix: '/', origin: 'http://127.0.0.1:4000' },
    ];
    assert.deepEqual(
      upstreams(
        '/=http://127.0.0.1:4000, /app/=https://app.internal,/app/api=http://127.0.0.1:3001',
      ).value,
      expected,
    );
    assert.deepEqual(
      upstreams(
        '{"/": "http://127.0.0.1:4000", "/app": "https://app.internal", "/app/api": "http://127.0.0.1:3001"}',
      ).value,
      expected,
    );
    assert.deepEqual(upstreams({ '/app': 'https://app.internal' }).value, [
      { prefix: '/app', origin: 'https://app.internal' },
    ]);
  });

  test('every bad part is reported', () => {
    const { problems } = upstreams(
      'app=http://x,/_sso/x=http://x,/a=http://x/path,/b=nope,/c=http://x,/c/=http://y,/d/../e=http://x',
    );
    assert.equal(problems.length, 6, problems.join('\n'));
    assert.match(problems[0] ?? '', /prefix 'app': must be a path starting with \//);
    assert.match(problems[1] ?? '', /under \/_sso are the gateway's own/);
    assert.match(problems[2] ?? '', /must be an origin only/);
    assert.match(problems[3] ?? '', /'nope' is not a URL/);
    assert.match(problems[4] ?? '', /'\/c' is listed twice/);
    assert.match(problems[5] ?? '', /dot segments/);
    assert.match(upstreams('{"/": ').problems[0] ?? '', /not valid JSON/);
  });
});

describe('SSOGATE_FORWARD_AUTH_HOSTS', () => {
  test('exact hosts with ports, and wildcards for subdomains only', () => {
    const problems: string[] = [];
    const hosts = parseHosts('App.Corp.Example, *.tools.example ,wiki.example:8443', 'V', problems);
    assert.deepEqual(problems, []);
    assert.ok(hostAllowed(hosts, 'app.corp.example'));
    assert.ok(hostAllowed(hosts, 'ci.tools.example'));
    assert.ok(!hostAllowed(hosts, 'tools.example'));
    assert.ok(!hostAllowed(hosts, 'eviltools.example'));
    assert.ok(hostAllowed(hosts, 'wiki.example:8443'));
    assert.ok(!hostAllowed(hosts, 'wiki.example'));
    assert.ok(!hostAllowed(hosts, 'app.corp.example.evil.example'));
  });
});

describe('SSOGATE_ACCESS_RULES', () => {
  test('a JSON list in the variable, or a JSON or YAML file', async () => {
    const problems: string[] = [];
    const inline = parseAccessRules(
      '[{"path": "/Admin/", "users": ["root"], "admins": true}]',
      'V',
      '/',
      problems,
    );
    assert.deepEqual(inline, [
      {
        host: undefined,
        path: '/admin',
        users: ['root'],
        departments: [],
        groups: [],
        admins: true,
      },
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'ssogate-rules-'));
    await writeFile(
      join(dir, 'rules.yaml'),
      '- path: /sales\n  host: app.corp.example\n  departments: [Sales]\n',
    );
    assert.deepEqual(parseAccessRules('rules.yaml', 'V', dir, problems), [
      {
        host: 'app.corp.example',
        path: '/sales',
        users: [],
        departments: ['Sales'],
        groups: [],
        admins: false,
      },
    ]);
    assert.deepEqual(problems, []);
  });

  test('every bad rule is reported with its number and field', () => {
    const problems: string[] = [];
    parseAccessRules(
      [
        { path: 'admin', users: ['a'] },
        { path: '/x', usres: ['a'] },
        { path: '/y', admins: 'yes' },
        { path: '/z', users: [] },
        { path: '/z', users: ['b'] },
      ],
      'V',
      '/',
      problems,
    );
    assert.equal(problems.length, 4, problems.join('\n'));
    assert.match(problems[0] ?? '', /^V: rule 1: path: must be a path/);
    assert.match(problems[1] ?? '', /^V: rule 2: 'usres' is not a rule field/);
    assert.match(problems[2] ?? '', /^V: rule 3: admins must be true or false/);
    assert.match(problems[3] ?? '', /^V: rule 5 repeats the path '\/z'/);
    const missing: string[] = [];
    parseAccessRules('no-such-file.json', 'V', '/', missing);
    assert.match(missing[0] ?? '', /cannot read no-such-file.json \(ENOENT\)/);
  });
});
