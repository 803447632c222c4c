import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Base64url } from '../foundation/crypto/hash.js';
import type { TestGateway } from '../test-support/gateway-fixture.js';
import {
  postToTokenEndpoint,
  startProviderGateway,
} from '../features/openid-provider/test-support/provider-fixture.js';
import { runCommand } from './test-support/run-command.js';

/**
 * `ssogate client ...` against the storage of a running gateway, so that a
 * client made or changed on the command line is tried at the provider's
 * own token endpoint.
 */
describe('ssogate client', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startProviderGateway();
  });
  after(() => gw.close());

  /** The secret `client create` printed, to try after its rotation. */
  let firstSecret = '';
  const run = (argv: string[]) => runCommand(argv, { storage: gw.storage, clock: Date.now });

  /** What the token endpoint says to a client authenticating with HTTP Basic and a made-up code. */
  async function tokenEndpointSays(clientId: string, secret: string): Promise<string> {
    const fields = {
      grant_type: 'authorization_code',
      code: 'no-such-code',
      redirect_uri: 'https://grafana.example.com/login/generic_oauth',
    };
    const response = await postToTokenEndpoint(gw, fields, clientId, secret);
    return ((await response.json()) as { error: string }).error;
  }

  const clientEvents = () => gw.storage.audit.list({ kind: 'client_change', limit: 20 });

  test('create prints the secret once; it works at the token endpoint; show, list and the audit never have it', async () => {
    const made = await run([
      'client',
      'create',
      'grafana',
      '--name',
      'Grafana',
      '--redirect-uri',
      'https://grafana.example.com/login/generic_oauth',
      '--group',
      'ops',
      '--entry',
      'corp',
      '--refresh-tokens',
    ]);
    assert.equal(made.code, 0, made.err);
    const secret = made.out.trim();
    firstSecret = secret;
    assert.match(secret, /^ssgc_[A-Za-z0-9_-]{43}$/);
    assert.match(made.err, /Created OpenID client "grafana"\. Keep its secret now/);
    const stored = await gw.storage.providerClients.get('grafana');
    assert.equal(stored?.secretHash, sha256Base64url(secret));
    assert.deepEqual(
      [stored.allowedGroups, stored.allowedEntries, stored.refreshTokens, stored.allowedUsers],
      [['ops'], ['corp'], true, []],
    );
    // The client authenticates (the code is what is wrong); another secret does not.
    assert.equal(await tokenEndpointSays('grafana', secret), 'invalid_grant');
    assert.equal(await tokenEndpointSays('grafana', 'ssgc_wrong'), 'invalid_client');

    const shown = await run(['client', 'show', 'grafana']);
    assert.equal(shown.code, 0, shown.err);
    const client = JSON.parse(shown.out) as Record<string, unknown>;
    assert.deepEqual(
      [client.clientId, client.name, client.public, client.redirectUris, client.allowedGroups],
      ['grafana', 'Grafana', false, ['https://grafana.example.com/login/generic_oauth'], ['ops']],
    );
    const listed = await run(['clients', 'list']);
    assert.match(listed.out, /^CLIENT ID +NAME +TYPE +REDIRECT URIS +UPDATED\n/);
    assert.match(listed.out, /\ngrafana +Grafana +confidential +https:\/\/grafana\.example\.com/);

    const [event] = await clientEvents();
    assert.equal(event?.actor, 'cli');
    assert.deepEqual(event.detail, {
      action: 'create',
      clientId: 'grafana',
      name: 'Grafana',
      public: false,
    });
    for (const text of [shown.out, listed.out, JSON.stringify(await clientEvents())]) {
      assert.doesNotMatch(text, new RegExp(secret));
    }
  });

  test('update changes what it is given and keeps the rest; --clear empties a list', async () => {
    const updated = await run([
      'client',
      'update',
      'grafana',
      '--name',
      'Grafana (ops)',
      '--post-logout-redirect-uri',
      'https://grafana.example.com/login',
      '--clear',
      'group',
      '--no-refresh-tokens',
    ]);
    assert.equal(updated.code, 0, updated.err);
    assert.equal(updated.out, 'updated grafana\n');
    const stored = await gw.storage.providerClients.get('grafana');
    assert.deepEqual(
      [
        stored?.name,
        stored?.redirectUris,
        stored?.postLogoutRedirectUris,
        stored?.allowedGroups,
        stored?.allowedEntries,
        stored?.refreshTokens,
      ],
      [
        'Grafana (ops)',
        ['https://grafana.example.com/login/generic_oauth'],
        ['https://grafana.example.com/login'],
        [],
        ['corp'],
        false,
      ],
    );
    const [event] = await clientEvents();
    assert.deepEqual(event?.detail, {
      action: 'update',
      clientId: 'grafana',
      name: 'Grafana (ops)',
    });
  });

  test("rotate-secret prints a new secret once; the old one stops working; a public client's is refused", async () => {
    const before = await gw.storage.providerClients.get('grafana');
    const rotated = await run(['client', 'rotate-secret', 'grafana']);
    assert.equal(rotated.code, 0, rotated.err);
    const secret = rotated.out.trim();
    assert.equal(
      (await gw.storage.providerClients.get('grafana'))?.secretHash,
      sha256Base64url(secret),
    );
    assert.notEqual(before?.secretHash, sha256Base64url(secret));
    assert.equal(await tokenEndpointSays('grafana', secret), 'invalid_grant');
    assert.equal(await tokenEndpointSays('grafana', firstSecret), 'invalid_client');
    const [event] = await clientEvents();
    assert.deepEqual(event?.detail, { action: 'rotate_secret', clientId: 'grafana' });

    const spa = await run([
      'client',
      'create',
      'spa',
      '--name',
      'SPA',
      '--redirect-uri',
      'http://localhost:5173/callback',
      '--public',
    ]);
    assert.deepEqual([spa.code, spa.out], [0, '']);
    assert.match(spa.err, /public OpenID client "spa": it has no secret/);
    assert.equal((await gw.storage.providerClients.get('spa'))?.secretHash, null);
    const refused = await run(['client', 'rotate-secret', 'spa']);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /the OpenID client "spa" is public/);
  });

  test('every problem is told by the option it came from, and nothing is written', async () => {
    const bad = await run([
      'client',
      'create',
      'bad id',
      '--name',
      'Bad',
      '--redirect-uri',
      'https://ok.example.com/cb',
      '--redirect-uri',
      'http://app.example.com/cb#x',
      '--backchannel-logout-uri',
      'ftp://app.example.com/logout',
    ]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /^ssogate: the client is not valid:\n/);
    assert.match(bad.err, /\n {2}CLIENT_ID "bad id": must be 1-64 letters/);
    assert.match(
      bad.err,
      /\n {2}--redirect-uri "http:\/\/app\.example\.com\/cb#x": must be an absolute https URL/,
    );
    assert.match(
      bad.err,
      /\n {2}--backchannel-logout-uri "ftp:\/\/app\.example\.com\/logout": must be/,
    );
    assert.doesNotMatch(bad.err, /ok\.example\.com/);

    const entry = await run(['client', 'update', 'grafana', '--entry', 'corp', '--entry', 'nope']);
    assert.equal(entry.code, 1);
    assert.match(entry.err, /--entry "nope": no entry has the id "nope"/);
    const taken = await run([
      'client',
      'create',
      'grafana',
      '--name',
      'G',
      '--redirect-uri',
      'https://g.example.com/cb',
    ]);
    assert.equal(taken.code, 1);
    assert.match(taken.err, /an OpenID client has the id "grafana" already/);
    assert.deepEqual(
      (await gw.storage.providerClients.list()).map((client) => client.clientId),
      ['grafana', 'spa'],
    );
    assert.equal((await gw.storage.providerClients.get('grafana'))?.allowedEntries.length, 1);
  });

  test('the subject type and consent from the command line; pairwise on two hosts is refused', async () => {
    const pairwise = await run([
      'client',
      'update',
      'grafana',
      '--subject-type',
      'pairwise',
      '--consent',
    ]);
    assert.equal(pairwise.code, 0, pairwise.err);
    const stored = await gw.storage.providerClients.get('grafana');
    assert.deepEqual([stored?.subjectType, stored?.consent], ['pairwise', true]);
    const twoHosts = await run([
      'client',
      'update',
      'grafana',
      '--redirect-uri',
      'https://grafana.example.com/cb',
      '--redirect-uri',
      'https://other.example.com/cb',
    ]);
    assert.equal(twoHosts.code, 1);
    assert.match(twoHosts.err, /a pairwise client needs redirect URIs that all share one host/);
    const unknown = await run(['client', 'update', 'grafana', '--subject-type', 'secret']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /\n {2}--subject-type "secret": /);
    const back = await run([
      'client',
      'update',
      'grafana',
      '--subject-type',
      'public',
      '--no-consent',
    ]);
    assert.equal(back.code, 0, back.err);
    const after = await gw.storage.providerClients.get('grafana');
    assert.deepEqual(
      [after?.subjectType, after?.consent, after?.redirectUris],
      ['public', false, ['https://grafana.example.com/login/generic_oauth']],
    );
  });

  test('the front-channel logout URI and its session flag from the command line', async () => {
    const front = await run([
      'client',
      'update',
      'grafana',
      '--frontchannel-logout-uri',
      'https://grafana.example.com/logout/front',
      '--frontchannel-logout-session',
    ]);
    assert.equal(front.code, 0, front.err);
    const stored = await gw.storage.providerClients.get('grafana');
    assert.deepEqual(
      [stored?.frontchannelLogoutUri, stored?.frontchannelLogoutSessionRequired],
      ['https://grafana.example.com/logout/front', true],
    );
    const bad = await run(['client', 'update', 'grafana', '--frontchannel-logout-uri', 'ftp://x']);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /\n {2}--frontchannel-logout-uri "ftp:\/\/x": must be/);
    const off = await run([
      'client',
      'update',
      'grafana',
      '--clear',
      'frontchannel-logout-uri',
      '--no-frontchannel-logout-session',
    ]);
    assert.equal(off.code, 0, off.err);
    const after = await gw.storage.providerClients.get('grafana');
    assert.deepEqual(
      [after?.frontchannelLogoutUri, after?.frontchannelLogoutSessionRequired],
      [null, false],
    );
  });

  test('delete ends the client: its secret is refused at the token endpoint', async () => {
    const rotated = await run(['client', 'rotate-secret', 'grafana']);
    const secret = rotated.out.trim();
    const deleted = await run(['client', 'delete', 'grafana']);
    assert.deepEqual([deleted.code, deleted.out], [0, 'deleted grafana\n']);
    assert.equal(await tokenEndpointSays('grafana', secret), 'invalid_client');
    const [event] = await clientEvents();
    assert.deepEqual(event?.detail, { action: 'delete', clientId: 'grafana' });
    const again = await run(['client', 'delete', 'grafana']);
    assert.equal(again.code, 1);
    assert.match(again.err, /no OpenID client has the id "grafana"/);
    const shown = await run(['client', 'show', 'grafana']);
    assert.equal(shown.code, 1);
  });

  test('a wrong command line prints the usage and exits 2', async () => {
    for (const argv of [
      ['client'],
      ['client', 'list', 'x'],
      ['client', 'show'],
      ['client', 'rename', 'a'],
      ['client', 'create', 'a', '--name', 'A'],
      ['client', 'create', 'a', '--redirect-uri', 'https://a.example.com/cb'],
      ['client', 'create', 'a', '--name', 'A', '--redirect-uri', 'https://a/cb', '--clear', 'user'],
      ['client', 'update', 'a'],
      ['client', 'update', 'a', '--public'],
      ['client', 'update', 'a', '--clear', 'name'],
      ['client', 'update', 'a', '--user', 'u', '--clear', 'user'],
      ['client', 'update', 'a', '--refresh-tokens', '--no-refresh-tokens'],
      ['client', 'update', 'a', '--consent', '--no-consent'],
      ['client', 'show', 'a', '--name', 'A'],
      ['client', 'delete', 'a', '--with-secrets'],
      ['token', 'list', '--redirect-uri', 'https://a.example.com/cb'],
      ['oidc'],
      ['oidc', 'rotate-key', '--name', 'x'],
    ]) {
      const { code, out, err } = await run(argv);
      assert.equal(code, 2, argv.join(' '));
      assert.equal(out, '');
      assert.match(err, /ssogate client create CLIENT_ID/, argv.join(' '));
    }
    assert.deepEqual(
      (await gw.storage.providerClients.list()).map((client) => client.clientId),
      ['spa'],
    );
  });
});
