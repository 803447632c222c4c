import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { AcmeServer, ExampleExtensionModule, RunningExtension } from './example-extension.js';
import { acmeEntry, loadExampleExtension } from './example-extension.js';

const secret = 'extension-test-secret-0123456789';
const apiToken = 'ssg_extension-test-sign-in-0123456789abcdef';

/**
 * A test sign-in with an entry of type extension (docs/admin-api.md#test-sign-in):
 * the extension's /callback runs and is traced, masked; nobody is signed in.
 */
describe('a test sign-in through an extension', () => {
  let example: ExampleExtensionModule;
  let acme: AcmeServer;
  let extension: RunningExtension;
  let gw: TestGateway;

  before(async () => {
    example = await loadExampleExtension();
    acme = await example.startAcmeServer();
    extension = await example.startExtension({ secret });
    gw = await startTestGateway({
      entries: () => [acmeEntry(example, extension.url, acme.url, secret)],
    });
    await gw.storage.apiTokens.create({
      id: 'tok-ext',
      name: 'ext',
      tokenHash: sha256Base64url(apiToken),
      createdAt: Date.now(),
    });
  });
  after(async () => {
    await gw.close();
    await extension.close();
    await acme.close();
  });

  test("the extension's callback is traced; no session, no user", async () => {
    const headers = { authorization: `Bearer ${apiToken}` };
    const started = await gw.app.inject({
      method: 'POST',
      url: '/_sso/api/entries/acme/test-sign-in',
      headers,
    });
    assert.equal(started.statusCode, 201, started.body);
    const { id, url } = started.json<{ id: string; url: string }>();
    assert.ok(url.startsWith(acme.url), url);

    const browser = gw.browser();
    const signedIn = await browser.submit(`${acme.url}/sso/login`, {
      username: 'alice',
      password: 'alice-password',
      continue: '/',
    });
    assert.equal(signedIn.status, 200);
    const page = await browser.open(url);
    assert.equal(page.status, 200, page.body);
    assert.match(page.body, /Test sign-in finished/);
    assert.ok(!page.headers.getSetCookie().some((cookie) => cookie.startsWith('ssogate_session=')));

    const answer = await gw.app.inject({
      method: 'GET',
      url: `/_sso/api/test-sign-ins/${id}`,
      headers,
    });
    assert.equal(answer.statusCode, 200, answer.body);
    const { trace, text } = answer.json<{
      trace: { outcome: string; steps: { name: string }[]; user: { userId: string } | null };
      text: string;
    }>();
    assert.equal(trace.outcome, 'success', text);
    assert.deepEqual(
      trace.steps.map((step) => step.name),
      ['callback', 'extension'],
    );
    assert.equal(trace.user?.userId, 'alice');
    assert.match(text, /> POST http:\/\/127\.0\.0\.1:\d+\/callback/);
    assert.ok(!answer.body.includes(secret));
    assert.equal(await gw.storage.users.findByUserId('alice'), undefined);
  });

  test('a draft moving the extension to another origin needs each stored secret again; that host hears nothing', async () => {
    const heard: string[] = [];
    const elsewhere = createServer((request, response) => {
      heard.push(request.url ?? '/');
      response.statusCode = 500;
      response.end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    try {
      const headers = { authorization: `Bearer ${apiToken}` };
      const startDraft = (entry: Record<string, unknown>) =>
        gw.app.inject({
          method: 'POST',
          url: '/_sso/api/entries/test-sign-in',
          headers,
          payload: { entry, existingId: 'acme' },
        });
      const refusedFields = (response: { statusCode: number; body: string }) => {
        assert.equal(response.statusCode, 400, response.body);
        const { error } = JSON.parse(response.body) as {
          error: { code: string; problems: { field: string }[] };
        };
        assert.equal(error.code, 'request_invalid');
        return error.problems.map((problem) => problem.field);
      };
      const moved = acmeEntry(example, elsewhereUrl, acme.url, secret);

      // The signing secret stays with the stored extension's origin.
      assert.deepEqual(
        refusedFields(
          await startDraft({ ...moved, extensionSecret: undefined, appsecret: undefined }),
        ),
        ['extensionSecret'],
      );
      // A new signing secret typed, the stored appsecret would still go to the new host.
      assert.deepEqual(
        refusedFields(
          await startDraft({
            ...moved,
            extensionSecret: 'another-extension-secret-0123456789',
            appsecret: undefined,
          }),
        ),
        ['appsecret'],
      );
      assert.deepEqual(heard, []);
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });
});
