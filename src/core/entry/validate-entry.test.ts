import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SsogateError } from '../errors/ssogate-error.js';
import { buildGetEntry, buildPostEntry, buildStandardEntry } from '../test-support/entries.js';
import { buildAuthorizationRequest } from '../request/authorization-request.js';
import { EntryInvalidError } from './entry-problems.js';
import { compileOAuth2Entry, validateEntry } from './validate-entry.js';

function problemsOf(input: unknown): SsogateError[] {
  const result = validateEntry(input);
  if (result.ok) assert.fail('expected the entry to be refused');
  return [...result.problems];
}

function summary(problems: readonly SsogateError[]) {
  return problems.map(({ code, field, line, column }) => ({ code, field, line, column }));
}

describe('validateEntry', () => {
  test('a GET-style entry compiles with every option off', () => {
    const entry = compileOAuth2Entry(buildGetEntry());
    const token = entry.token;
    assert.ok(token);
    assert.equal(token.template.method, 'GET');
    assert.equal(token.bodyEncoding, 'json');
    assert.equal(token.clientAuthentication, 'none');
    assert.deepEqual(token.headers, []);
    assert.equal(token.successCondition, undefined);
    assert.equal(entry.pkce, false);
    assert.equal(entry.timeoutMs, 10_000);
    assert.deepEqual(entry.provisioning, {
      createUsers: true,
      updateOnSignIn: true,
      adoptExistingUsers: false,
      userIdScope: 'global',
    });
    assert.deepEqual(entry.userInfoParse, []);
    assert.equal(entry.isDefault, false);
  });

  test('responseMode form_post is asked for once, and an authorizeUrl that names another mode is refused', () => {
    const random = (size: number) => new Uint8Array(size).fill(7);
    const posted = compileOAuth2Entry({ ...buildStandardEntry(), responseMode: 'form_post' });
    assert.equal(posted.responseMode, 'form_post');
    const url = new URL(
      buildAuthorizationRequest(posted, { publicUrl: 'https://sso.example', random }).url,
    );
    assert.deepEqual(url.searchParams.getAll('response_mode'), ['form_post']);
    const written = compileOAuth2Entry({
      ...buildStandardEntry(),
      responseMode: 'form_post',
      authorizeUrl: `${String(buildStandardEntry().authorizeUrl)}&response_mode=form_post`,
    });
    const again = new URL(
      buildAuthorizationRequest(written, { publicUrl: 'https://sso.example', random }).url,
    );
    assert.deepEqual(again.searchParams.getAll('response_mode'), ['form_post']);
    assert.equal(compileOAuth2Entry(buildStandardEntry()).responseMode, 'query');
    assert.deepEqual(
      summary(
        problemsOf({
          ...buildStandardEntry(),
          authorizeUrl: `${String(buildStandardEntry().authorizeUrl)}&response_mode=form_post`,
        }),
      ).map(({ field }) => field),
      ['responseMode'],
    );
    assert.deepEqual(
      summary(
        problemsOf({
          ...buildStandardEntry(),
          responseMode: 'form_post',
          authorizeUrl: `${String(buildStandardEntry().authorizeUrl)}&response_mode=fragment`,
        }),
      ).map(({ field }) => field),
      ['authorizeUrl'],
    );
  });

  test('the POST-JSON and the standard form-POST shapes compile', () => {
    assert.equal(compileOAuth2Entry(buildPostEntry()).token?.template.method, 'POST');
    const standard = compileOAuth2Entry(buildStandardEntry());
    assert.equal(standard.token?.bodyEncoding, 'form');
    assert.equal(standard.userInfo.headers.length, 1);
    assert.equal(standard.userInfoParse.length, 2);
  });

  test('every problem is reported at once, each with its field and column', () => {
    const problems = problemsOf(
      buildGetEntry({
        authorizeUrl: 'https://as.example/authorize?code=${code}&state=${state}',
        tokenUrl: 'ftp://as.example/token?code=${code}',
        tokenParse: "JSON_GET($response, 'access_token'",
        userInfoParse: [
          { attribute: 'userId', expression: "JSON_GET($response, 'id')" },
          { attribute: 'isAdmin', expression: 'true' },
        ],
      }),
    );
    assert.deepEqual(
      summary(problems).map(({ code, field }) => `${field}:${code}`),
      [
        'authorizeUrl:template_placeholder_not_allowed',
        'tokenUrl:template_url',
        'tokenParse:expression_syntax',
        'userInfoParse[1].attribute:user_attribute_unknown',
      ],
    );
    assert.equal(problems[0]?.column, 35);
    assert.equal(problems[2]?.column, 35);
  });

  test('${app_secret} in the authorization URL is always refused, saying why', () => {
    const problems = problemsOf(
      buildGetEntry({
        authorizeUrl:
          'https://as.example/authorize?appid=${appid}&secret=${app_secret}&state=${state}',
      }),
    );
    assert.deepEqual(summary(problems), [
      {
        code: 'template_placeholder_not_allowed',
        field: 'authorizeUrl',
        line: undefined,
        column: 52,
      },
    ]);
    assert.match(problems[0]?.message ?? '', /browser/);
  });

  test('missing required fields are each named', () => {
    const problems = problemsOf({ id: 'x', name: 'X', enabled: true });
    assert.deepEqual(
      problems.map(({ field, message }) => `${field}: ${message}`),
      [
        'authorizeUrl: is required',
        'tokenUrl: is required',
        'tokenParse: is required',
        'userInfoUrl: is required',
      ],
    );
  });

  test('input that is not an object is refused without throwing', () => {
    for (const input of [null, undefined, 'entry', 42, [], [buildGetEntry()]]) {
      const problems = problemsOf(input);
      assert.ok(problems.length > 0);
      assert.ok(problems.every(({ code }) => code === 'field_invalid'));
    }
  });

  test('an unknown field, such as a misspelt one, is named', () => {
    const problems = problemsOf({ ...buildGetEntry(), tokenparse: 'x' });
    assert.deepEqual(summary(problems), [
      { code: 'field_invalid', field: 'tokenparse', line: undefined, column: undefined },
    ]);
  });

  test('ids are URL-safe slugs and "local" is reserved', () => {
    for (const id of ['Corp', 'a b', '-corp', 'corp-', 'a/b', '', 'local', 'x'.repeat(65)]) {
      assert.deepEqual(
        summary(problemsOf(buildGetEntry({ id }))).map(({ field }) => field),
        ['id'],
        id,
      );
    }
    assert.equal(validateEntry(buildGetEntry({ id: 'a' })).ok, true);
  });

  test('blank optional fields count as absent', () => {
    const entry = compileOAuth2Entry(buildGetEntry({ logoutUrl: '', appsecret: '' }));
    assert.equal(entry.logout, undefined);
    assert.equal(entry.appsecret, undefined);
    assert.equal('logoutUrl' in entry.input, true);
    assert.equal(entry.input.logoutUrl, undefined);
  });

  test('compileEntry throws one coded error that lists the problems', () => {
    assert.throws(
      () => compileOAuth2Entry(buildGetEntry({ tokenParse: '' })),
      (error: unknown) =>
        error instanceof EntryInvalidError &&
        error.problems.length === 1 &&
        /tokenParse/.test(error.message),
    );
  });

  test('a disabled entry cannot be the default', () => {
    const problems = problemsOf(buildGetEntry({ enabled: false, isDefault: true }));
    assert.deepEqual(
      problems.map(({ field }) => field),
      ['isDefault'],
    );
  });

  test('the authorization URL may not carry a fragment (RFC 6749 §3.1)', () => {
    const problems = problemsOf(
      buildGetEntry({ authorizeUrl: 'https://as.example/authorize?state=${state}#top' }),
    );
    assert.deepEqual(
      problems.map(({ field }) => field),
      ['authorizeUrl'],
    );
  });
});

describe('validateEntry: options beyond the basic shape', () => {
  test('a body encoding on a GET call is refused', () => {
    const problems = problemsOf(buildGetEntry({ tokenRequest: { bodyEncoding: 'form' } }));
    assert.deepEqual(
      problems.map(({ field }) => field),
      ['tokenRequest.bodyEncoding'],
    );
  });

  test('headers: managed, repeated and malformed names are refused', () => {
    const problems = problemsOf(
      buildGetEntry({
        userInfoRequest: {
          headers: [
            { name: 'Content-Type', value: 'text/plain' },
            { name: 'X-Token', value: '${access_token}' },
            { name: 'x-token', value: 'again' },
            { name: 'Bad Name', value: 'v' },
            { name: 'X-Code', value: '${code}' },
          ],
        },
      }),
    );
    assert.deepEqual(
      summary(problems).map(({ code, field }) => `${field}:${code}`),
      [
        'userInfoRequest.headers[0].name:header_invalid',
        'userInfoRequest.headers[2].name:header_invalid',
        'userInfoRequest.headers[3]:header_invalid',
        'userInfoRequest.headers[4]:template_placeholder_not_allowed',
      ],
    );
  });

  test('a placeholder refused in a header names the header, not the URL whose placeholders it takes', () => {
    const [problem, ...others] = problemsOf(
      buildPostEntry({
        tokenRequest: { headers: [{ name: 'Authorization', value: 'Bearer ${access_token}' }] },
      }),
    );
    assert.deepEqual(others, []);
    assert.ok(problem);
    assert.equal(problem.code, 'template_placeholder_not_allowed');
    assert.equal(problem.field, 'tokenRequest.headers[0]');
    assert.equal(problem.column, 8);
    assert.match(
      problem.message,
      /^\$\{access_token\} is not allowed in tokenRequest\.headers\[0\]\./,
    );
    assert.doesNotMatch(problem.message, /tokenUrl/);
    // The message's values, for a reader that says it in another language.
    const facts = problem.facts ?? {};
    assert.equal(facts.placeholder, '${access_token}');
    assert.equal(facts.place, 'tokenRequest.headers[0]');
    assert.match(String(facts.allowed), /\$\{code\}/);
    assert.doesNotMatch(String(facts.allowed), /access_token/);
  });

  test('HTTP Basic client authentication needs an appid and no Authorization header', () => {
    const problems = problemsOf(
      buildPostEntry({
        appid: undefined,
        tokenRequest: {
          clientAuthentication: 'basic',
          headers: [{ name: 'Authorization', value: 'x' }],
        },
      }),
    );
    assert.deepEqual(
      problems.map(({ field }) => field),
      ['appid', 'tokenRequest.headers'],
    );
  });

  test('a success condition is an expression, checked at save time', () => {
    const ok = compileOAuth2Entry(
      buildGetEntry({ tokenRequest: { successCondition: "JSON_GET($response, 'errcode') == 0" } }),
    );
    assert.equal(ok.token?.successCondition?.source, "JSON_GET($response, 'errcode') == 0");
    const problems = problemsOf(
      buildGetEntry({ userInfoRequest: { successCondition: 'NOPE(1)' } }),
    );
    assert.deepEqual(summary(problems), [
      {
        code: 'expression_unknown_function',
        field: 'userInfoRequest.successCondition',
        line: undefined,
        column: 1,
      },
    ]);
  });

  test('token values become placeholders of the user-info call only', () => {
    const entry = compileOAuth2Entry(
      buildGetEntry({
        tokenValues: [{ name: 'openid', expression: "JSON_GET($response, 'openid')" }],
        userInfoUrl: 'https://as.example/userinfo?access_token=${access_token}&openid=${openid}',
      }),
    );
    assert.deepEqual(
      entry.tokenValues.map(({ name }) => name),
      ['openid'],
    );
    const problems = problemsOf(
      buildGetEntry({
        tokenValues: [
          { name: 'openid', expression: "JSON_GET($response, 'openid')" },
          { name: 'code', expression: "'x'" },
          { name: '9lives', expression: "'x'" },
        ],
        tokenUrl: 'https://as.example/token?code=${code}&openid=${openid}',
      }),
    );
    assert.deepEqual(
      summary(problems).map(({ code, field }) => `${field}:${code}`),
      [
        'tokenValues[1].name:field_invalid',
        'tokenValues[2].name:field_invalid',
        'tokenUrl:template_unknown_placeholder',
      ],
    );
  });

  test('an entry without ${state} and without PKCE is accepted with a warning', () => {
    const result = validateEntry(
      buildGetEntry({ authorizeUrl: 'https://as.example/authorize?appid=${appid}' }),
    );
    assert.ok(result.ok);
    assert.equal(result.warnings.length, 1);
    assert.match(result.warnings[0] ?? '', /\$\{state\}/);
    const withPkce = validateEntry(
      buildGetEntry({ authorizeUrl: 'https://as.example/authorize?appid=${appid}', pkce: true }),
    );
    assert.ok(withPkce.ok);
    assert.deepEqual(withPkce.warnings, []);
  });

  test('time-out and provisioning policy are validated and defaulted', () => {
    const entry = compileOAuth2Entry(
      buildGetEntry({ timeoutMs: 2500, provisioning: { createUsers: false } }),
    );
    assert.equal(entry.timeoutMs, 2500);
    assert.deepEqual(entry.provisioning, {
      createUsers: false,
      updateOnSignIn: true,
      adoptExistingUsers: false,
      userIdScope: 'global',
    });
    const problems = problemsOf({
      ...buildGetEntry({ timeoutMs: 0 }),
      provisioning: { createUsers: 'yes' },
    });
    assert.deepEqual(problems.map(({ field }) => field).sort(), [
      'provisioning.createUsers',
      'timeoutMs',
    ]);
  });

  test('a schema problem carries its values, for a reader in another language', () => {
    const problems = problemsOf({
      ...buildGetEntry({ timeoutMs: 5 }),
      surplus: 1,
      provisioning: { userIdScope: 'elsewhere' },
    });
    const factsOf = (field: string) => problems.find((problem) => problem.field === field)?.facts;
    assert.deepEqual(factsOf('timeoutMs'), { issue: 'too_small', minimum: 100, origin: 'number' });
    assert.deepEqual(factsOf('provisioning.userIdScope'), {
      issue: 'invalid_value',
      allowed: 'global, entry',
    });
    assert.deepEqual(factsOf('surplus'), { issue: 'unknown_key', key: 'surplus' });
  });
});

describe('validateEntry: userIdScope', () => {
  test('is global unless the entry asks for a namespace of its own', () => {
    const scoped = compileOAuth2Entry(buildGetEntry({ provisioning: { userIdScope: 'entry' } }));
    assert.equal(scoped.provisioning.userIdScope, 'entry');
    assert.deepEqual(scoped.input.provisioning, { userIdScope: 'entry' });
    assert.equal(compileOAuth2Entry(buildGetEntry()).provisioning.userIdScope, 'global');
    assert.deepEqual(
      problemsOf({ ...buildGetEntry(), provisioning: { userIdScope: 'tenant' } }).map(
        ({ field }) => field,
      ),
      ['provisioning.userIdScope'],
    );
  });

  test('cannot be combined with adopting users from elsewhere', () => {
    const problems = problemsOf(
      buildGetEntry({ provisioning: { userIdScope: 'entry', adoptExistingUsers: true } }),
    );
    assert.deepEqual(
      problems.map(({ field }) => field),
      ['provisioning.adoptExistingUsers'],
    );
  });
});

describe('validateEntry: userInfoParse', () => {
  test('the text form compiles like the list form', () => {
    const text = [
      '# map the server fields',
      "userId = JSON_GET($response, 'id')",
      '',
      'enabled = true',
    ].join('\n');
    const fromText = compileOAuth2Entry(buildGetEntry({ userInfoParse: text }));
    assert.deepEqual(
      fromText.userInfoParse.map(({ attribute, expression }) => [attribute, expression.source]),
      [
        ['userId', "JSON_GET($response, 'id')"],
        ['enabled', 'true'],
      ],
    );
  });

  test('problems in the text form carry their line and column', () => {
    const text = [
      "userId = JSON_GET($response, 'id')",
      "  nickname = JSON_GET($response, 'nick')",
      "email = JSON_GET($response, 'mail'",
      'this line is wrong',
      'userId = 1',
    ].join('\n');
    assert.deepEqual(summary(problemsOf(buildGetEntry({ userInfoParse: text }))), [
      { code: 'userinfo_text_syntax', field: 'userInfoParse', line: 4, column: 1 },
      { code: 'user_attribute_unknown', field: 'userInfoParse', line: 2, column: 3 },
      { code: 'expression_syntax', field: 'userInfoParse', line: 3, column: 35 },
      { code: 'user_attribute_repeated', field: 'userInfoParse', line: 5, column: 1 },
    ]);
  });

  test('a filled parsing must map userId', () => {
    const problems = problemsOf(
      buildGetEntry({
        userInfoParse: [{ attribute: 'email', expression: "JSON_GET($response, 'mail')" }],
      }),
    );
    assert.deepEqual(
      problems.map(({ field }) => field),
      ['userInfoParse'],
    );
  });
});

describe('validateEntry: a misspelt name gets a "did you mean"', () => {
  test('a function and a placeholder two letters off name the known one', () => {
    const problems = problemsOf({
      ...buildStandardEntry(),
      tokenParse: "JSON_GTE($response, 'access_token')",
      authorizeUrl: 'https://idp.example.test/auth?state=${state}&redirect_uri=${redirct_uri}',
    });
    const byField = new Map(problems.map((problem) => [problem.field, problem.message]));
    assert.match(byField.get('tokenParse') ?? '', /did you mean JSON_GET\?/);
    assert.match(byField.get('authorizeUrl') ?? '', /Did you mean \$\{redirect_uri\}\?/);
  });

  test('a name far from every known one gets no guess', () => {
    const problems = problemsOf({ ...buildStandardEntry(), tokenParse: 'NOTHING_LIKE_IT(1)' });
    assert.doesNotMatch(problems[0]?.message ?? '', /did you mean/i);
  });
});
