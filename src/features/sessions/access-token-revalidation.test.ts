import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validateEntry } from '../../core/index.js';
import { entryFromPreset, findPreset } from '../../foundation/presets/presets.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';

/**
 * Re-validation without a refresh token (docs/entries.md#re-validation): an
 * entry with `revalidateMinutes` keeps the sign-in's access token sealed
 * beside the session and, once the interval has passed, calls user info
 * again with it at the session's next use.
 */
describe('re-validation with the access token', () => {
  let gw: TestGateway;
  // The gateway's clock: moved past the re-validation interval by the tests.
  let now = Date.now();
  before(async () => {
    gw = await startTestGateway({
      clock: () => now,
      usernames: ['alice', 'bob', 'carol'],
      entries: ({ standard }, exampleUrl) => {
        const wechat = findPreset('wechat');
        assert.ok(wechat);
        const fromPreset = entryFromPreset(wechat, {
          id: 'wechat',
          appid: 'demo-app',
          appsecret: 'demo-secret',
          parameters: { loginBase: `${exampleUrl}/wechat`, apiBase: `${exampleUrl}/wechat` },
        });
        assert.ok(fromPreset.ok);
        return [
          {
            ...standard,
            revalidateMinutes: 5,
            revalidateGraceMinutes: 10,
            userInfoParse: [
              ...(standard.userInfoParse as unknown[]),
              { attribute: 'enabled', expression: "JSON_GET($response, 'active')" },
            ],
          },
          { ...fromPreset.entry.input, revalidateMinutes: 5 },
        ];
      },
    });
  });
  after(async () => gw.close());

  /** `subject`: the user id the entry maps (the session's record is found by it). */
  async function signIn(username: string, entryId: string, subject = username) {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url, username);
    const page = await browser.open(`${gw.url}/_sso/login/${entryId}?return_to=/p`);
    assert.equal(page.url, `${gw.url}/p`, page.body.slice(0, 300));
    const me = async () =>
      (await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' })).status;
    const kept = async () => {
      const [hash] = await gw.storage.upstreamSessions.sessionsOf(entryId, { subject });
      return hash === undefined ? undefined : gw.storage.upstreamSessions.get(hash);
    };
    return { me, kept };
  }
  const userInfoCalls = (path: string) =>
    gw.example.requests.filter((request) => request.path === path);

  test('the user-info call is made again after the interval; a user disabled at the provider ends the session', async () => {
    const { me, kept } = await signIn('alice', 'example-standard');
    const first = await kept();
    assert.ok(first?.userInfoAccess, 'the access token is kept');
    assert.equal(first.refreshToken, null);
    const token = first.userInfoAccess.accessToken;

    assert.equal(await me(), 200);
    const before = userInfoCalls('/oauth2/userinfo').length;
    now += 6 * 60_000;
    assert.equal(await me(), 200);
    const calls = userInfoCalls('/oauth2/userinfo');
    assert.equal(calls.length, before + 1, 'one re-check');
    assert.equal(calls.at(-1)?.headers.authorization, `Bearer ${token}`);
    assert.equal((await kept())?.checkedAt, now, 'the provider vouched for the session again');

    gw.example.updateUser('alice', { enabled: false });
    assert.equal(await me(), 200, 'not due yet: the session stands until the next re-check');
    now += 6 * 60_000;
    assert.equal(await me(), 401, 'user info now says enabled false: the session ended');
    assert.equal(await kept(), undefined);
  });

  test('the provider unreachable keeps the session for the grace past the due time, then ends it', async () => {
    const { me, kept } = await signIn('bob', 'example-standard');
    const signedInAt = (await kept())?.checkedAt;
    now += 6 * 60_000;
    gw.example.failNext('userinfo', { status: 503, body: 'down' });
    assert.equal(await me(), 200, 'within the grace');
    assert.equal((await kept())?.checkedAt, signedInAt, 'not vouched for');
    now += 6 * 60_000; // 12 minutes since the check: 5 + 10 not yet passed
    gw.example.failNext('userinfo', { status: 503, body: 'down' });
    assert.equal(await me(), 200);
    now += 4 * 60_000; // 16 minutes: the grace is over
    gw.example.failNext('userinfo', { status: 503, body: 'down' });
    assert.equal(await me(), 401);
  });

  test("WeChat: the token answer's openid reaches the re-check; a revoked token's errcode ends the session", async () => {
    // The WeChat preset's user id is the unionid, which the emulation makes from the id.
    const unionid = `oWx${Buffer.from('carol').toString('hex')}`;
    const { me, kept } = await signIn('carol', 'wechat', unionid);
    const access = (await kept())?.userInfoAccess;
    assert.ok(access?.values.openid, 'the named token value is kept');
    now += 6 * 60_000;
    assert.equal(await me(), 200);
    assert.equal(userInfoCalls('/wechat/sns/userinfo').at(-1)?.query.openid, access.values.openid);

    gw.example.revokeTokens(); // the next answer is 200 {"errcode":40001}
    now += 6 * 60_000;
    assert.equal(await me(), 401);
    assert.equal(await kept(), undefined);
  });
});

describe('revalidateMinutes in an entry', () => {
  const base = {
    id: 'e',
    name: 'E',
    enabled: true,
    appid: 'a',
    authorizeUrl: 'https://idp.example/authorize?state=${state}',
    tokenUrl: 'https://idp.example/token?code=${code}',
    tokenParse: "JSON_GET($response, 'access_token')",
    userInfoUrl: 'https://idp.example/me?access_token=${access_token}',
  };
  const problems = (entry: Record<string, unknown>) => {
    const result = validateEntry(entry);
    return result.ok ? [] : result.problems.map(({ code, field }) => [code, field]);
  };

  test('compiles to an interval and a grace, sixty minutes unless given', () => {
    const result = validateEntry({ ...base, revalidateMinutes: 15 });
    assert.ok(result.ok && result.entry.type === 'oauth2');
    assert.deepEqual(result.entry.revalidation, { intervalMs: 15 * 60_000, graceMs: 60 * 60_000 });
  });

  test('refused beside an oidc block, without the minutes, or when user info reads the code', () => {
    assert.deepEqual(
      problems({ ...base, oidc: { issuer: 'https://idp.example' }, revalidateMinutes: 5 }),
      [['field_invalid', 'revalidateMinutes']],
    );
    assert.deepEqual(problems({ ...base, revalidateGraceMinutes: 5 }), [
      ['field_invalid', 'revalidateGraceMinutes'],
    ]);
    assert.deepEqual(
      problems({
        ...base,
        tokenUrl: undefined,
        tokenParse: undefined,
        codeInUserInfo: true,
        userInfoUrl: 'https://idp.example/me?code=${code}',
        revalidateMinutes: 5,
      }),
      [['field_invalid', 'revalidateMinutes']],
    );
  });
});
