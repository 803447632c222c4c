import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiFixture } from '../admin-api/test-support/api-fixtures.js';
import { json, withApi } from '../admin-api/test-support/api-fixtures.js';
import { capturingLogger } from '../../test-support/log-capture.js';

/** Values planted where the trace must never show them. */
const canaries = {
  secret: 'CANARY-APPSECRET-5d1e',
  code: 'CANARY-CODE-8b2c',
  access: 'CANARY-ACCESS-3f9a',
  refresh: 'CANARY-REFRESH-77c0',
};

interface Provider {
  readonly url: string;
  /** The path and query of every request the provider received. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

/** A provider on loopback answering a token with the canary tokens, and a user for it. */
async function startProvider(): Promise<Provider> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '/');
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    response.setHeader('content-type', 'application/json');
    if (url.pathname === '/token') {
      const good = url.searchParams.get('code') === canaries.code;
      response.statusCode = good ? 200 : 400;
      response.end(
        JSON.stringify(
          good
            ? {
                access_token: canaries.access,
                refresh_token: canaries.refresh,
                copy: canaries.access,
              }
            : { error: 'invalid_grant' },
        ),
      );
      return;
    }
    if (url.pathname === '/user' && url.searchParams.get('t') === canaries.access) {
      response.end(JSON.stringify({ id: 4242, login: 'octo', email: 'octo@example.com' }));
      return;
    }
    response.statusCode = 401;
    response.end('{"message":"Bad credentials"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

const entryFor = (provider: Provider, mapping: string) => ({
  id: 'hub',
  name: 'Hub',
  enabled: true,
  appid: 'client-1',
  appsecret: canaries.secret,
  authorizeUrl:
    'https://idp.example/authorize?client_id=${appid}&state=${state}&redirect_uri=${redirect_uri}',
  tokenUrl: `${provider.url}/token?client_id=\${appid}&cs=\${app_secret}&code=\${code}`,
  tokenParse: "JSON_GET($response, 'access_token')",
  userInfoUrl: `${provider.url}/user?t=\${access_token}`,
  userInfoParse: mapping,
});

const wrongMapping = "userId = JSON_GET($response, 'userid')\nemail = JSON_GET($response, 'email')";
const rightMapping = "userId = JSON_GET($response, 'id')\nemail = JSON_GET($response, 'email')";

async function withProvider(
  run: (api: ApiFixture, provider: Provider, logs: string[], elsewhere: Provider) => Promise<void>,
): Promise<void> {
  const provider = await startProvider();
  // The same server on another port: another origin (RFC 6454).
  const elsewhere = await startProvider();
  const { logger, lines } = capturingLogger();
  try {
    await withApi(
      (api) => run(api, provider, lines, elsewhere),
      { logger },
      {
        SSOGATE_OUTBOUND_ALLOW: '127.0.0.1',
      },
    );
  } finally {
    await Promise.all([provider.close(), elsewhere.close()]);
  }
}

interface Started {
  id: string;
  url: string;
}

async function start(api: ApiFixture, url: string, payload?: object): Promise<Started> {
  const response = await api.inject({
    method: 'POST',
    url,
    headers: api.token,
    ...(payload === undefined ? {} : { payload }),
  });
  assert.equal(response.statusCode, 201, response.body);
  return json<Started>(response);
}

async function save(api: ApiFixture, entry: object): Promise<void> {
  const created = await api.inject({
    method: 'POST',
    url: '/_sso/api/entries',
    headers: api.token,
    payload: entry,
  });
  assert.equal(created.statusCode, 201, created.body);
}

/** The provider's redirect back to the gateway, with the canary code and the test's state. */
async function callBack(api: ApiFixture, started: Started, entryId = 'hub') {
  const state = new URL(started.url).searchParams.get('state') ?? '';
  return api.inject({
    method: 'GET',
    url: `/_sso/callback/${entryId}?code=${canaries.code}&state=${encodeURIComponent(state)}`,
    headers: { accept: 'text/html' },
  });
}

interface TraceAnswer {
  trace: {
    status: string;
    outcome: string | null;
    error: { code: string } | null;
    steps: { name: string; outcome: string; results: { label: string; outcome: string }[] }[];
    user: Record<string, unknown> | null;
    provisioning: { action: string; code?: string } | null;
  };
  text: string;
}

async function readTrace(api: ApiFixture, id: string): Promise<TraceAnswer> {
  const response = await api.inject({
    method: 'GET',
    url: `/_sso/api/test-sign-ins/${id}`,
    headers: api.token,
  });
  assert.equal(response.statusCode, 200, response.body);
  return json<TraceAnswer>(response);
}

describe('test sign-in', () => {
  test('a wrong mapping shows in the trace; the mended draft succeeds; nobody is signed in', async () => {
    await withProvider(async (api, provider) => {
      await save(api, entryFor(provider, wrongMapping));

      const first = await start(api, '/_sso/api/entries/hub/test-sign-in');
      assert.match(first.url, /^https:\/\/idp\.example\/authorize\?/);
      assert.equal((await readTrace(api, first.id)).trace.status, 'waiting');
      const page = await callBack(api, first);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Nobody was signed in/);
      assert.equal(page.headers['set-cookie'], undefined);

      const failed = await readTrace(api, first.id);
      assert.equal(failed.trace.status, 'done');
      assert.equal(failed.trace.outcome, 'failure');
      assert.equal(failed.trace.error?.code, 'userinfo_parse_failed');
      assert.deepEqual(
        failed.trace.steps.map((step) => [step.name, step.outcome]),
        [
          ['callback', 'ok'],
          ['token', 'ok'],
          ['user info', 'failed'],
        ],
      );
      const token = failed.trace.steps[1];
      assert.ok(token?.results.some((r) => r.label.startsWith('tokenParse') && r.outcome === 'ok'));
      const userInfo = failed.trace.steps[2];
      assert.ok(userInfo?.results.some((r) => r.label.startsWith('userId') && r.outcome !== 'ok'));
      assert.ok(userInfo?.results.some((r) => r.label.startsWith('email') && r.outcome === 'ok'));
      assert.match(failed.text, /"id":4242/);

      // The draft, mended from what the trace showed; the stored secret counts.
      const draft = { ...entryFor(provider, rightMapping), appsecret: undefined };
      const second = await start(api, '/_sso/api/entries/test-sign-in', {
        entry: draft,
        existingId: 'hub',
      });
      await callBack(api, second);
      const passed = await readTrace(api, second.id);
      assert.equal(passed.trace.outcome, 'success', passed.text);
      assert.equal(passed.trace.user?.userId, '4242');
      assert.equal(passed.trace.provisioning?.action, 'create');
      assert.match(passed.text, /Provisioning would: create/);

      assert.equal(await api.storage.users.findByUserId('4242'), undefined);
      const users = json<{ total: number }>(
        await api.inject({ method: 'GET', url: '/_sso/api/users', headers: api.token }),
      );
      assert.equal(users.total, 0);
      const events = await api.storage.audit.list({ limit: 10 });
      assert.deepEqual(
        events
          .filter((event) => event.kind !== 'entry_change')
          .map((event) => [event.kind, event.outcome]),
        [
          ['test_sign_in', 'success'],
          ['test_sign_in', 'failure'],
        ],
      );
    });
  });

  test('a draft whose server posts its callback (form_post) asks for it, and its posted callback is traced', async () => {
    await withProvider(async (api, provider) => {
      // The stored entry expects a query; the draft under test changes that.
      await save(api, entryFor(provider, rightMapping));
      const started = await start(api, '/_sso/api/entries/test-sign-in', {
        entry: { ...entryFor(provider, rightMapping), responseMode: 'form_post' },
        existingId: 'hub',
      });
      const authorize = new URL(started.url);
      assert.equal(authorize.searchParams.get('response_mode'), 'form_post');
      const state = authorize.searchParams.get('state') ?? '';
      const page = await api.inject({
        method: 'POST',
        url: '/_sso/callback/hub',
        headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ code: canaries.code, state }).toString(),
      });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Nobody was signed in/);
      const passed = await readTrace(api, started.id);
      assert.equal(passed.trace.outcome, 'success', passed.text);
      assert.equal(passed.trace.user?.userId, '4242');
    });
  });

  test('no canary of the secret, the code or the tokens in the trace or the log', async () => {
    await withProvider(async (api, provider, logs) => {
      const started = await start(api, '/_sso/api/entries/test-sign-in', {
        entry: entryFor(provider, rightMapping),
      });
      await callBack(api, started);
      const answer = await readTrace(api, started.id);
      assert.equal(answer.trace.outcome, 'success', answer.text);
      const seen = [JSON.stringify(answer), answer.text, logs.join('\n')].join('\n');
      for (const canary of Object.values(canaries)) {
        assert.ok(!seen.includes(canary), `${canary} leaked`);
      }
      // The calls are there, masked.
      assert.match(
        answer.text,
        /GET http:\/\/127\.0\.0\.1:\d+\/token\?client_id=client-1&cs=\*\*\*&code=\*\*\*/,
      );
      assert.match(answer.text, /\/user\?t=\*\*\*/);
    });
  });

  test('provisioning refusals end the trace with their code: no sign-up, then a disabled user', async () => {
    await withProvider(async (api, provider) => {
      const closed = await start(api, '/_sso/api/entries/test-sign-in', {
        entry: { ...entryFor(provider, rightMapping), provisioning: { createUsers: false } },
      });
      const page = await callBack(api, closed);
      assert.match(page.body, /Nobody was signed in/);
      assert.match(page.body, /signup_not_allowed/);
      const refused = await readTrace(api, closed.id);
      assert.equal(refused.trace.outcome, 'failure', refused.text);
      assert.equal(refused.trace.error?.code, 'signup_not_allowed');
      assert.deepEqual(
        { action: refused.trace.provisioning?.action, code: refused.trace.provisioning?.code },
        { action: 'refuse', code: 'signup_not_allowed' },
      );
      assert.match(refused.text, /Provisioning would: refuse \(signup_not_allowed\)/);
      assert.equal(await api.storage.users.findByUserId('4242'), undefined);

      // The user exists, from this entry, but an administrator disabled it.
      const { user } = await api.storage.users.insertIfAbsent(
        { userId: '4242', sourceEntryId: 'hub' },
        0,
      );
      await api.storage.users.setEnabled(user.id, false, 0);
      const locked = await start(api, '/_sso/api/entries/test-sign-in', {
        entry: entryFor(provider, rightMapping),
      });
      await callBack(api, locked);
      const disabled = await readTrace(api, locked.id);
      assert.equal(disabled.trace.error?.code, 'user_disabled', disabled.text);
      assert.equal(disabled.trace.provisioning?.action, 'refuse');
      assert.match(disabled.text, /Provisioning would: refuse \(user_disabled\)/);
      assert.equal((await api.storage.users.findByUserId('4242'))?.enabled, false);
      assert.equal((await api.storage.users.list({ limit: 10, offset: 0 })).total, 1);
    });
  });

  test("a user id in an entry's namespace is refused in the plan as in a sign-in", async () => {
    await withProvider(async (api, provider) => {
      assert.equal(
        await api.storage.entries.create(entryFor(provider, rightMapping) as never, 0),
        true,
      );
      const started = await start(api, '/_sso/api/entries/test-sign-in', {
        entry: entryFor(provider, "userId = 'hub:4242'"),
      });
      await callBack(api, started);
      const reserved = await readTrace(api, started.id);
      assert.equal(reserved.trace.error?.code, 'user_id_reserved', reserved.text);
      assert.match(reserved.text, /Provisioning would: refuse \(user_id_reserved\)/);
      assert.equal(await api.storage.users.findByUserId('hub:4242'), undefined);
    });
  });

  test('bad input: unknown entry, unknown test, expired trace, another administrator', async () => {
    await withProvider(async (api, provider) => {
      const code = (response: { body: string }) =>
        (JSON.parse(response.body) as { error: { code: string } }).error.code;
      const unknownEntry = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries/nope/test-sign-in',
        headers: api.token,
      });
      assert.equal(unknownEntry.statusCode, 404);
      assert.equal(code(unknownEntry), 'entry_unknown');

      const unknownTest = await api.inject({
        method: 'GET',
        url: '/_sso/api/test-sign-ins/nothing-here',
        headers: api.token,
      });
      assert.equal(unknownTest.statusCode, 404);
      assert.equal(code(unknownTest), 'test_sign_in_unknown');

      const noState = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries/test-sign-in',
        headers: api.token,
        payload: {
          entry: {
            ...entryFor(provider, rightMapping),
            authorizeUrl: 'https://idp.example/authorize?client_id=${appid}',
          },
        },
      });
      assert.equal(noState.statusCode, 400);
      assert.equal(code(noState), 'test_sign_in_needs_state');

      const started = await start(api, '/_sso/api/entries/test-sign-in', {
        entry: entryFor(provider, rightMapping),
      });
      const other = await api.signIn('other-admin', true);
      const foreign = await api.inject({
        method: 'GET',
        url: `/_sso/api/test-sign-ins/${started.id}`,
        headers: other.cookie,
      });
      assert.equal(foreign.statusCode, 403);
      assert.equal(code(foreign), 'test_sign_in_forbidden');

      // Past the callback's time the state is not a test's: the sign-in flow refuses it.
      api.tick(11 * 60_000);
      const late = await callBack(api, started);
      assert.equal(late.statusCode, 404);
      assert.match(late.body, /entry_unknown/);
      assert.doesNotMatch(late.body, /Test sign-in finished/);
      const over = await readTrace(api, started.id);
      assert.equal(over.trace.status, 'done');
      assert.equal(over.trace.error?.code, 'state_invalid');
      api.tick(20 * 60_000);
      const expired = await api.inject({
        method: 'GET',
        url: `/_sso/api/test-sign-ins/${started.id}`,
        headers: api.token,
      });
      assert.equal(expired.statusCode, 410);
      assert.equal(code(expired), 'test_sign_in_expired');
    });
  });

  test("a draft calling another origin than the stored entry's needs its secret again; the audit lists the origins", async () => {
    await withProvider(async (api, provider, _logs, elsewhere) => {
      await save(api, entryFor(provider, rightMapping));
      const moved = { ...entryFor(elsewhere, rightMapping), appsecret: undefined };

      // The stored secret is not sent to a host the entry never called.
      const refused = await api.inject({
        method: 'POST',
        url: '/_sso/api/entries/test-sign-in',
        headers: api.token,
        payload: { entry: moved, existingId: 'hub' },
      });
      assert.equal(refused.statusCode, 400, refused.body);
      const { error } = json<{ error: { code: string; problems: { field: string }[] } }>(refused);
      assert.equal(error.code, 'request_invalid');
      assert.deepEqual(
        error.problems.map((problem) => problem.field),
        ['appsecret'],
      );
      assert.match(refused.body, new RegExp(elsewhere.url.replace(/[.:/]/g, '\\$&')));
      // Saving the same draft is refused by the same rule, with the same code.
      const saved = await api.inject({
        method: 'PUT',
        url: '/_sso/api/entries/hub',
        headers: api.token,
        payload: moved,
      });
      assert.equal(saved.statusCode, 400, saved.body);
      assert.equal(json<{ error: { code: string } }>(saved).error.code, 'request_invalid');
      assert.match(saved.body, /appsecret/);
      assert.equal(elsewhere.requests.length, 0);

      // With the secret typed again, the test runs against the other host.
      const typed = await start(api, '/_sso/api/entries/test-sign-in', {
        entry: { ...moved, appsecret: canaries.secret },
        existingId: 'hub',
      });
      await callBack(api, typed);
      const ranElsewhere = await readTrace(api, typed.id);
      assert.equal(ranElsewhere.trace.outcome, 'success', ranElsewhere.text);
      assert.ok(elsewhere.requests.some((request) => request.startsWith('/token?')));

      // On the stored entry's own origin, the stored secret counts.
      const before = provider.requests.length;
      const same = await start(api, '/_sso/api/entries/test-sign-in', {
        entry: { ...entryFor(provider, rightMapping), appsecret: undefined },
        existingId: 'hub',
      });
      await callBack(api, same);
      const ranHere = await readTrace(api, same.id);
      assert.equal(ranHere.trace.outcome, 'success', ranHere.text);
      assert.ok(
        provider.requests.slice(before).some((request) => request.includes(canaries.secret)),
      );

      const events = await api.storage.audit.list({ limit: 10 });
      assert.deepEqual(
        events
          .filter((event) => event.kind === 'test_sign_in')
          .map((event) => [event.outcome, event.detail?.origins]),
        [
          ['success', [provider.url]],
          ['success', [elsewhere.url]],
        ],
      );
    });
  });
});
