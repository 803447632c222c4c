import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import { waitForAuditEvent } from '../../test-support/audit-events.js';
import type { AuditEvent } from '../../foundation/storage/types.js';
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

  /** The newest failed event of `kind` with `code`, once it is written. */
  const refusal = (kind: AuditEvent['kind'], code: string) =>
    waitForAuditEvent(
      gw.storage.audit,
      // Wide enough for a flood's one event among the refusals written after it.
      { kind, outcome: 'failure', limit: 200 },
      (event) => event.code === code,
    );
  const facts = (event: AuditEvent) => [event.userId, event.entryId, event.detail];

  test('each refusal is one failed event with its code and the client, never a secret', async () => {
    const browser = gw.browser();
    await signInAtExample(browser, gw.example.url);
    const authorizeUrl = (parameters: Record<string, string>) =>
      `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: 'audited',
        redirect_uri: redirectUri,
        scope: 'openid',
        ...parameters,
      }).toString()}`;
    const before = (await gw.storage.audit.list({ outcome: 'failure', limit: 100 })).length;

    // A redirect URI the client does not list: a page of ours, with its reference.
    const page = await followTo(browser, authorizeUrl({ redirect_uri: `${redirectUri}/other` }));
    assert.equal(page.status, 400);
    const unlisted = await refusal('oidc_code', 'oidc_authorization_invalid');
    assert.deepEqual(facts(unlisted), [null, null, { clientId: 'audited' }]);
    assert.match(unlisted.reference ?? '', /./);
    // Back to the client: the code tells which of several invalid_request it was.
    const back = await followTo(browser, authorizeUrl({ prompt: 'none login' }));
    assert.equal(back.arrived?.searchParams.get('error'), 'invalid_request');
    const combined = await refusal('oidc_code', 'provider_prompt_none_combined');
    assert.deepEqual(facts(combined), [null, null, { clientId: 'audited' }]);

    // Client authentication at the token endpoint: a wrong secret, an unknown client.
    const code = (await followTo(browser, authorizeUrl({}))).arrived?.searchParams.get('code');
    assert.ok(typeof code === 'string');
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: redirectUri };
    const wrongSecret = 'ssgc_not-the-secret-of-this-client-at-all';
    assert.equal((await tokenRequest(gw.url, 'audited', exchange, wrongSecret)).status, 401);
    const secretWrong = await refusal('oidc_token', 'provider_client_secret_wrong');
    assert.deepEqual(facts(secretWrong), [
      null,
      null,
      { clientId: 'audited', grantType: 'authorization_code' },
    ]);
    assert.equal((await tokenRequest(gw.url, 'no-such-client', exchange)).status, 401);
    const unknown = await refusal('oidc_token', 'provider_client_unknown');
    assert.deepEqual(facts(unknown), [null, null, { grantType: 'authorization_code' }]);

    // A code presented again: refused and its grant revoked, audited as reused.
    assert.equal((await tokenRequest(gw.url, 'audited', exchange)).status, 200);
    const again = await tokenRequest(gw.url, 'audited', exchange);
    assert.deepEqual(
      [again.status, ((await again.json()) as { error: string }).error],
      [400, 'invalid_grant'],
    );
    const reused = await refusal('oidc_token', 'provider_code_reused');
    assert.deepEqual(facts(reused), [
      null,
      null,
      { clientId: 'audited', grantType: 'authorization_code' },
    ]);

    // A sign-out whose id_token_hint this provider did not sign.
    const forged = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.';
    const logout = await followTo(
      browser,
      `${gw.url}/_sso/oidc/logout?${new URLSearchParams({ id_token_hint: forged }).toString()}`,
    );
    assert.equal(logout.status, 400);
    const badHint = await refusal('sign_out', 'oidc_logout_invalid');
    assert.deepEqual(facts(badHint), [null, null, null]);

    // A Bearer token unknown at userinfo.
    const userinfo = await fetch(`${gw.url}/_sso/oidc/userinfo`, {
      headers: { authorization: 'Bearer an-access-token-nobody-was-given' },
    });
    assert.equal(userinfo.status, 401);
    const unknownToken = await refusal('oidc_token', 'provider_access_token_invalid');
    assert.deepEqual(facts(unknownToken), [null, null, { endpoint: 'userinfo' }]);

    // One event a refusal: seven refused requests, seven events.
    const after = await gw.storage.audit.list({ outcome: 'failure', limit: 100 });
    assert.equal(after.length - before, 7);
    const trail = JSON.stringify(after);
    for (const secret of [code, clientSecret, wrongSecret, forged, 'an-access-token-nobody']) {
      assert.ok(!trail.includes(secret), 'a code, token, secret or hint in the audit trail');
    }
  });

  // Last: it leaves this address over the token endpoint's limit for a minute.
  test('past the token endpoint limit, a flood writes one event, not one a request', async () => {
    const requests = Array.from({ length: 130 }, () =>
      tokenRequest(gw.url, 'audited', { grant_type: 'client_credentials' }),
    );
    const statuses = await Promise.all(requests.map(async (request) => (await request).status));
    assert.ok(statuses.filter((status) => status === 429).length >= 10);
    const limited = await refusal('oidc_token', 'provider_token_rate_limited');
    assert.deepEqual(facts(limited), [null, null, null]);
    const events = await gw.storage.audit.list({ kind: 'oidc_token', limit: 200 });
    assert.equal(events.filter((event) => event.code === 'provider_token_rate_limited').length, 1);
  });
});
