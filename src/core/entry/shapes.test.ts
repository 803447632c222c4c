import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuthorizationRequest } from '../request/index.js';
import { compileOAuth2Entry, validateEntry } from './validate-entry.js';

const base = {
  id: 'corp',
  name: 'Corp',
  enabled: true,
  appid: 'app',
  appsecret: 'secret',
  authorizeUrl:
    'https://as.example/authorize?appid=${appid}&redirect_uri=${redirect_uri}&state=${state}',
  tokenUrl: 'https://as.example/token?code=${code}&secret=${app_secret}',
  tokenParse: "JSON_GET($response, 'access_token')",
  userInfoUrl: 'https://as.example/me?access_token=${access_token}',
};

const appToken = {
  url: 'https://as.example/gettoken?corpid=${appid}&corpsecret=${app_secret}',
  parse: "JSON_GET($response, 'access_token')",
  expiresIn: "JSON_GET($response, 'expires_in')",
};

function problems(input: Record<string, unknown>) {
  const result = validateEntry({ ...base, ...input });
  assert.ok(!result.ok, 'should be refused');
  return result.problems.map(({ code, field, message }) => ({ code, field, message }));
}

describe('shapes beyond the basic flow', () => {
  test('each is off unless set', () => {
    const { shapes } = compileOAuth2Entry(base);
    assert.deepEqual(shapes, {
      callbackCodeParameter: 'code',
      authorizeFragment: undefined,
      appToken: undefined,
      codeInUserInfo: false,
      tokenExchange: true,
      userInfoValues: [],
      userInfoCalls: [],
    });
  });

  test('a fragment in authorizeUrl is refused with the way to write it; authorizeFragment stays last', () => {
    const [problem] = problems({ authorizeUrl: `${base.authorizeUrl}#wechat_redirect` });
    assert.ok(problem);
    assert.equal(problem.field, 'authorizeUrl');
    assert.match(problem.message, /authorizeFragment/);
    const entry = compileOAuth2Entry({ ...base, authorizeFragment: 'wechat_redirect', pkce: true });
    const request = buildAuthorizationRequest(entry, {
      publicUrl: 'https://gw.example',
      random: (size) => new Uint8Array(size).fill(7),
    });
    assert.match(request.url, /&code_challenge_method=S256#wechat_redirect$/);
    assert.equal(problems({ authorizeFragment: 'a b' })[0]?.field, 'authorizeFragment');
  });

  test('the callback code parameter must be a parameter name', () => {
    assert.equal(
      compileOAuth2Entry({ ...base, callbackCodeParameter: 'authCode' }).shapes
        .callbackCodeParameter,
      'authCode',
    );
    assert.equal(
      problems({ callbackCodeParameter: 'auth code' })[0]?.field,
      'callbackCodeParameter',
    );
  });

  test('${app_token} only with an appToken call, and never in the authorization URL', () => {
    const without = problems({ userInfoUrl: 'https://as.example/me?t=${app_token}' });
    const [refusal] = without;
    assert.ok(refusal);
    assert.equal(refusal.code, 'template_placeholder_not_allowed');
    assert.match(refusal.message, /appToken/);
    const entry = compileOAuth2Entry({
      ...base,
      appToken,
      tokenUrl: 'https://as.example/token?code=${code}&t=${app_token}',
    });
    assert.equal(entry.shapes.appToken?.parse.source, appToken.parse);
    const leaked = problems({
      appToken,
      authorizeUrl: `${base.authorizeUrl}&t=\${app_token}`,
    });
    assert.deepEqual(
      leaked.map(({ code, field }) => [code, field]),
      [['template_placeholder_not_allowed', 'authorizeUrl']],
    );
  });

  test('an appToken call needs a lifetime, exactly one way', () => {
    const noLifetime = { url: appToken.url, parse: appToken.parse };
    assert.equal(problems({ appToken: noLifetime })[0]?.field, 'appToken');
    assert.equal(problems({ appToken: { ...appToken, ttlSeconds: 600 } })[0]?.field, 'appToken');
    assert.ok(validateEntry({ ...base, appToken: { ...noLifetime, ttlSeconds: 600 } }).ok);
  });

  test('${code} in userInfoUrl only with codeInUserInfo; the exchange may then be left out', () => {
    const refused = problems({
      userInfoUrl: 'https://as.example/me?code=${code}&t=${access_token}',
    });
    assert.match(refused[0]?.message ?? '', /codeInUserInfo/);
    const noExchange = { ...base, tokenUrl: undefined, tokenParse: undefined };
    const entry = compileOAuth2Entry({
      ...noExchange,
      appToken,
      codeInUserInfo: true,
      userInfoUrl: 'https://as.example/me?code=${code}&t=${app_token}',
    });
    assert.equal(entry.token, undefined);
    assert.equal(entry.shapes.tokenExchange, false);
    const noToken = validateEntry({
      ...noExchange,
      codeInUserInfo: true,
      userInfoUrl: 'https://as.example/me?code=${code}&t=${access_token}',
    });
    assert.ok(!noToken.ok);
    assert.match(noToken.problems[0]?.message ?? '', /no token exchange/);
  });

  test('named values are usable only after the answer they come from', () => {
    const calls = [
      {
        name: 'member',
        url: 'https://as.example/user?id=${uid}&dept=${dept}',
        values: [{ name: 'dept', expression: "JSON_GET($response, 'dept')" }],
        mapping: "userName = JSON_GET($response, 'name')",
      },
    ];
    const tooEarly = problems({
      userInfoUrl: 'https://as.example/me?access_token=${access_token}&u=${uid}',
      userInfoValues: [{ name: 'uid', expression: "JSON_GET($response, 'id')" }],
      userInfoCalls: calls,
    });
    assert.deepEqual(
      tooEarly.map(({ code, field }) => [code, field]),
      [
        ['template_placeholder_not_allowed', 'userInfoUrl'],
        ['template_placeholder_not_allowed', 'userInfoCalls[0].url'],
      ],
    );
    assert.match(tooEarly[0]?.message ?? '', /arrives after this call/);
    const entry = compileOAuth2Entry({
      ...base,
      userInfoValues: [{ name: 'uid', expression: "JSON_GET($response, 'id')" }],
      userInfoCalls: [{ ...calls[0], url: 'https://as.example/user?id=${uid}&t=${access_token}' }],
    });
    assert.equal(entry.shapes.userInfoCalls[0]?.mapping[0]?.attribute, 'userName');
  });

  test('a call after user info may not map userId', () => {
    const refused = problems({
      userInfoCalls: [
        {
          name: 'member',
          url: 'https://as.example/user?t=${access_token}',
          mapping: "userId = JSON_GET($response, 'id')",
        },
      ],
    });
    assert.equal(refused[0]?.field, 'userInfoCalls[0].mapping');
  });
});
