import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { en, zhCN } from '../i18n/catalogs.js';
import { inWords, provisioningLine, stepName } from './trace-words.js';

describe('a test sign-in trace in the language on screen', () => {
  test('step names in Chinese, a further call by its name, an unknown step as recorded', () => {
    const t = zhCN.trialSignIn;
    assert.equal(stepName('user info', t), '用户信息');
    assert.equal(stepName('callback', t), '回调');
    assert.equal(stepName('provisioning', t), '用户开通');
    assert.equal(stepName('call member', t), '调用 member');
    assert.equal(stepName('something new', t), 'something new');
    assert.equal(stepName('user info', en.trialSignIn), 'user info');
  });

  test("a directory's and a SAML provider's steps, as the gateway names them, in both languages", () => {
    // src/features/ldap-directory/directory-sign-in.ts, sign-in/sources/ldap-source.ts and saml-source.ts.
    const chinese = ['service bind', 'user search', 'user bind', 'groups', 'mapped user'].map(
      (name) => stepName(name, zhCN.trialSignIn),
    );
    assert.deepEqual(chinese, ['服务账号绑定', '搜索用户', '用户绑定', '组', '映射出的用户']);
    assert.equal(stepName('saml response', zhCN.trialSignIn), 'SAML 应答');
    assert.equal(stepName('saml response', en.trialSignIn), 'SAML response');
    assert.equal(stepName('service bind', en.trialSignIn), 'service bind');
  });

  test('what provisioning would do, by its action and the mapped user', () => {
    const plan = { action: 'create', message: 'a new user alice would be created' };
    assert.equal(provisioningLine(plan, 'alice', zhCN.trialSignIn), '创建新用户 alice');
    assert.equal(
      zhCN.trialSignIn.provisioning(provisioningLine(plan, 'alice', zhCN.trialSignIn)),
      '用户开通将会：创建新用户 alice',
    );
    assert.equal(provisioningLine(plan, undefined, zhCN.trialSignIn), plan.message);
  });

  test("a failed call's cause in words, not Node's code", () => {
    const message =
      'token_request_failed: outbound_network: POST to 127.0.0.1:9393 failed (UND_ERR_SOCKET)';
    assert.equal(
      inWords(message, en.trialSignIn),
      'token_request_failed: outbound_network: POST to 127.0.0.1:9393 failed: the server closed the connection',
    );
    assert.equal(
      inWords(message, zhCN.trialSignIn),
      'token_request_failed: outbound_network: 对 127.0.0.1:9393 的 POST 调用失败：服务器关闭了连接',
    );
    assert.match(inWords('POST to h:1 failed (ECONNREFUSED)', zhCN.trialSignIn), /连接被拒绝/);
    assert.equal(
      inWords('GET to h:1 did not complete within 10000 ms', en.trialSignIn),
      'GET to h:1 timed out: no answer within 10000 ms',
    );
    assert.equal(
      inWords('GET to h:1 failed (SOMETHING_ELSE)', zhCN.trialSignIn),
      'GET to h:1 failed (SOMETHING_ELSE)',
    );
  });
});
