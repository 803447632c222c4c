import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiFixture } from '../admin-api/test-support/api-fixtures.js';
import { json, withApi } from '../admin-api/test-support/api-fixtures.js';
import type { ForgingProvider } from '../../foundation/oidc/test-support/forging-provider.js';
import {
  signIdToken,
  startForgingProvider,
} from '../../foundation/oidc/test-support/forging-provider.js';

/** The API fixture's clock: the forged tokens are issued at the same time. */
const fixtureNow = Date.parse('2024-05-01T12:00:00Z');

interface TraceAnswer {
  trace: {
    outcome: string | null;
    error: { code: string } | null;
    steps: { name: string; results: { label: string; outcome: string; value?: unknown }[] }[];
  };
  text: string;
}

/** A test sign-in of the stored entry `oidc`, through the provider's code, to its trace. */
async function trialSignIn(api: ApiFixture): Promise<TraceAnswer> {
  const started = await api.inject({
    method: 'POST',
    url: '/_sso/api/entries/oidc/test-sign-in',
    headers: api.token,
  });
  assert.equal(started.statusCode, 201, started.body);
  const { id, url } = json<{ id: string; url: string }>(started);
  const authorized = await fetch(url, { redirect: 'manual' });
  const back = new URL(authorized.headers.get('location') ?? '');
  const page = await api.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: { accept: 'text/html' },
  });
  assert.equal(page.statusCode, 200, page.body);
  const answer = await api.inject({
    method: 'GET',
    url: `/_sso/api/test-sign-ins/${id}`,
    headers: api.token,
  });
  return json<TraceAnswer>(answer);
}

function tokenResults(trace: TraceAnswer): { label: string; outcome: string; value?: unknown }[] {
  return trace.trace.steps.find((step) => step.name === 'token')?.results ?? [];
}

/**
 * The trace of an OpenID Connect entry configured by discovery alone: its
 * lines name the expressions discovery filled in, not the stored entry's
 * empty fields, and one line gives each id_token check's outcome.
 */
describe('the test sign-in trace of a discovery-configured OpenID Connect entry', () => {
  async function withProvider(run: (api: ApiFixture, forge: ForgingProvider) => Promise<void>) {
    const forge = await startForgingProvider({ clock: () => fixtureNow });
    try {
      await withApi(
        async (api) => {
          const created = await api.inject({
            method: 'POST',
            url: '/_sso/api/entries',
            headers: api.token,
            payload: {
              id: 'oidc',
              name: 'OIDC',
              enabled: true,
              appid: forge.clientId,
              appsecret: 'forge-secret',
              oidc: { issuer: forge.issuer },
            },
          });
          assert.equal(created.statusCode, 201, created.body);
          await run(api, forge);
        },
        {},
        { SSOGATE_OUTBOUND_ALLOW: '127.0.0.1', SSOGATE_PUBLIC_URL: 'http://127.0.0.1:8080' },
      );
    } finally {
      await forge.close();
    }
  }

  test('the discovered expressions and the passed id_token checks, without token values', async () => {
    await withProvider(async (api) => {
      const trace = await trialSignIn(api);
      assert.equal(trace.trace.outcome, 'success', trace.text);
      const labels = tokenResults(trace).map((result) => result.label);
      assert.ok(labels.includes("tokenParse: JSON_GET($response, 'access_token')"), labels.join());
      const checks = tokenResults(trace).find((result) => result.label.startsWith('id_token'));
      assert.deepEqual(checks, {
        label: 'id_token checks: signature, iss, aud, exp, iat, sub, nonce',
        outcome: 'ok',
        value:
          'signature passed, iss passed, aud passed, exp passed, iat passed, sub passed, nonce passed',
      });
      const userInfo = trace.trace.steps.find((step) => step.name === 'user info');
      assert.ok(
        userInfo?.results.some(
          (result) =>
            result.label === "userId = JSON_GET($response, 'sub')" && result.outcome === 'ok',
        ),
        JSON.stringify(userInfo?.results),
      );
      assert.doesNotMatch(trace.text, /eyJ/, 'no token text in the trace');
    });
  });

  test('a failed check is named, the ones after it not checked', async () => {
    await withProvider(async (api, forge) => {
      forge.idToken = (context) => signIdToken(context, { aud: 'another-client' });
      const trace = await trialSignIn(api);
      assert.equal(trace.trace.error?.code, 'id_token_audience');
      const checks = tokenResults(trace).find((result) => result.label.startsWith('id_token'));
      assert.equal(checks?.outcome, 'failed');
      assert.equal(
        checks.value,
        'signature passed, iss passed, aud failed, exp not checked, iat not checked, sub not checked, nonce not checked',
      );
    });
  });
});
