import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileTemplate } from './compile.js';
import type { TemplateKind } from './placeholders.js';

/** [code, column] of every problem, in order. */
function problems(source: string, kind: TemplateKind = 'tokenUrl'): [string, number | undefined][] {
  const result = compileTemplate(source, kind, { field: 'tokenUrl' });
  if (result.ok) return [];
  for (const problem of result.problems) assert.equal(problem.field, 'tokenUrl');
  return result.problems.map((problem) => [problem.code, problem.column]);
}

describe('compileTemplate: method prefix', () => {
  it('no prefix is GET, `POST ` is POST', () => {
    const get = compileTemplate('https://as.example/t', 'tokenUrl');
    const post = compileTemplate('POST https://as.example/t', 'userInfoUrl');
    assert.ok(get.ok && post.ok);
    assert.equal(get.template.method, 'GET');
    assert.equal(post.template.method, 'POST');
    assert.equal(post.template.source, 'POST https://as.example/t');
    assert.equal(post.template.kind, 'userInfoUrl');
  });

  const refused: [string, number][] = [
    ['POSThttps://as.example/t', 5],
    ['POST  https://as.example/t', 5],
    ['POST\thttps://as.example/t', 5],
    ['POST GET https://as.example/t', 6],
    ['GET https://as.example/t', 1],
    ['PUT https://as.example/t', 1],
    ['post https://as.example/t', 1],
    ['Post https://as.example/t', 1],
  ];
  for (const [source, column] of refused) {
    it(`refuses ${JSON.stringify(source)}`, () => {
      assert.deepEqual(problems(source), [['template_method', column]]);
    });
  }

  it('refuses POST in the browser-redirect templates', () => {
    assert.deepEqual(problems('POST https://as.example/a', 'authorizeUrl'), [
      ['template_method', 1],
    ]);
    assert.deepEqual(problems('POST https://as.example/a', 'logoutUrl'), [['template_method', 1]]);
  });
});

describe('compileTemplate: placeholder syntax and names', () => {
  it('reports each problem with the column of its `$`', () => {
    assert.deepEqual(problems('https://as.example/t?c=${code'), [['template_syntax', 24]]);
    assert.deepEqual(problems('https://as.example/t?c=${}'), [['template_syntax', 24]]);
    assert.deepEqual(problems('https://as.example/t?c=${1code}'), [['template_syntax', 24]]);
    assert.deepEqual(problems('https://as.example/t?c=${co-de}'), [['template_syntax', 24]]);
    assert.deepEqual(problems('https://as.example/t?c=${co${code}'), [['template_syntax', 24]]);
    assert.deepEqual(problems('https://as.example/t?c=${nope}'), [
      ['template_unknown_placeholder', 24],
    ]);
    assert.deepEqual(problems('POST https://as.example/t?c=${state}'), [
      ['template_placeholder_not_allowed', 29],
    ]);
  });

  it('lists the known placeholders and hints at a case slip', () => {
    const result = compileTemplate('https://as.example/t?c=${Code}', 'tokenUrl');
    assert.ok(!result.ok);
    assert.match(
      result.problems[0]?.message ?? '',
      /Did you mean \$\{code\}\?.*\$\{access_token\}/,
    );
  });

  it('treats a lone `$` and `}` as literal text', () => {
    assert.deepEqual(problems('https://as.example/t?p=$x}&c=${code}'), []);
  });
});

describe('compileTemplate: the URL', () => {
  const refused: [string, number][] = [
    ['file:///etc/passwd', 1],
    ['javascript:alert(1)', 1],
    ['/relative', 1],
    ['ftp://as.example/t', 1],
    ['https://user@as.example/', 1],
    ['https://user:pw@as.example/', 1],
    ['', 1],
    ['POST ftp://as.example/t', 6],
    ['https://${appid}.example/', 9],
    ['https://as.example:${appid}/', 1],
    ['https://as.example/a b', 21],
    [' https://as.example/', 1],
    ['https://as.example/中', 20],
    ['https://as.example/%zz', 20],
    ['https://as.example/%4${code}', 20],
  ];
  for (const [source, column] of refused) {
    it(`refuses ${JSON.stringify(source)}`, () => {
      assert.deepEqual(problems(source), [['template_url', column]]);
    });
  }

  it('accepts http, a port, an IP, percent-escapes and placeholders in path, query and fragment', () => {
    assert.deepEqual(
      problems('http://10.0.0.1:8080/p/${appid}/%E4%B8%AD?q=${code}#${redirect_uri}'),
      [],
    );
  });
});

describe('compileTemplate: POST parameters', () => {
  it('refuses a repeated parameter at its second occurrence', () => {
    assert.deepEqual(problems('POST https://as.example/t?a=1&b=2&a=${code}'), [
      ['template_repeated_parameter', 35],
    ]);
    assert.deepEqual(problems('POST https://as.example/t?a=1&%61=2'), [
      ['template_repeated_parameter', 31],
    ]);
  });
  it('refuses a placeholder in a parameter name', () => {
    assert.deepEqual(problems('POST https://as.example/t?${code}=1'), [
      ['template_parameter_name', 27],
    ]);
    assert.deepEqual(problems('POST https://as.example/t?x${code}'), [
      ['template_parameter_name', 28],
    ]);
  });
  it('refuses an empty name and non-UTF-8 literal text', () => {
    assert.deepEqual(problems('POST https://as.example/t?=1'), [['template_url', 27]]);
    assert.deepEqual(problems('POST https://as.example/t?a=%FF'), [['template_url', 29]]);
  });
  it('allows what a GET may repeat', () => {
    assert.deepEqual(problems('https://as.example/t?a=1&a=2&${code}=1'), []);
  });
});

describe('compileTemplate: every problem at once', () => {
  it('reports them together, in column order', () => {
    const source = 'POST  ftp://as.example/t?a=${app_secret}&a=${nope}&${code}=${';
    assert.deepEqual(problems(source, 'authorizeUrl'), [
      ['template_method', 1],
      ['template_method', 5],
      ['template_url', 7],
      ['template_placeholder_not_allowed', 28],
      ['template_repeated_parameter', 42],
      ['template_unknown_placeholder', 44],
      ['template_placeholder_not_allowed', 52],
      ['template_parameter_name', 52],
      ['template_syntax', 60],
    ]);
  });
});
