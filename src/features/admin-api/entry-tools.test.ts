import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { functionNames, placeholderMatrix, userAttributes } from '../../core/index.js';
import type { ApiFixture } from './test-support/api-fixtures.js';
import { canarySecret, json, withApi } from './test-support/api-fixtures.js';
import { entryModelAnswer, entryTestAnswer, entryValidationAnswer } from './response-schemas.js';
import { entryWithId } from '../../core/test-support/entries.js';
import { entryFromPreset, findPreset } from '../../foundation/presets/presets.js';

interface ErrorBody {
  error: { code: string; message: string; problems?: { field: string }[] };
}
interface Problem {
  field: string;
  code: string;
  message: string;
  line?: number;
  column?: number;
}

/** POST /entry-validation or /entry-test with the API token. */
const validate = (api: ApiFixture, payload: unknown) =>
  api.inject({
    method: 'POST',
    url: '/_sso/api/entry-validation',
    headers: api.token,
    payload: payload as object,
  });
const tryEntry = (api: ApiFixture, payload: unknown) =>
  api.inject({
    method: 'POST',
    url: '/_sso/api/entry-test',
    headers: api.token,
    payload: payload as object,
  });

const secretUrl = 'https://idp.example/token?code=${code}&secret=${app_secret}';

describe('admin API: entry-validation', () => {
  test('a valid entry: ok with warnings; nothing is stored', async () => {
    await withApi(async (api) => {
      const response = await validate(
        api,
        entryWithId('corp', { authorizeUrl: 'http://idp.example/authorize?s=${state}' }),
      );
      assert.equal(response.statusCode, 200);
      const verdict = entryValidationAnswer.parse(json(response));
      assert.ok(verdict.ok);
      assert.ok(verdict.warnings.some((warning) => /plain http/.test(warning)));
      assert.equal(await api.storage.entries.get('corp'), undefined);
      assert.doesNotMatch(response.body, new RegExp(canarySecret));
    });
  });

  test('a draft: every problem with its field and position, never the secret', async () => {
    await withApi(async (api) => {
      const response = await validate(api, {
        id: 'corp',
        appsecret: canarySecret,
        tokenParse: "JSON_GET($response, 'a'",
        authorizeUrl: 'https://idp.example/?s=${app_secret}',
      });
      assert.equal(response.statusCode, 200);
      const verdict = json<{ ok: boolean; problems: Problem[] }>(response);
      assert.equal(verdict.ok, false);
      const byField = new Map(verdict.problems.map((problem) => [problem.field, problem]));
      for (const field of [
        'name',
        'enabled',
        'tokenUrl',
        'userInfoUrl',
        'tokenParse',
        'authorizeUrl',
      ])
        assert.ok(byField.has(field), field);
      assert.equal(byField.get('tokenParse')?.code, 'expression_syntax');
      assert.equal(typeof byField.get('tokenParse')?.column, 'number');
      assert.equal(byField.get('authorizeUrl')?.code, 'template_placeholder_not_allowed');
      assert.equal(byField.get('name')?.message, 'is required');
      entryValidationAnswer.parse(verdict);
      assert.doesNotMatch(response.body, new RegExp(canarySecret));
    });
  });

  test('existingId: validated as an update, so the stored secret counts', async () => {
    await withApi(async (api) => {
      await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: api.token,
        payload: entryWithId('corp', { tokenUrl: secretUrl }),
      });
      const draft = {
        ...entryWithId('corp', { tokenUrl: secretUrl }),
        appsecret: undefined,
        id: undefined,
      };
      const asNew = json<{ ok: boolean; problems: Problem[] }>(
        await validate(api, { ...draft, id: 'corp' }),
      );
      // Without the stored secret, ${app_secret} has no value: still valid
      // (the secret may be set later), so compare with a clear of it instead.
      assert.equal(asNew.ok, true);
      const update = await validate(api, { ...draft, existingId: 'corp' });
      assert.deepEqual(json(update), { ok: true, warnings: [] });

      const unknown = await validate(api, { ...draft, existingId: 'nope' });
      assert.equal(unknown.statusCode, 404);
      assert.equal(json<ErrorBody>(unknown).error.code, 'entry_unknown');
      const mismatch = await validate(api, { ...draft, id: 'other', existingId: 'corp' });
      assert.equal(mismatch.statusCode, 400);
      assert.equal(json<ErrorBody>(mismatch).error.problems?.[0]?.field, 'id');
      const badId = await validate(api, { ...draft, existingId: 42 });
      assert.equal(badId.statusCode, 400);
      assert.equal(json<ErrorBody>(badId).error.problems?.[0]?.field, 'existingId');
      const notJson = await api.inject({
        method: 'POST',
        url: '/_sso/api/entry-validation',
        headers: { ...api.token, 'content-type': 'text/plain' },
        payload: 'id=corp',
      });
      assert.equal(notJson.statusCode, 400);
      assert.equal(json<ErrorBody>(notJson).error.problems?.[0]?.field, 'body');
      assert.doesNotMatch(JSON.stringify(api.bodies), new RegExp(canarySecret));
    });
  });
});

describe('admin API: entry-test', () => {
  const entry = entryWithId('corp', {
    tokenValues: [{ name: 'openid', expression: "JSON_GET($response, 'openid')" }],
    userInfoParse: [
      { attribute: 'userId', expression: "JSON_GET($response, 'id')" },
      { attribute: 'email', expression: "JSON_GET($response, 'mail')" },
    ],
  });

  test('runs the samples: masked token and values, the mapped user', async () => {
    await withApi(async (api) => {
      const response = await tryEntry(api, {
        entry,
        tokenResponse: '{"access_token":"AT-4f2a9c77","openid":"OPENID-998877"}',
        userInfoResponse: '{"id":"alice","mail":"alice@example.com"}',
      });
      assert.equal(response.statusCode, 200);
      const result = entryTestAnswer.parse(json(response));
      assert.deepEqual(result, {
        ok: true,
        // Each row of the parsing with what it made of the sample.
        mapping: [
          { attribute: 'userId', row: 1, required: true, outcome: 'mapped', value: 'alice' },
          {
            attribute: 'email',
            row: 2,
            required: false,
            outcome: 'mapped',
            value: 'alice@example.com',
          },
        ],
        accessToken: '***',
        tokenValues: { openid: '***' },
        values: { openid: '***' },
        user: {
          userId: 'alice',
          userName: null,
          email: 'alice@example.com',
          mobile: null,
          department: null,
          enabled: null,
          extra: {},
        },
      });
      assert.doesNotMatch(response.body, /AT-4f2a9c77|OPENID-998877/);
      assert.doesNotMatch(response.body, new RegExp(canarySecret));
    });
  });

  test('a mapping that reads a token value maps it from the token sample, as a sign-in does', async () => {
    await withApi(async (api) => {
      const response = await tryEntry(api, {
        entry: {
          ...entry,
          userInfoParse: [
            { attribute: 'userId', expression: "TOKEN_VALUE('openid')" },
            { attribute: 'email', expression: "JSON_GET($response, 'mail')" },
          ],
        },
        tokenResponse: '{"access_token":"AT-4f2a9c77","openid":"OPENID-998877"}',
        userInfoResponse: '{"mail":"alice@example.com"}',
      });
      assert.equal(response.statusCode, 200, response.body);
      const result = entryTestAnswer.parse(json(response));
      assert.ok(result.ok, response.body);
      assert.equal(result.mapping?.[0]?.outcome, 'mapped');
      assert.equal(result.user.email, 'alice@example.com');
    });
  });

  test('an entry that reads groups shows the groups the sample gives', async () => {
    await withApi(async (api) => {
      const response = await tryEntry(api, {
        entry: {
          ...entry,
          groupMapping: {
            expression: "JSON_GET($response, 'teams')",
            adminGroups: ['ops'],
          },
        },
        tokenResponse: '{"access_token":"AT-4f2a9c77","openid":"OPENID-998877"}',
        userInfoResponse: '{"id":"alice","mail":"alice@example.com","teams":["ops","dev"]}',
      });
      assert.equal(response.statusCode, 200, response.body);
      const result = entryTestAnswer.parse(json(response));
      assert.ok(result.ok);
      assert.deepEqual(result.user.groups, ['ops', 'dev']);
    });
  });

  test('an entry without a token exchange reads the user from the user-info sample alone', async () => {
    await withApi(async (api) => {
      const response = await tryEntry(api, {
        entry: {
          ...entry,
          tokenUrl: '',
          tokenParse: '',
          tokenValues: [],
          codeInUserInfo: true,
          userInfoUrl: 'https://idp.example/userinfo?code=${code}',
        },
        tokenResponse: '',
        userInfoResponse: '{"id":"alice","mail":"alice@example.com"}',
      });
      assert.equal(response.statusCode, 200, response.body);
      const result = json<{ ok: boolean; user: { userId: string } }>(response);
      assert.equal(result.ok, true);
      assert.equal(result.user.userId, 'alice');
    });
  });

  test('each step fails with its own code and position, secrets masked', async () => {
    await withApi(async (api) => {
      const run = async (body: Record<string, unknown>) => {
        const response = await tryEntry(api, {
          entry,
          tokenResponse: '{"access_token":"AT-1"}',
          userInfoResponse: '{"id":"a"}',
          ...body,
        });
        assert.equal(response.statusCode, 200);
        return entryTestAnswer.parse(json(response));
      };
      const token = await run({ tokenResponse: `{"error":"bad","echo":"${canarySecret}"}` });
      assert.ok(!token.ok);
      assert.equal(token.step, 'token');
      assert.equal(token.error.code, 'key_not_found');

      const userinfo = await run({
        tokenResponse: '{"access_token":"AT-77889900","openid":"x"}',
        userInfoResponse: '{"name":"no id here","t":"AT-77889900"}',
      });
      assert.ok(!userinfo.ok);
      assert.equal(userinfo.step, 'userinfo');
      assert.equal(userinfo.error.code, 'key_not_found');

      const broken = await run({ entry: { ...entry, tokenParse: "JSON_GET($response 'x')" } });
      assert.ok(!broken.ok);
      assert.equal(broken.step, 'entry');
      assert.equal(broken.error.code, 'entry_invalid');
      assert.ok(broken.problems?.some((problem) => problem.field === 'tokenParse'));
      assert.doesNotMatch(JSON.stringify(api.bodies), new RegExp(`${canarySecret}|AT-77889900`));
    });
  });

  test('every line of a text parsing is reported; a missing optional attribute is left unset', async () => {
    await withApi(async (api) => {
      const userInfoParse = [
        '# the sample lacks org and phone',
        "userId = JSON_GET($response, 'id')",
        "email = JSON_GET($response, 'mail')",
        "department = JSON_GET($response, 'org')",
        "required mobile = JSON_GET($response, 'phone')",
        // A wrong expression fails whatever the attribute: the mail is no JWT.
        "userName = JSON_GET(JWT_CLAIMS_UNVERIFIED(JSON_GET($response, 'mail')), 'name')",
      ].join('\n');
      const response = await tryEntry(api, {
        entry: { ...entry, userInfoParse },
        tokenResponse: '{"access_token":"AT-1","openid":"x"}',
        userInfoResponse: '{"id":"alice","mail":"alice@example.com"}',
      });
      const result = entryTestAnswer.parse(json(response));
      assert.ok(!result.ok);
      assert.equal(result.step, 'userinfo');
      const lines = (result.mapping ?? []).map((line) => [
        line.line,
        line.attribute,
        line.outcome,
        line.error?.code,
      ]);
      assert.deepEqual(lines, [
        [2, 'userId', 'mapped', undefined],
        [3, 'email', 'mapped', undefined],
        [4, 'department', 'missing', 'key_not_found'],
        [5, 'mobile', 'failed', 'key_not_found'],
        [6, 'userName', 'failed', 'jwt_malformed'],
      ]);
      // The failure names every failed line, by its line and attribute.
      assert.match(result.error.message, /^line 5, mobile: .*'phone'.*; line 6, userName: /);

      // Without the failing lines, the optional department does not stop the sign-in.
      const optional = await tryEntry(api, {
        entry: { ...entry, userInfoParse: userInfoParse.split('\n').slice(0, 4).join('\n') },
        tokenResponse: '{"access_token":"AT-1","openid":"x"}',
        userInfoResponse: '{"id":"alice","mail":"alice@example.com"}',
      });
      const passed = entryTestAnswer.parse(json(optional));
      assert.ok(passed.ok, JSON.stringify(passed));
      assert.equal(passed.user.department, null);
    });
  });

  test('bad input names the field; the stored secret counts with existingId', async () => {
    await withApi(async (api) => {
      const cases: [Record<string, unknown>, string][] = [
        [{ entry, tokenResponse: 1, userInfoResponse: '' }, 'body.tokenResponse'],
        [{ entry, tokenResponse: '' }, 'body.userInfoResponse'],
        [{ entry: 'x', tokenResponse: '', userInfoResponse: '' }, 'body.entry'],
        [{ entry, tokenResponse: '', userInfoResponse: '', more: 1 }, 'body.more'],
      ];
      for (const [payload, field] of cases) {
        const response = await tryEntry(api, payload);
        assert.equal(response.statusCode, 400, field);
        assert.equal(json<ErrorBody>(response).error.problems?.[0]?.field, field);
      }
      await api.inject({
        method: 'POST',
        url: '/_sso/api/entries',
        headers: api.token,
        payload: entry,
      });
      const withStored = await tryEntry(api, {
        entry: { ...entry, appsecret: undefined, id: undefined },
        existingId: 'corp',
        tokenResponse: `{"access_token":"AT-1","openid":"${canarySecret}"}`,
        userInfoResponse: `{"id":"alice","mail":"${canarySecret}"}`,
      });
      const result = entryTestAnswer.parse(json(withStored));
      // The stored secret is known to the test, so it is masked wherever it shows.
      assert.ok(result.ok);
      assert.equal(result.user.email, '***');
      assert.doesNotMatch(withStored.body, new RegExp(canarySecret));
    });
  });
});

describe('admin API: entry-model', () => {
  test('the tables validation enforces', async () => {
    await withApi(async (api) => {
      const response = await api.inject({
        method: 'GET',
        url: '/_sso/api/entry-model',
        headers: api.token,
      });
      assert.equal(response.statusCode, 200);
      const model = entryModelAnswer.parse(json(response));
      assert.deepEqual(model.placeholders.authorizeUrl, [...placeholderMatrix.authorizeUrl]);
      assert.deepEqual(model.placeholders.userInfoUrl, [...placeholderMatrix.userInfoUrl]);
      assert.ok(!model.placeholders.authorizeUrl.includes('app_secret'));
      assert.deepEqual(model.attributes, [...userAttributes]);
      assert.deepEqual(model.functions, [...functionNames]);
      assert.ok(model.functions.includes('JSON_GET'));
    });
  });

  test('the kinds of sign-in source, as the entry form shows them', async () => {
    await withApi(async (api) => {
      const response = await api.inject({
        method: 'GET',
        url: '/_sso/api/entry-model',
        headers: api.token,
      });
      const model = entryModelAnswer.parse(json(response));
      assert.deepEqual(
        model.kinds.map(({ kind, entryType, testPanel }) => [kind, entryType, testPanel]),
        [
          ['oauth2', 'oauth2', true],
          ['openid-connect', 'oauth2', true],
          ['extension', 'extension', false],
          ['ldap', 'ldap', false],
          ['saml', 'saml', false],
        ],
      );
      assert.deepEqual(model.kinds[2]?.sections, ['extensionService', 'users']);
      assert.deepEqual(model.kinds[3]?.sections, ['ldapDirectory', 'users']);
      assert.deepEqual(model.kinds[4]?.sections, ['samlIdentityProvider', 'users']);
    });
  });
});

describe('admin API: entry-test with the application token and the calls after user info', () => {
  const wecom = findPreset('wecom');
  assert.ok(wecom);
  const made = entryFromPreset(wecom, {
    id: 'wecom',
    appid: 'corp-id',
    appsecret: 'corp-secret-0123',
    parameters: { agentid: '1000002' },
  });
  assert.ok(made.ok);
  const entry = made.entry.input;
  const samples = {
    appTokenResponse:
      '{"errcode":0,"errmsg":"ok","access_token":"APPTOKEN-7731","expires_in":7200}',
    tokenResponse: '',
    userInfoResponse: '{"errcode":0,"errmsg":"ok","UserId":"zhangsan"}',
    userInfoCallResponses: {
      member:
        '{"errcode":0,"errmsg":"ok","userid":"zhangsan","name":"张三","email":"zs@corp.example"}',
    },
  };

  test('runs the application token, user info and the chained call: the user from all three', async () => {
    await withApi(async (api) => {
      const response = await tryEntry(api, { entry, ...samples });
      assert.equal(response.statusCode, 200, response.body);
      const result = entryTestAnswer.parse(json(response));
      assert.ok(result.ok);
      assert.equal(result.appToken, '***');
      assert.deepEqual(result.values, { userid: '***' });
      assert.deepEqual(
        [result.user.userId, result.user.userName, result.user.email],
        ['zhangsan', '张三', 'zs@corp.example'],
      );
      assert.doesNotMatch(response.body, /APPTOKEN-7731|corp-secret-0123/);
    });
  });

  test('a refusal of the application-token call or of a chained call names its step and call', async () => {
    await withApi(async (api) => {
      const badToken = entryTestAnswer.parse(
        json(
          await tryEntry(api, {
            entry,
            ...samples,
            appTokenResponse: '{"errcode":40001,"errmsg":"invalid credential"}',
          }),
        ),
      );
      assert.ok(!badToken.ok);
      assert.deepEqual(
        [badToken.step, badToken.error.code],
        ['app_token', 'success_condition_failed'],
      );

      const badCall = entryTestAnswer.parse(
        json(
          await tryEntry(api, {
            entry,
            ...samples,
            userInfoCallResponses: { member: '{"errcode":60111,"errmsg":"userid not found"}' },
          }),
        ),
      );
      assert.ok(!badCall.ok);
      assert.deepEqual(
        [badCall.step, badCall.call, badCall.error.code],
        ['userinfo_call', 'member', 'success_condition_failed'],
      );
    });
  });

  test('a sample the entry needs and that is missing is a coded error on its field', async () => {
    await withApi(async (api) => {
      const noAppToken = await tryEntry(api, { entry, ...samples, appTokenResponse: undefined });
      assert.equal(noAppToken.statusCode, 400);
      assert.match(noAppToken.body, /appTokenResponse/);
      const noCall = await tryEntry(api, { entry, ...samples, userInfoCallResponses: {} });
      assert.equal(noCall.statusCode, 400);
      const body = json<ErrorBody>(noCall);
      assert.equal(body.error.code, 'request_invalid');
      assert.deepEqual(
        body.error.problems?.map(({ field }) => field),
        ['userInfoCallResponses.member'],
      );
    });
  });
});
