import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { labelOf, problemText, warningText } from './field-labels.js';
import { en, zhCN } from '../i18n/catalogs.js';

describe('the on-screen label of an API field', () => {
  test('a field, a nested option, a row of a list', () => {
    assert.equal(labelOf('authorizeUrl', en.entryForm), 'Authorization URL');
    assert.equal(
      labelOf('tokenRequest.successCondition', en.entryForm),
      'Token call success condition',
    );
    assert.equal(
      labelOf('tokenRequest.headers[0].name', en.entryForm),
      'Token call headers, row 1',
    );
    assert.equal(labelOf('tokenValues[2].expression', en.entryForm), 'Token values, row 3');
    assert.equal(labelOf('userInfoParse[1].expression', en.entryForm), 'User-info parsing, row 2');
    assert.equal(labelOf('extensionSettings.tenant', en.entryForm), 'Settings');
  });

  test('the entry as a whole, and a field the form does not know, keep a readable name', () => {
    assert.equal(labelOf('entry', en.entryForm), 'The entry');
    assert.equal(labelOf('somethingNew', en.entryForm), 'somethingNew');
  });

  test('the labels are those of the catalog handed in', () => {
    assert.equal(labelOf('authorizeUrl', zhCN.entryForm), '授权 URL');
    assert.equal(
      labelOf('tokenRequest.headers[0].name', zhCN.entryForm),
      '令牌调用请求头，第 1 行',
    );
    assert.equal(labelOf('entry', zhCN.entryForm), '整个登录方式');
  });
});

describe('a core problem in the language on screen', () => {
  test('in Chinese, said from its code and values; a list joined with 、', () => {
    const notAllowed = {
      field: 'authorizeUrl',
      code: 'template_placeholder_not_allowed',
      message: '${code} is not allowed in authorizeUrl. Allowed: ${appid}, ${state}.',
      params: { placeholder: '${code}', place: 'authorizeUrl', allowed: '${appid}, ${state}' },
    };
    assert.equal(
      problemText(notAllowed, zhCN.entryForm),
      '授权 URL中不能使用 ${code}。此处可用：${appid}、${state}。',
    );
    const tooSmall = {
      field: 'timeoutMs',
      code: 'field_invalid',
      message: 'Too small: expected number to be >=100',
      params: { issue: 'too_small', minimum: 100, origin: 'number' },
    };
    assert.equal(problemText(tooSmall, zhCN.entryForm), '不能小于 100');
    assert.equal(problemText(tooSmall, en.entryForm), 'must be at least 100');
    const oneOf = {
      field: 'tokenRequest.bodyEncoding',
      code: 'field_invalid',
      message: 'Invalid option: expected one of "json"|"form"',
      params: { issue: 'invalid_value', allowed: 'json, form' },
    };
    assert.equal(problemText(oneOf, zhCN.entryForm), '只能是以下之一：json、form');
  });

  test('a problem without values: its code’s sentence in Chinese, the core’s own in English', () => {
    const syntax = {
      field: 'tokenParse',
      code: 'expression_syntax',
      message: "expected ')' after the arguments of JSON_GET",
      column: 12,
    };
    assert.equal(problemText(syntax, zhCN.entryForm), '表达式无法解析。');
    assert.equal(problemText(syntax, en.entryForm), syntax.message);
  });

  test('a misspelt function: the nearest known one named in Chinese too', async () => {
    const { parseExpression } = await import('../../../src/core/index.js');
    let message = '';
    try {
      parseExpression("JSON_GTE($response, 'id')");
    } catch (error) {
      message = (error as Error).message;
    }
    assert.match(message, /did you mean JSON_GET\?/);
    const problem = { code: 'expression_unknown_function', field: 'tokenParse', message };
    assert.equal(
      problemText(problem, zhCN.entryForm),
      '表达式调用了不存在的函数。您是不是要写 JSON_GET？',
    );
    assert.equal(problemText(problem, en.entryForm), message);
  });

  test("the core's plain-http warning in Chinese, by its exact sentence", () => {
    const warning =
      'the entry uses plain http: codes and tokens would cross the network unencrypted';
    assert.equal(warningText(warning, zhCN.entryForm), zhCN.entryForm.problemSays.plainHttp);
    assert.equal(warningText(warning, en.entryForm), warning);
  });
});
