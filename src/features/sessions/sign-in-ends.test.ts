import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SignInEnded } from '../../foundation/storage/sign-in-ends.js';
import type { TestBrowser } from '../../test-support/browser.js';
import { storedApiToken } from '../../test-support/gateway-fixture.js';
import type { OidcTestSetup } from '../../foundation/oidc/test-support/oidc-gateway.js';
import {
  startOidcSetup,
  submitProviderForm,
} from '../../foundation/oidc/test-support/oidc-gateway.js';
import { signInAtProvider } from '../../foundation/oidc/test-support/openid-provider.js';
import { csrfTokenFor, resolveSession, sessionHash } from './session-service.js';

/** A browser signed in, and what names its sign-in. */
interface SignedIn {
  readonly browser: TestBrowser;
  readonly sessionId: string;
  readonly signInHash: string;
  readonly userRowId: number;
}

interface Path {
  readonly path: string;
  /** Ends the sign-in by this path. */
  readonly end: (signedIn: SignedIn) => Promise<void>;
  /** What the one event raised says. */
  readonly expected: (signedIn: SignedIn) => Pick<SignInEnded, 'ended' | 'reason'>;
}

/**
 * Every path that ends a gateway sign-in (docs/design.md#when-a-sign-in-ends)
 * raises exactly one event, with its reason, to the gateway's listeners; a
 * sign-in itself raises none. One sign-in of its own per path, at a real
 * OpenID Provider (the provider's logouts need one); the entry's disabling,
 * which ends every sign-in of it, last.
 */
describe('every path that ends a sign-in raises one event with its reason', () => {
  let setup: OidcTestSetup;
  let token: string;
  /** How far the gateway's clock is ahead of the wall clock. */
  let ahead = 0;
  const events: SignInEnded[] = [];
  /** A user of their own for each path. */
  const logins = Array.from({ length: 12 }, (_, index) => `user${index}`);
  let signIns = 0;
  before(async () => {
    setup = await startOidcSetup(() => ({}), {
      gateway: { clock: () => Date.now() + ahead },
      provider: { backchannelLogout: true, accounts: logins },
    });
    setup.gw.gateway.signInEnds.listen((event) => {
      events.push(event);
      return Promise.resolve();
    });
    token = await storedApiToken(setup.gw, 'sign-in-ends');
  });
  after(async () => setup.close());

  async function signIn(browser = setup.gw.browser()): Promise<SignedIn> {
    const login = logins[signIns++] ?? 'alice';
    const page = await signInAtProvider(browser, `${setup.gw.url}/_sso/login/oidc`, login);
    assert.equal(page.url, `${setup.gw.url}/`, page.body.slice(0, 300));
    const sessionId = browser.cookies(setup.gw.url).get('ssogate_session') ?? '';
    const session = await setup.gw.storage.sessions.get(sessionHash(sessionId));
    assert.ok(session !== undefined);
    return { browser, sessionId, signInHash: session.idHash, userRowId: session.userRowId };
  }

  const api = async (path: string) => {
    const answer = await fetch(`${setup.gw.url}/_sso/api/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(answer.status, 200, await answer.text());
  };
  const signOut = async ({ browser, sessionId }: SignedIn, scope: string) => {
    await browser.submit(`${setup.gw.url}/_sso/logout`, { csrf: csrfTokenFor(sessionId), scope });
  };

  const paths: readonly Path[] = [
    {
      path: 'sign-out here',
      end: (signedIn) => signOut(signedIn, 'here'),
      expected: ({ signInHash }) => ({ ended: { signInHash }, reason: 'user_signed_out' }),
    },
    {
      path: 'sign-out everywhere',
      end: (signedIn) => signOut(signedIn, 'everywhere'),
      expected: ({ signInHash }) => ({ ended: { signInHash }, reason: 'user_signed_out' }),
    },
    {
      path: 'a new sign-in in the same browser',
      end: async ({ browser }) => {
        const page = await signInAtProvider(browser, `${setup.gw.url}/_sso/login/oidc`);
        assert.equal(page.url, `${setup.gw.url}/`);
      },
      expected: ({ signInHash }) => ({ ended: { signInHash }, reason: 'sign_in_replaced' }),
    },
    {
      path: 'the user locked by an administrator',
      end: ({ userRowId }) => api(`users/${userRowId}/lock`),
      expected: ({ userRowId }) => ({ ended: { userRowId }, reason: 'user_locked' }),
    },
    {
      path: "an administrator ends the user's sessions",
      end: ({ userRowId }) => api(`users/${userRowId}/end-sessions`),
      expected: ({ userRowId }) => ({ ended: { userRowId }, reason: 'ended_by_administrator' }),
    },
    {
      // The provider's refusal itself is oidc-revalidation.test.ts's; here, its verdict.
      path: 'a refused re-validation',
      end: async ({ sessionId }) => {
        const deps = { ...setup.gw.gateway.sessions, revalidate: () => Promise.resolve(false) };
        assert.equal(await resolveSession(deps, sessionId), undefined);
      },
      expected: ({ signInHash }) => ({ ended: { signInHash }, reason: 'revalidation_failed' }),
    },
    {
      path: "the provider's back-channel logout",
      end: async ({ browser }) => {
        const confirm = await browser.open(`${setup.provider.issuer}/session/end`);
        const done = await submitProviderForm(browser, confirm, { logout: 'yes' });
        assert.equal(done.status, 200, done.body.slice(0, 200));
      },
      expected: ({ signInHash }) => ({ ended: { signInHash }, reason: 'provider_logout' }),
    },
    {
      path: "the provider's front-channel logout",
      end: async ({ signInHash }) => {
        const sid = (await setup.gw.storage.upstreamSessions.get(signInHash))?.providerSid ?? '';
        const query = new URLSearchParams({ iss: setup.provider.issuer, sid });
        const done = await fetch(
          `${setup.gw.url}/_sso/frontchannel-logout/oidc?${query.toString()}`,
        );
        assert.equal(done.status, 200, await done.text());
      },
      expected: ({ signInHash }) => ({ ended: { signInHash }, reason: 'provider_logout' }),
    },
    {
      path: 'expiry, found at the next request',
      end: async ({ browser }) => {
        ahead = setup.gw.gateway.config.sessionLifetimeMs;
        try {
          const me = await browser.open(`${setup.gw.url}/_sso/me`, { accept: 'application/json' });
          assert.equal(me.status, 401);
        } finally {
          ahead = 0;
        }
      },
      expected: ({ signInHash }) => ({ ended: { signInHash }, reason: 'sign_in_over' }),
    },
    {
      path: 'the entry disabled',
      end: () => api('entries/oidc/disable'),
      expected: () => ({ ended: { entryId: 'oidc' }, reason: 'entry_sessions_ended' }),
    },
  ];

  for (const { path, end, expected } of paths) {
    test(path, async () => {
      const signedIn = await signIn();
      assert.deepEqual(events, [], 'a sign-in raises no end');
      await end(signedIn);
      const raised = events.splice(0).map(({ ended, reason }) => ({ ended, reason }));
      assert.deepEqual(raised, [expected(signedIn)]);
    });
  }
});
