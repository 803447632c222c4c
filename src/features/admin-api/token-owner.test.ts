import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../foundation/config/load-config.js';
import { createSession, csrfTokenFor } from '../sessions/session-service.js';
import { executeStatements } from '../../test-support/database-text.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { testBackendName } from '../../test-support/test-backend.js';
import { cookieNames } from '../../foundation/web/index.js';

/**
 * An API token made by an administrator works only while its owner could
 * still use the admin API (docs/admin-api.md#api-tokens): the owner is read
 * from the shared database at every call, so a group taken away at the next
 * sign-in, a lock, revoked administrator rights, a disabled entry or a
 * deleted user ends the owner's tokens at the very next request, on every
 * gateway sharing the database.
 */

interface ErrorBody {
  error: { code: string; message: string };
}

/** Cookie and CSRF headers of a session, as the console sends them. */
type SessionHeaders = Record<string, string>;

function sessionHeaders(cookie: string): SessionHeaders {
  const sessionId = cookie.split('=')[1] ?? '';
  return { cookie, 'x-csrf-token': csrfTokenFor(sessionId) };
}

/** A local administrator's session, for the changes the tests make to other users. */
async function localAdminSession(gw: TestGateway, userId: string): Promise<SessionHeaders> {
  const { user } = await gw.storage.users.insertIfAbsent(
    { userId, sourceEntryId: null, isAdmin: true },
    gw.gateway.clock(),
  );
  const sessionId = await createSession(gw.gateway.sessions, user, null, undefined);
  const cookie = `${cookieNames(gw.gateway.config.secureCookies).session}=${sessionId}`;
  return sessionHeaders(cookie);
}

/** Signs `username` in through the example entry; the session's headers. */
async function signInThroughEntry(gw: TestGateway, username: string): Promise<SessionHeaders> {
  const browser = gw.browser();
  await signInAtExample(browser, gw.example.url, username);
  const page = await browser.open(`${gw.url}/_sso/login/example-standard?return_to=/x`);
  assert.equal(page.url, `${gw.url}/x`, page.body);
  const sessionId = browser.cookies(gw.url).get('ssogate_session') ?? '';
  return sessionHeaders(`ssogate_session=${sessionId}`);
}

async function call(
  gatewayUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${gatewayUrl}/_sso/api/${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

/** Creates a token with the session of its owner; its secret. */
async function tokenMadeBy(gw: TestGateway, owner: SessionHeaders, name: string): Promise<string> {
  const created = await call(gw.url, 'POST', 'tokens', owner, { name });
  assert.equal(created.status, 201, created.text);
  return (JSON.parse(created.text) as { secret: string }).secret;
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** The status of GET /_sso/api/users with the token, and its error code if any. */
async function usersWith(gatewayUrl: string, secret: string): Promise<[number, string | null]> {
  const answer = await call(gatewayUrl, 'GET', 'users', bearer(secret));
  const code = answer.status === 200 ? null : (JSON.parse(answer.text) as ErrorBody).error.code;
  return [answer.status, code];
}

async function userRow(gw: TestGateway, userId: string): Promise<number> {
  const row = await gw.storage.users.findByUserId(userId);
  assert.ok(row, userId);
  return row.id;
}

/** Deletes a user's row as an operator would in the database itself (there is no API for it). */
async function deleteUserRow(database: Config['database'], rowId: number): Promise<void> {
  await executeStatements(database, [
    `delete from sessions where user_row_id = ${rowId}`,
    `delete from users where id = ${rowId}`,
  ]);
}

const refused = [401, 'api_token_owner_revoked'];

/** The reason the audit log gives for the latest token refusal. */
async function refusalReason(gw: TestGateway): Promise<unknown> {
  const [event] = await gw.storage.audit.list({ kind: 'token_change', limit: 1 });
  assert.equal(event?.outcome, 'failure');
  return event.detail?.reason;
}
const admins = ['alice', 'bob', 'carol', 'dave', 'erin'];

describe("API tokens end with their owner's rights", () => {
  let dir: string;
  let gw: TestGateway;
  let root: SessionHeaders;
  // The example server reads these arrays at each user-info call.
  const groups = Object.fromEntries(admins.map((name) => [name, ['sso-admins']]));

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssogate-token-owner-'));
    gw = await startTestGateway({
      entries: ({ standard }) => [
        {
          ...standard,
          groupMapping: {
            expression: "JSON_GET($response, 'groups')",
            adminGroups: ['sso-admins'],
          },
        },
      ],
      usernames: admins,
      groups,
      // A file rather than memory on SQLite, so that a second connection can delete a user.
      env:
        testBackendName() === 'sqlite'
          ? { SSOGATE_DATABASE_URL: `sqlite:${join(dir, 'ssogate.db')}` }
          : {},
    });
    root = await localAdminSession(gw, 'root');
  });
  after(async () => {
    await gw.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('an administrator by a provider group: the token ends when the group is gone at the next sign-in', async () => {
    const secret = await tokenMadeBy(gw, await signInThroughEntry(gw, 'alice'), 'alice-script');
    assert.deepEqual(await usersWith(gw.url, secret), [200, null]);
    groups.alice?.splice(0, 1, 'dev');
    await signInThroughEntry(gw, 'alice');
    assert.equal((await gw.storage.users.findByUserId('alice'))?.isAdmin, false);
    assert.deepEqual(await usersWith(gw.url, secret), refused);
    assert.equal(await refusalReason(gw), 'its owner alice is no longer an administrator');
    const [event] = await gw.storage.audit.list({ kind: 'token_change', limit: 1 });
    assert.equal(event?.code, 'api_token_owner_revoked');
    assert.equal(event.actor, 'token:alice-script');
    assert.equal(event.userId, 'alice');
  });

  test('the owner locked: the token is refused at the next request', async () => {
    const secret = await tokenMadeBy(gw, await signInThroughEntry(gw, 'bob'), 'bob-script');
    assert.deepEqual(await usersWith(gw.url, secret), [200, null]);
    const lock = await call(gw.url, 'POST', `users/${await userRow(gw, 'bob')}/lock`, root);
    assert.equal(lock.status, 200, lock.text);
    assert.deepEqual(await usersWith(gw.url, secret), refused);
    assert.equal(await refusalReason(gw), 'its owner bob is locked');
    // Unlocking gives the rights back, and with them the token.
    await call(gw.url, 'POST', `users/${await userRow(gw, 'bob')}/unlock`, root);
    assert.deepEqual(await usersWith(gw.url, secret), [200, null]);
  });

  test("the owner's administrator rights revoked: the token is refused at the next request", async () => {
    const secret = await tokenMadeBy(gw, await signInThroughEntry(gw, 'carol'), 'carol-script');
    assert.deepEqual(await usersWith(gw.url, secret), [200, null]);
    const row = await userRow(gw, 'carol');
    const revoke = await call(gw.url, 'POST', `users/${row}/revoke-admin`, root);
    assert.equal(revoke.status, 200, revoke.text);
    assert.deepEqual(await usersWith(gw.url, secret), refused);
    assert.equal(await refusalReason(gw), 'its owner carol is no longer an administrator');
  });

  test('the owner deleted from the database: the token is refused at the next request', async () => {
    const secret = await tokenMadeBy(gw, await signInThroughEntry(gw, 'erin'), 'erin-script');
    assert.deepEqual(await usersWith(gw.url, secret), [200, null]);
    await deleteUserRow(gw.gateway.config.database, await userRow(gw, 'erin'));
    assert.deepEqual(await usersWith(gw.url, secret), refused);
    assert.equal(await refusalReason(gw), 'its owner erin no longer exists');
  });

  // Last: it closes the entry every other test signs in with.
  test('the entry the owner signs in through disabled: the token is refused at the next request', async () => {
    const secret = await tokenMadeBy(gw, await signInThroughEntry(gw, 'dave'), 'dave-script');
    assert.deepEqual(await usersWith(gw.url, secret), [200, null]);
    const disable = await call(gw.url, 'POST', 'entries/example-standard/disable', root);
    assert.equal(disable.status, 200, disable.text);
    assert.deepEqual(await usersWith(gw.url, secret), refused);
    assert.equal(
      await refusalReason(gw),
      'its owner dave signs in through entry example-standard, which is disabled or deleted',
    );
    // A local administrator's token does not depend on any entry.
    const rootSecret = await tokenMadeBy(gw, root, 'root-script');
    assert.deepEqual(await usersWith(gw.url, rootSecret), [200, null]);
  });
});

/**
 * Two gateways on one database (PostgreSQL, or one SQLite file): the owner
 * is read from the database at each call, so what one gateway changes the
 * other sees at its very next request.
 */
describe('API tokens on two gateways sharing a database', () => {
  let dir: string;
  let one: TestGateway;
  let two: TestGateway;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ssogate-token-owner-shared-'));
    // One key for both, as every instance of one deployment has.
    const key = { SSOGATE_SECRET_KEY: randomBytes(32).toString('base64') };
    one = await startTestGateway({
      env:
        testBackendName() === 'sqlite'
          ? { ...key, SSOGATE_DATABASE_URL: `sqlite:${join(dir, 'ssogate.db')}` }
          : key,
    });
    const { database, redisPrefix } = one.gateway.config;
    two = await startTestGateway({
      env: {
        ...key,
        SSOGATE_DATABASE_URL:
          database.kind === 'sqlite' ? `sqlite:${database.filename}` : database.url,
        SSOGATE_REDIS_PREFIX: redisPrefix,
      },
    });
  });
  after(async () => {
    await two.close();
    await one.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('administrator rights revoked on one gateway: the other refuses the token at its next request', async () => {
    const root = await localAdminSession(one, 'root');
    const owner = await localAdminSession(one, 'vic');
    const secret = await tokenMadeBy(one, owner, 'vic-script');
    assert.deepEqual(await usersWith(two.url, secret), [200, null]);
    assert.deepEqual(await usersWith(one.url, secret), [200, null]);
    const row = await userRow(one, 'vic');
    const revoke = await call(one.url, 'POST', `users/${row}/revoke-admin`, root);
    assert.equal(revoke.status, 200, revoke.text);
    assert.deepEqual(await usersWith(two.url, secret), refused);
    assert.deepEqual(await usersWith(one.url, secret), refused);
  });
});
