import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseExpression } from './parser.js';
import { expectError, run } from './test-support/helpers.js';

describe('parseExpression: literals and structure', () => {
  it('evaluates constants to themselves', () => {
    assert.equal(run("'x'"), 'x');
    assert.equal(run('"x"'), 'x');
    assert.equal(run('42'), 42);
    assert.equal(run('-1.5e2'), -150);
    assert.equal(run('true'), true);
    assert.equal(run('FALSE'), false);
    assert.equal(run('Null'), null);
    assert.equal(run('  ( ( 7 ) )  '), 7);
  });

  it('decodes every escape in both quote styles', () => {
    assert.equal(run(String.raw`'a\'b\"c\\d\/e\n\t\r\u00e9'`), 'a\'b"c\\d/e\n\t\ré');
    assert.equal(run(String.raw`"it's \"q\""`), 'it\'s "q"');
    assert.equal(run(`'say "hi"'`), 'say "hi"');
  });

  it('builds call nodes with upper-case names and offsets', () => {
    const { root } = parseExpression("json_get($response, 'a')");
    assert.ok(root.kind === 'call');
    assert.equal(root.name, 'JSON_GET');
    assert.deepEqual(
      root.args.map((a) => [a.kind, a.start]),
      [
        ['response', 9],
        ['string', 20],
      ],
    );
  });

  it('parses comparisons', () => {
    const { root } = parseExpression("1 != '2'");
    assert.ok(root.kind === 'binary');
    assert.equal(root.operator, '!=');
    assert.equal(root.operatorStart, 2);
    assert.equal(run("1 != '2'"), true);
    assert.equal(run('(1 == 1) == true'), true);
  });

  it('accepts function names in any case, and aliases', () => {
    assert.equal(run("Parse_Json($response, 'a')", '{"a":1}'), 1);
    assert.equal(run("coalesce(null, 'b')"), 'b');
  });
});

describe('parseExpression: errors with exact columns', () => {
  const cases: [string, string, number, RegExp][] = [
    ['', 'expression_syntax', 1, /empty/],
    ['   ', 'expression_syntax', 4, /empty/],
    ['a`b', 'expression_syntax', 2, /unexpected word 'a'|unexpected character/],
    ['1 ` 2', 'expression_syntax', 3, /unexpected character '`' at column 3/],
    [
      "JSON_GET($response, 'a'",
      'expression_syntax',
      24,
      /expected ',' or '\)' at column 24, found end of expression/,
    ],
    ["JSON_GET($response 'a')", 'expression_syntax', 20, /expected ',' or '\)'/],
    ['(1', 'expression_syntax', 3, /expected '\)' at column 3/],
    ["CONCAT('a', 'b' 'c')", 'expression_syntax', 17, /expected ',' or '\)' at column 17/],
    [
      "JSON_GET($response, 'abc",
      'expression_syntax',
      21,
      /unterminated string starting at column 21/,
    ],
    ['"abc\\', 'expression_syntax', 1, /unterminated string/],
    ["'a\\x'", 'expression_syntax', 3, /invalid escape '\\x'/],
    ["'\\u12g4'", 'expression_syntax', 2, /invalid escape/],
    ['$foo', 'expression_syntax', 1, /unknown variable '\$foo'/],
    ['1 = 1', 'expression_syntax', 3, /compare with '=='/],
    ['01', 'expression_syntax', 1, /invalid number/],
    ['1abc', 'expression_syntax', 1, /invalid number/],
    ['-', 'expression_syntax', 1, /unexpected character '-'/],
    ['1e400', 'expression_syntax', 1, /out of range/],
    ['token', 'expression_syntax', 1, /unexpected word 'token'.*quotes/],
    [')', 'expression_syntax', 1, /expected a value at column 1, found '\)'/],
    ['1,', 'expression_syntax', 2, /expected end of expression/],
    ['1 == 1 == 1', 'expression_syntax', 8, /cannot be chained/],
    ['JSON_GET(,)', 'expression_syntax', 10, /expected a value/],
    ['1 ==', 'expression_syntax', 5, /found end of expression/],
    [
      'FOO(1)',
      'expression_unknown_function',
      1,
      /unknown function 'FOO' at column 1; known functions: .*JSON_GET/,
    ],
    ['  constructor(1)', 'expression_unknown_function', 3, /unknown function 'constructor'/],
    [
      'JSON_GET($response)',
      'expression_arity',
      19,
      /too few arguments at column 19: JSON_GET\(value, key\) takes 2 arguments, got 1/,
    ],
    ["JSON_GET($response, 'a', 'b')", 'expression_arity', 26, /too many arguments at column 26/],
    ['LOWER()', 'expression_arity', 7, /takes 1 argument, got 0/],
    ['CONCAT()', 'expression_arity', 8, /at least 1/],
    [
      "JSON_PATH($response, 'a..b')",
      'expression_syntax',
      25,
      /expected a key name in path at column 25/,
    ],
    [
      String.raw`JSON_PATH($response, 'a\u002e[x]')`,
      'expression_syntax',
      30,
      /expected a key name in path at column 30/,
    ],
    ["JSON_PATH($response, 'a[x]')", 'expression_syntax', 25, /expected an index or a quoted key/],
    ["JSON_PATH($response, '')", 'expression_syntax', 23, /path is empty/],
    ["JSON_PATH($response, 'a[01]')", 'expression_syntax', 25, /expected an index/],
    ['JSON_PATH($response, "a[\'b")', 'expression_syntax', 25, /unterminated quoted key/],
  ];
  for (const [source, code, column, message] of cases) {
    it(`${JSON.stringify(source)} -> ${code} at column ${column}`, () => {
      const error = expectError(() => parseExpression(source), code as 'expression_syntax', column);
      assert.match(error.message, message);
    });
  }

  it('escapes control characters in messages', () => {
    const error = expectError(() => parseExpression('1 \u0007'), 'expression_syntax', 3);
    assert.match(error.message, /'\\u0007'/);
  });

  it('does not validate computed JSON_PATH paths at parse time', () => {
    assert.doesNotThrow(() => parseExpression("JSON_PATH($response, CONCAT('a..', 'b'))"));
  });
});

describe('parseExpression: limits', () => {
  it('refuses a source over 4096 characters, including a 1 MB one', () => {
    expectError(() => parseExpression(`'${'a'.repeat(4095)}'`), 'expression_limit', 4097);
    expectError(() => parseExpression('x'.repeat(1_000_000)), 'expression_limit', 4097);
    assert.doesNotThrow(() => parseExpression(`'${'a'.repeat(4094)}'`));
  });

  it('refuses 10,000 nested parentheses cleanly', () => {
    expectError(
      () => parseExpression('('.repeat(10_000) + '1' + ')'.repeat(10_000)),
      'expression_limit',
    );
    expectError(
      () => parseExpression('('.repeat(2000) + '1' + ')'.repeat(2000)),
      'expression_limit',
      33,
    );
  });

  it('allows 32 levels of nesting, not 33', () => {
    assert.equal(run('('.repeat(32) + '1' + ')'.repeat(32)), 1);
    expectError(
      () => parseExpression('('.repeat(33) + '1' + ')'.repeat(33)),
      'expression_limit',
      33,
    );
    const calls = (n: number): string => 'LOWER('.repeat(n) + "'A'" + ')'.repeat(n);
    assert.equal(run(calls(32)), 'a');
    expectError(() => parseExpression(calls(33)), 'expression_limit', 1 + 6 * 32);
  });
});
