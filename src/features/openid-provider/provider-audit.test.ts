import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import {
  clientSecret,
  followTo,
  redirectUri,
  registerClient,
  startProviderGateway,
  tokenRequest,
} from './test-support/provider-fixture.js';

describe('OpenID Provider: the audit trail', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startProviderGateway();
    await registerClient(gw, 'audited', { refreshTokens: true });
  });
  after(() => gw.close());

  const token = async (fields: Record<string, string>) => {
    const response = await tokenRequest(gw.url, 'audited', fields);
    assert.equal(response.status, 200);
    return (await response.json()) as Record<string, string>;
  };

  test('a code issued and each token exchange are audited, with no code or token in them', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const authorize = `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: 'audited',
      redirect_uri: redirectUri,
      scope: 'openid email',
    }).toString()}`;
    const code = (await followTo(browser, authorize)).arrived?.searchParams.get('code') ?? '';
    const issued = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    });
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: issued.refresh_token ?? '',
    });

    const codeEvent = await waitForAuditEvent(gw.storage.audit, { kind: 'oidc_code' });
    assert.deepEqual(
      [codeEvent.outcome, codeEvent.userId, codeEvent.entryId, codeEvent.detail],
      ['success', 'alice', 'corp', { clientId: 'audited', scope: 'openid email' }],
    );
    const exchanges = await gw.storage.audit.list({ kind: 'oidc_token', limit: 10 });
    assert.deepEqual(
      exchanges
        .map((event) => [event.outcome, event.userId, event.entryId, event.detail])
        .reverse(),
      [
        [
          'success',
          'alice',
          'corp',
          {
            clientId: 'audited',
            grantType: 'authorization_code',
            scope: 'openid email',
            refreshToken: true,
          },
        ],
        [
          'success',
          'alice',
          'corp',
          {
            clientId: 'audited',
            grantType: 'refresh_token',
            scope: 'openid email',
            refreshToken: true,
          },
        ],
      ],
    );

    const trail = JSON.stringify(await gw.storage.audit.list({ limit: 100 }));
    const log = gw.logLines.join('\n');
    const secrets = [code, clientSecret];
    for (const answer of [issued, refreshed]) {
      secrets.push(answer.access_token ?? '', answer.refresh_token ?? '', answer.id_token ?? '');
    }
    for (const secret of secrets) {
      assert.ok(secret.length >= 12, 'a value to look for');
      assert.ok(!trail.includes(secret), 'a code, token or secret in the audit trail');
      assert.ok(!log.includes(secret), 'a code, token or secret in the log');
    }
  });
});
