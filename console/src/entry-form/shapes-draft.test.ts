import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EntryView } from '../types.js';
import { emptyShapes, shapesBody, shapesFromEntry, shapesProblems } from './shapes-draft.js';
import { en, zhCN } from '../i18n/catalogs.js';

describe('the shapes beyond the basic flow in the form', () => {
  test('blank fields send nothing', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(shapesBody(emptyShapes))), {});
  });

  test('a stored entry comes back as it was sent', () => {
    const appToken = {
      url: 'https://as.example/gettoken?corpid=${appid}&corpsecret=${app_secret}',
      parse: "JSON_GET($response, 'access_token')",
      ttlSeconds: 600,
    };
    const draft = shapesFromEntry({
      callbackCodeParameter: 'authCode',
      authorizeFragment: 'wechat_redirect',
      codeInUserInfo: true,
      responseMode: 'form_post',
      appToken,
    } as unknown as EntryView);
    assert.deepEqual(JSON.parse(JSON.stringify(shapesBody(draft))), {
      callbackCodeParameter: 'authCode',
      authorizeFragment: 'wechat_redirect',
      codeInUserInfo: true,
      responseMode: 'form_post',
      appToken,
    });
  });

  test('calls text that is not the expected JSON object is a problem, and is not sent', () => {
    for (const calls of ['{', '[]', '{"tokenUrl": "x"}']) {
      const draft = { ...emptyShapes, calls };
      assert.equal(shapesProblems(draft, en.entryForm).length, 1, calls);
      assert.match(shapesProblems(draft, zhCN.entryForm)[0]?.message ?? '', /\p{Script=Han}/u);
      assert.deepEqual(JSON.parse(JSON.stringify(shapesBody(draft))), {});
    }
  });
});
