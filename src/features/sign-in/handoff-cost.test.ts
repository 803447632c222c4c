import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TestBrowser } from '../../test-support/browser.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import type { GatewayStorage } from '../../app/open-storage.js';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';

/** Every call the gateway makes to a store, as `store.method`, while counting is on. */
class StorageCalls {
  counting = false;
  readonly calls: string[] = [];

  /** `storage`, each of its stores replaced by one that records its calls. */
  wrap(storage: GatewayStorage): GatewayStorage {
    const record = (name: string) => {
      if (this.counting) this.calls.push(name);
    };
    return new Proxy(storage, {
      get(target, key, receiver) {
        const member: unknown = Reflect.get(target, key, receiver);
        if (typeof member !== 'object' || member === null) return member;
        return new Proxy(member, {
          get(store, method, storeReceiver) {
            const value: unknown = Reflect.get(store, method, storeReceiver);
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              record(`${String(key)}.${String(method)}`);
              return (value as (...given: unknown[]) => unknown).apply(store, args);
            };
          },
        });
      },
    });
  }

  async during(run: () => Promise<unknown>): Promise<string[]> {
    this.calls.length = 0;
    this.counting = true;
    try {
      await run();
    } finally {
      this.counting = false;
    }
    return [...this.calls];
  }
}

/**
 * What a handoff costs in storage (docs/design.md#one-sign-in-many-hosts),
 * counted on the Storage the gateway uses, on the run's backend (SQLite, or
 * PostgreSQL and Redis): a browser signed in at the auth host, its session
 * remembered there, opens a page of another host; the steps of the handoff
 * are each counted by the request that makes them.
 */
describe('the storage calls of a handoff', () => {
  const storage = new StorageCalls();
  let wiki: EchoUpstream;
  let gw: TestGateway;
  let port = 0;
  const at = (host: string, path: string) => `http://${host}.localhost:${port}${path}`;
  const browser = new TestBrowser({ connectTo: '127.0.0.1' });

  before(async () => {
    wiki = await startEchoUpstream();
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      wrapStorage: (opened) => storage.wrap(opened),
      envOfPort: (listening) => {
        port = listening;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.localhost:${listening}`,
          SSOGATE_UPSTREAM: `wiki.localhost:${listening}=${wiki.url}`,
        };
      },
    });
    await signInAtExample(browser, gw.example.url);
  });

  after(async () => {
    await browser.close();
    await gw.close();
    await wiki.close();
  });

  /**
   * The redirects from `url` in `by`, each answered and its storage calls
   * counted, until a 200 or, unvisited, the path `until`; each step with the
   * URL it redirected to (`next`, empty for the last).
   */
  async function walk(
    url: string,
    until?: string,
    by: TestBrowser = browser,
  ): Promise<{ path: string; calls: string[]; next: string }[]> {
    const steps: { path: string; calls: string[]; next: string }[] = [];
    let current = url;
    for (let hop = 0; hop < 12; hop += 1) {
      if (new URL(current).pathname === until) return steps;
      const answers: Response[] = [];
      const calls = await storage.during(async () => {
        const answer = await by.exchange('GET', current);
        await answer.arrayBuffer();
        answers.push(answer);
      });
      const location = answers[0]?.headers.get('location') ?? null;
      const next = location === null ? '' : new URL(location, current).href;
      steps.push({ path: new URL(current).pathname, calls, next });
      if (location === null) return steps;
      current = next;
    }
    throw new Error('no page within 12 redirects');
  }

  /** The walk's steps by path, and a step's calls other than its audit events. */
  const stepsOf = (steps: { path: string; calls: string[] }[]) => ({
    step: (path: string) => steps.find((each) => each.path === path)?.calls,
    notAudit: (calls: string[] | undefined) =>
      (calls ?? []).filter((call) => !call.startsWith('audit.')),
  });

  /**
   * `calls` without the session cache's catch-up with the revocations (on
   * SQLite, a read of their log; see the start step below), checked to be
   * at most one.
   */
  function withoutCatchUp(calls: string[]): string[] {
    const catchUps = calls.filter((call) => call === 'revocations.catchUp');
    assert.ok(catchUps.length <= 1, calls.join(' '));
    return calls.filter((call) => call !== 'revocations.catchUp');
  }

  test('a handoff: the record written at the auth host, consumed at the host, which makes its session', async () => {
    // The sign-in at the auth host first, its session then remembered there.
    await browser.open(at('sso', '/'));
    assert.equal((await browser.open(at('sso', '/_sso/me'), { accept: '*/*' })).status, 200);

    const steps = await walk(at('wiki', '/page'));
    const { step, notAudit } = stepsOf(steps);
    assert.deepEqual(
      steps.map(({ path }) => path),
      ['/page', '/_sso/handoff', '/_sso/handoff/finish', '/page'],
    );
    // The page without a session on wiki: no storage call at all.
    assert.deepEqual(steps[0]?.calls, []);
    // The auth host's step: the record is its one write; the session it
    // hands on is the one the gateway remembers, read from memory once the
    // cache has caught up with the revocations (on SQLite, a read of their log).
    assert.deepEqual(withoutCatchUp(notAudit(step('/_sso/handoff'))), ['pendingSignIns.save']);
    // The host's step: the record consumed (its one read, which deletes it)
    // and this host's session written. The sign-in's session comes from the
    // same cache, and the user id for the audit event from the record.
    assert.deepEqual(withoutCatchUp(notAudit(step('/_sso/handoff/finish'))), [
      'pendingSignIns.consume',
      'sessions.create',
    ]);
    // Its two audit events, started and finished.
    assert.deepEqual(
      [...(step('/_sso/handoff') ?? []), ...(step('/_sso/handoff/finish') ?? [])].filter((call) =>
        call.startsWith('audit.'),
      ),
      ['audit.append', 'audit.append'],
    );
  });

  test('a finish on an instance that does not remember the sign-in reads its session, and nothing else', async () => {
    const other = new TestBrowser({ connectTo: '127.0.0.1' });
    try {
      await signInAtExample(other, gw.example.url);
      // Up to the finish step, which then runs as on an instance whose cache
      // has never seen the sign-in (the auth host's step ran on another).
      const started = await walk(at('wiki', '/missed'), '/_sso/handoff/finish', other);
      const finish = started.at(-1)?.next ?? '';
      gw.gateway.sessionCache.forget({ scope: 'all' });
      const steps = await walk(finish, undefined, other);
      const { step, notAudit } = stepsOf(steps);
      assert.deepEqual(
        steps.map(({ path }) => path),
        ['/_sso/handoff/finish', '/missed'],
      );
      assert.deepEqual(withoutCatchUp(notAudit(step('/_sso/handoff/finish'))), [
        'pendingSignIns.consume',
        'sessions.get',
        'sessions.create',
      ]);
    } finally {
      await other.close();
    }
  });
});
