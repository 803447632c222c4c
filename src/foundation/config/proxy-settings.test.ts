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

describe('SSOGATE_UPSTREAM keyed by host', () => {
  test('a host, a host and a path, beside the path-only form; host-keyed first', () => {
    const { value, problems } = upstreams(
      '/=http://127.0.0.1:4000,Wiki.Corp.Example.=http://10.0.0.5:3000,git.corp.example/=http://10.0.0.6:3000,git.corp.example/api/=http://10.0.0.7:3000,git.corp.example:443/x=http://10.0.0.8:3000',
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(value, [
      { host: 'git.corp.example', prefix: '/api', origin: 'http://10.0.0.7:3000' },
      { host: 'git.corp.example', prefix: '/x', origin: 'http://10.0.0.8:3000' },
      { host: 'wiki.corp.example', prefix: '/', origin: 'http://10.0.0.5:3000' },
      { host: 'git.corp.example', prefix: '/', origin: 'http://10.0.0.6:3000' },
      { prefix: '/', origin: 'http://127.0.0.1:4000' },
    ]);
  });

  test('every bad host key is reported at once', () => {
    const { problems } = upstreams(
      '*.corp.example=http://x,https://wiki.example=http://x,wiki.example/_sso=http://x,wiki.example=http://x,WIKI.example/=http://y,bad_host=http://x',
    );
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.match(
      problems[0] ?? '',
      /'\*\.corp\.example': must be a path starting with \/ or a host/,
    );
    assert.match(
      problems[1] ?? '',
      /'https:\/\/wiki\.example': must be a path starting with \/ or a host/,
    );
    assert.match(problems[2] ?? '', /under \/_sso are the gateway's own/);
    assert.match(problems[3] ?? '', /'wiki\.example' is listed twice/);
    assert.match(problems[4] ?? '', /'bad_host': must be a path starting with \/ or a host/);
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

test('a rule may ask for a second factor, given within a duration', () => {
  const problems: string[] = [];
  const rules = parseAccessRules(
    '[{"path": "/pay", "users": ["ann"], "factor": 2, "within": "15m"}, {"path": "/ops", "admins": true, "factor": 2}, {"path": "/wiki", "admins": true, "factor": 1}]',
    'V',
    '.',
    problems,
  );
  assert.deepEqual(problems, []);
  assert.equal(rules.find((r) => r.path === '/pay')?.withinMs, 900_000);
  assert.equal(rules.find((r) => r.path === '/ops')?.factor, 2);
  assert.equal(rules.find((r) => r.path === '/ops')?.withinMs, undefined);
  assert.equal(rules.find((r) => r.path === '/wiki')?.factor, undefined);
  const bad: string[] = [];
  parseAccessRules(
    '[{"path": "/a", "factor": 3}, {"path": "/b", "within": "15m"}, {"path": "/c", "factor": 2, "within": "soon"}]',
    'V',
    '.',
    bad,
  );
  assert.deepEqual(bad, [
    'V: rule 1: factor must be 1 or 2',
    'V: rule 2: within needs factor: 2',
    'V: rule 3: within must be a duration such as 90s, 15m or 8h',
  ]);
});
