import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isSsogateError } from '../errors/ssogate-error.js';
import { createEvaluationContext, parseExpression } from '../expression/index.js';
import type { UserAttribute } from './attributes.js';
import type { AttributeMapping } from './map-user.js';
import { mapUser, mapUserReport } from './map-user.js';

function mapping(attribute: UserAttribute, source: string): AttributeMapping {
  return { attribute, expression: parseExpression(source) };
}

function mapBody(body: string, mappings: readonly AttributeMapping[] = []) {
  return mapUser(mappings, createEvaluationContext(body));
}

function rejectsWith(code: string, run: () => unknown): void {
  assert.throws(run, (error: unknown) => isSsogateError(error) && error.code === code);
}

describe('mapUser: the empty case (the object under "user")', () => {
  test('reads the user under the key user', () => {
    const user = mapBody(
      '{"errorcode":0,"user":{"userId":"u-1","userName":"Li Lei","enabled":true,"title":"Dr"}}',
    );
    assert.deepEqual(
      { ...user, extra: { ...user.extra } },
      {
        userId: 'u-1',
        userName: 'Li Lei',
        enabled: true,
        extra: { title: 'Dr' },
      },
    );
    assert.equal(Object.getPrototypeOf(user.extra), null);
  });

  test('a response without an object under "user" is a clear error', () => {
    rejectsWith('userinfo_no_user_object', () => mapBody('{"id":"u-1"}'));
    rejectsWith('userinfo_no_user_object', () => mapBody('{"user":"u-1"}'));
    rejectsWith('userinfo_no_user_object', () => mapBody('{"user":["u-1"]}'));
    rejectsWith('response_not_json', () => mapBody('<html>'));
  });

  test('keys such as __proto__ and isAdmin are plain extra data, never attributes', () => {
    const user = mapBody(
      '{"user":{"userId":"u1","__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"isAdmin":true}}',
    );
    assert.equal(Object.hasOwn(user, 'isAdmin'), false);
    assert.deepEqual(Object.keys(user).sort(), ['extra', 'userId']);
    assert.deepEqual(Object.keys(user.extra).sort(), ['__proto__', 'constructor', 'isAdmin']);
    assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
  });
});

describe('mapUser: the filled case', () => {
  test('evaluates each mapping over the response', () => {
    const user = mapBody(
      '{"data":{"id":42,"name":"Han Meimei","mail":"h@corp.example","on":"1"}}',
      [
        mapping('userId', "JSON_PATH($response, 'data.id')"),
        mapping('userName', "JSON_PATH($response, 'data.name')"),
        mapping('email', "JSON_PATH($response, 'data.mail')"),
        mapping('enabled', "JSON_PATH($response, 'data.on')"),
        mapping('department', "'Sales'"),
      ],
    );
    assert.deepEqual(
      { ...user, extra: { ...user.extra } },
      {
        userId: '42',
        userName: 'Han Meimei',
        email: 'h@corp.example',
        enabled: true,
        department: 'Sales',
        extra: {},
      },
    );
  });

  test('enabled accepts true/false, 1/0 and "true"/"false" and nothing else', () => {
    const cases: [string, boolean][] = [
      ['true', true],
      ['false', false],
      ['1', true],
      ['0', false],
      ['"true"', true],
      ['"false"', false],
    ];
    for (const [json, expected] of cases) {
      const user = mapBody(`{"on":${json}}`, [
        mapping('userId', "'u'"),
        mapping('enabled', "JSON_GET($response,'on')"),
      ]);
      assert.equal(user.enabled, expected, json);
    }
    for (const json of ['"yes"', '2', '[]', '{}']) {
      rejectsWith('user_attribute_invalid', () =>
        mapBody(`{"on":${json}}`, [
          mapping('userId', "'u'"),
          mapping('enabled', "JSON_GET($response,'on')"),
        ]),
      );
    }
  });

  test('userId is required, non-empty, text or a finite number', () => {
    rejectsWith('user_id_missing', () =>
      mapBody('{"id":null}', [mapping('userId', "JSON_GET($response,'id')")]),
    );
    rejectsWith('user_id_missing', () =>
      mapBody('{"id":"  "}', [mapping('userId', "JSON_GET($response,'id')")]),
    );
    rejectsWith('user_attribute_invalid', () =>
      mapBody('{"id":["a"]}', [mapping('userId', "JSON_GET($response,'id')")]),
    );
    rejectsWith('key_not_found', () =>
      mapBody('{}', [mapping('userId', "JSON_GET($response,'id')")]),
    );
  });

  test('a 64-bit numeric id is kept exactly: two ids one apart are two users', () => {
    const idOf = (body: string) =>
      mapBody(body, [mapping('userId', "JSON_GET($response,'id')")]).userId;
    assert.equal(idOf('{"id":12345678901234567890}'), '12345678901234567890');
    assert.equal(idOf('{"id":12345678901234567891}'), '12345678901234567891');
    assert.equal(idOf('{"id":"12345678901234567890"}'), '12345678901234567890');
    assert.equal(idOf('{"id":9007199254740991}'), '9007199254740991');
    const user = mapBody('{"user":{"userId":1234567890123456789012,"mobile":8613800138000}}');
    assert.equal(user.userId, '1234567890123456789012');
    assert.equal(user.mobile, '8613800138000');
  });

  test('a number that is not an exact integer is refused as text, never rounded', () => {
    for (const json of ['1e21', '1.5', '-0', '1e400', '12345678901234567890e0', '-1.0e-7']) {
      rejectsWith('user_attribute_number_inexact', () =>
        mapBody(`{"id":${json}}`, [mapping('userId', "JSON_GET($response,'id')")]),
      );
      rejectsWith('user_attribute_number_inexact', () =>
        mapBody(`{"user":{"userId":"u","department":${json}}}`),
      );
    }
  });

  test('control characters in userId and email are refused, not passed on', () => {
    for (const character of ['\\r', '\\n', '\\u0000', '\\t', '\\u001f', '\\u007f']) {
      rejectsWith('user_attribute_control_character', () =>
        mapBody(`{"user":{"userId":"a${character}b"}}`),
      );
      rejectsWith('user_attribute_control_character', () =>
        mapBody(`{"user":{"userId":"u","email":"a${character}@b.example"}}`),
      );
    }
    assert.equal(mapBody('{"user":{"userId":"u","userName":"Li\\tLei"}}').userName, 'Li\tLei');
  });

  test('a userId with whitespace at either end is refused, never trimmed into another user', () => {
    for (const id of [
      ' alice',
      'alice ',
      '  alice  ',
      '\u00a0alice',
      'alice\u3000',
      '\ufeffalice',
    ]) {
      rejectsWith('user_attribute_whitespace', () =>
        mapBody(JSON.stringify({ id }), [mapping('userId', "JSON_GET($response,'id')")]),
      );
      rejectsWith('user_attribute_whitespace', () =>
        mapBody(JSON.stringify({ user: { userId: id } })),
      );
    }
    assert.equal(mapBody('{"user":{"userId":"Bob Builder"}}').userId, 'Bob Builder');
    assert.equal(mapBody('{"user":{"userId":"u","userName":" Bob "}}').userName, ' Bob ');
  });

  test('text that is not well-formed UTF-16 (a lone surrogate) is refused', () => {
    rejectsWith('user_attribute_invalid', () => mapBody('{"user":{"userId":"a\\ud800"}}'));
    rejectsWith('user_attribute_invalid', () =>
      mapBody('{"user":{"userId":"u","userName":"\\udc00"}}'),
    );
  });

  test('an over-long value is refused, never truncated', () => {
    const body = JSON.stringify({ id: 'x'.repeat(256) });
    rejectsWith('user_attribute_invalid', () =>
      mapBody(body, [mapping('userId', "JSON_GET($response,'id')")]),
    );
  });

  test('a null value leaves the attribute out', () => {
    const user = mapBody('{"id":"u","mail":null}', [
      mapping('userId', "JSON_GET($response,'id')"),
      mapping('email', "JSON_GET($response,'mail')"),
    ]);
    assert.equal(Object.hasOwn(user, 'email'), false);
  });
});

describe('mapUser: random responses', () => {
  const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
  const hostileKey = fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'user',
    'userId',
    'enabled',
    'toString',
  );
  const hostileJson = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue(),
      fc.double(),
      fc.constantFrom(Number.MAX_VALUE, -0, Number.MAX_SAFE_INTEGER * 8),
      fc.string({ maxLength: 300 }),
      fc.dictionary(fc.oneof(hostileKey, fc.string()), tie('value'), { maxKeys: 6 }),
      fc.array(tie('value'), { maxLength: 4 }),
    ),
  })).value;

  test('nothing but a coded error is thrown, and Object.prototype is never touched', () => {
    const mappingSets = [
      [],
      [
        mapping('userId', "JSON_GET($response,'userId')"),
        mapping('enabled', "JSON_GET($response,'enabled')"),
      ],
      [mapping('userId', "FIRST_NON_EMPTY(JSON_PATH($response,'user.userId'), 'fallback')")],
    ];
    fc.assert(
      fc.property(hostileJson, fc.boolean(), (value, wrap) => {
        const body = JSON.stringify(wrap ? { user: value } : value);
        for (const mappings of mappingSets) {
          try {
            const user = mapBody(body, mappings);
            assert.equal(typeof user.userId, 'string');
          } catch (error) {
            assert.ok(isSsogateError(error), String(error));
          }
        }
        assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), prototypeNames);
        assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
      }),
      { numRuns: 300 },
    );
  });

  test('deep nesting fails cleanly', () => {
    const deep = `{"user":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    rejectsWith('response_too_large', () => mapBody(deep));
  });
});

describe('mapUser: optional and required attributes', () => {
  const mappings: AttributeMapping[] = [
    { ...mapping('userId', "JSON_GET($response, 'id')"), place: { line: 1 } },
    { ...mapping('department', "JSON_GET($response, 'org')"), place: { line: 4 } },
    { ...mapping('email', "JSON_GET($response, 'mail')"), place: { line: 5 }, required: true },
  ];

  test('a missing optional attribute is left unset; the sign-in goes on', () => {
    const user = mapBody('{"id":"u-1","mail":"a@example.test"}', mappings);
    assert.equal(user.department, undefined);
    assert.equal(user.email, 'a@example.test');
  });

  test('a missing required attribute fails, named by its line and attribute', () => {
    assert.throws(
      () => mapBody('{"id":"u-1"}', mappings),
      (error: unknown) =>
        isSsogateError(error) &&
        error.code === 'key_not_found' &&
        /^line 5, email: /.test(error.message),
    );
  });

  test('the report gives every line, not only the first failure', () => {
    const report = mapUserReport(mappings, createEvaluationContext('{"name":"x"}'));
    assert.deepEqual(
      report.lines.map((line) => [line.place, line.attribute, line.outcome, line.required]),
      [
        [{ line: 1 }, 'userId', 'failed', true],
        [{ line: 4 }, 'department', 'missing', false],
        [{ line: 5 }, 'email', 'failed', true],
      ],
    );
    assert.ok('error' in report.result);
    assert.match(report.result.error.message, /^line 1, userId: .*; line 5, email: /);
  });
});
