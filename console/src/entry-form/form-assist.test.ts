import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { screenWords } from './field-labels.js';
import {
  callbackUrl,
  headerExample,
  idFromName,
  publicOrigin,
  takenIdProblem,
  uniqueId,
  visibleProblems,
} from './form-assist.js';
import { en, zhCN } from '../i18n/catalogs.js';

describe('the entry form speaks the screen language', () => {
  test('API field names in a message become the labels on screen', () => {
    assert.equal(
      screenWords('${code} is not allowed in authorizeUrl; use it in tokenUrl', en.entryForm),
      '${code} is not allowed in Authorization URL; use it in Token URL',
    );
    // A placeholder or a longer word is left alone.
    assert.equal(screenWords('${appid} and appidx', en.entryForm), '${appid} and appidx');
    // A path names the field typed in: a row of a list, not the URL it takes placeholders from.
    assert.equal(
      screenWords(
        '${access_token} is not allowed in tokenRequest.headers[0]. Allowed in tokenRequest.headers[0]: ${code}.',
        en.entryForm,
      ),
      '${access_token} is not allowed in Token call headers, row 1. Allowed in Token call headers, row 1: ${code}.',
    );
    assert.equal(screenWords('userInfoUrl is required', en.entryForm), 'User-info URL is required');
    assert.equal(
      screenWords('userInfoUrl is required', zhCN.entryForm),
      '用户信息 URL is required',
    );
  });

  test('"required" only for the fields reached, or for all once saving was tried', () => {
    const problems = [
      { field: 'name', message: 'is required' },
      { field: 'tokenUrl', message: 'is required' },
      { field: 'authorizeUrl', message: '${code} is not allowed in authorizeUrl' },
    ];
    assert.deepEqual(
      visibleProblems(problems, new Set(['name']), false, en.entryForm, {}).map((p) => [
        p.field,
        p.message,
      ]),
      [
        ['name', 'is required'],
        ['authorizeUrl', '${code} is not allowed in Authorization URL'],
      ],
    );
    assert.equal(visibleProblems(problems, new Set(), true, en.entryForm, {}).length, 3);
  });

  test('an answer that says a field is missing which holds a value by now shows nothing for it', () => {
    // The answer checked the entry before the URLs and the header were typed.
    const problems = [
      { field: 'tokenUrl', message: 'is required' },
      { field: 'userInfoUrl', message: 'is required' },
      { field: 'userInfoRequest.headers[0].name', message: 'must not be empty' },
      { field: 'name', message: 'must not be empty' },
    ];
    const now = {
      name: ' ',
      tokenUrl: 'POST https://example.com/token',
      userInfoUrl: '',
      userInfoRequest: { headers: [{ name: 'Authorization', value: 'Bearer ${access_token}' }] },
    };
    const touched = new Set(['name', 'tokenUrl', 'userInfoUrl', 'userInfoRequest']);
    assert.deepEqual(
      visibleProblems(problems, touched, true, en.entryForm, now).map((p) => p.field),
      ['userInfoUrl', 'name'],
    );
  });

  test('a field left blank shows no problem of any kind until it is reached', () => {
    // A preset's form before anything is touched: the id is blank.
    const problems = [
      { field: 'id', message: 'must be 1-64 lowercase letters, digits or hyphens' },
      { field: 'authorizeUrl', message: '${code} is not allowed in authorizeUrl' },
    ];
    const now = { id: '', authorizeUrl: 'https://example.com/auth?code=${code}' };
    assert.deepEqual(
      visibleProblems(problems, new Set(), false, en.entryForm, now).map((p) => p.field),
      ['authorizeUrl'],
    );
    assert.deepEqual(
      visibleProblems(problems, new Set(['id']), false, en.entryForm, now).map((p) => p.field),
      ['id', 'authorizeUrl'],
    );
    assert.equal(visibleProblems(problems, new Set(), true, en.entryForm, now).length, 2);
    // What was typed is checked at once, reached or not.
    const typed = { ...now, id: 'Bad Id' };
    assert.equal(visibleProblems(problems, new Set(), false, en.entryForm, typed).length, 2);
  });

  test('an id suggested from a preset avoids the ids other entries have', () => {
    assert.equal(uniqueId('github', ['gitlab']), 'github');
    assert.equal(uniqueId('github', ['github', 'github-2']), 'github-3');
  });

  test('a core problem is said from its code and values, in the language on screen', () => {
    const problem = {
      field: 'tokenRequest.headers[0]',
      code: 'template_placeholder_not_allowed',
      column: 8,
      message:
        '${access_token} is not allowed in tokenRequest.headers[0]. Allowed in tokenRequest.headers[0]: ${appid}.',
      params: {
        placeholder: '${access_token}',
        place: 'tokenRequest.headers[0]',
        allowed: '${appid}',
      },
    };
    assert.equal(
      visibleProblems([problem], new Set(), false, zhCN.entryForm, {})[0]?.message,
      '令牌调用请求头，第 1 行中不能使用 ${access_token}。此处可用：${appid}。',
    );
    assert.equal(
      visibleProblems(
        [{ field: 'id', message: 'is required' }],
        new Set(),
        true,
        zhCN.entryForm,
        {},
      )[0]?.message,
      '必须填写',
    );
  });

  test('a header hint offers only what the call accepts', () => {
    assert.equal(headerExample(['appid', 'code']), 'X-Appid: ${appid}');
    assert.equal(headerExample(['appid', 'access_token']), 'Authorization: Bearer ${access_token}');
    assert.equal(headerExample(undefined), 'Accept: application/json');
  });

  test('an id another entry has is a problem while typing', () => {
    assert.deepEqual(takenIdProblem('corp', ['corp', 'b'], en.entryForm), {
      field: 'id',
      code: 'entry_exists',
      message: 'another entry has the Id "corp" already; choose another',
    });
    assert.equal(
      takenIdProblem('corp', ['corp'], zhCN.entryForm)?.message,
      '已有其他登录方式使用标识“corp”；请另选一个',
    );
    assert.equal(takenIdProblem('new-one', ['corp'], en.entryForm), undefined);
    assert.equal(takenIdProblem('', [''], en.entryForm), undefined);
  });

  test('the id is suggested from the name', () => {
    assert.equal(idFromName('GitHub'), 'github');
    assert.equal(idFromName('  Corp SSO (EU) '), 'corp-sso-eu');
    assert.equal(idFromName('Société Générale'), 'societe-generale');
    assert.equal(idFromName('x'.repeat(80)).length, 64);
    assert.equal(idFromName('!!!'), '');
  });

  test('the full callback URL is the public address and the path', () => {
    assert.equal(
      callbackUrl('https://sso.example.test/', 'github'),
      'https://sso.example.test/_sso/callback/github',
    );
    assert.equal(
      callbackUrl('http://127.0.0.1:8080', ''),
      'http://127.0.0.1:8080/_sso/callback/{id}',
    );
  });

  test('the public address is the configured public URL, the page’s origin only without one', () => {
    assert.equal(
      publicOrigin('https://sso.example.test', 'http://10.0.0.5:8080'),
      'https://sso.example.test',
    );
    assert.equal(publicOrigin('', 'http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
  });
});
