import { describe } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import {
  consoleSkip,
  consoleStory,
  screenshot,
  signInToConsole,
} from '../../test-support/console-in-chromium.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import { storySteps } from '../../test-support/story-steps.js';
import { waitUntil } from '../../test-support/wait-until.js';
import {
  discoverProvider,
  redirectUri,
  codeFlow,
} from '../openid-provider/test-support/provider-fixture.js';

/** The admin API's sentence for a URI it refuses (src/features/openid-provider/admin/oidc-clients.ts). */
const uriRule =
  'must be an absolute https URL (http only on localhost), without a fragment or credentials';

/**
 * An application of the gateway's OpenID Provider registered, edited and
 * deleted through the console (docs/console.md#applications): its secret
 * shown once, a refused redirect URI shown on its row with its code, the
 * list, the pages in Chinese; and a relying party nobody here wrote (npm's
 * openid-client) signs in with what the console saved.
 */
describe('the console’s Applications pages, in headless Chromium', { skip: consoleSkip }, () => {
  const step = storySteps();
  const story = consoleStory({
    entries: (presets) => [{ ...presets.jsonStyle, id: 'corp', name: 'Corp', isDefault: true }],
    usernames: ['alice'],
  });
  let secret = '';

  step('no application yet: the empty state says what one is', async () => {
    const { page, gateway } = story();
    await signInToConsole(page, gateway.url);
    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    await page.getByRole('heading', { name: 'No applications yet' }).waitFor();
    assert.match(await page.locator('.empty-state').innerText(), /OpenID Connect/);
    assert.match(await page.locator('main').innerText(), /docs\/openid-provider\.md/);
  });

  step('a confidential application is registered; its secret is shown once', async () => {
    const { page, gateway } = story();
    await page.getByRole('link', { name: 'Register an application' }).click();
    await page.getByLabel('Name (required)').fill('Wiki');
    await page.getByLabel('Client id (required)').fill('wiki');
    await page.getByLabel('Redirect URI 1', { exact: true }).fill(redirectUri);
    await page.getByLabel('Corp (corp)').check();
    await page.getByLabel('Give the application refresh tokens', { exact: false }).check();
    await page.getByRole('button', { name: 'Register application' }).click();
    await page.waitForURL(`${gateway.url}/_sso/admin/applications/wiki`);
    await page.getByText('Wiki is registered.').waitFor();
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link');
    assert.deepEqual(await trail.allInnerTexts(), ['Single Sign-On', 'Applications']);
    secret = await page.locator('#new-token-secret').inputValue();
    assert.match(secret, /^ssgc_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    assert.equal(await page.locator('#new-token-secret').count(), 0);
  });

  step('what to paste into the application is what the provider serves', async () => {
    const { page, gateway } = story();
    const shown = (name: string) => page.locator(`#connection-${name}`).innerText();
    const discovery = await shown('discovery');
    assert.equal(discovery, `${gateway.url}/.well-known/openid-configuration`);
    const served = (await (await fetch(discovery)).json()) as Record<string, unknown>;
    assert.equal(await shown('issuer'), served.issuer);
    assert.equal(await shown('token'), served.token_endpoint);
    assert.equal(await shown('authorization'), served.authorization_endpoint);
    assert.equal(await shown('client-id'), 'wiki');
    const scopes = (await shown('scopes')).split(' ');
    assert.deepEqual(scopes, served.scopes_supported);
    assert.match(
      await page.locator('.connection-redirects').innerText(),
      /127\.0\.0\.1:9\/callback/,
    );
  });

  step('after a reload the secret is not shown again', async () => {
    const { page } = story();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Wiki' }).waitFor();
    await page.getByRole('button', { name: 'Rotate secret' }).waitFor();
    assert.equal(await page.locator('#new-token-secret').count(), 0);
    assert.doesNotMatch(await page.content(), new RegExp(secret));
  });

  step('a refused redirect URI is shown on its row, with its code, until fixed', async () => {
    const { page, gateway } = story();
    await page.getByRole('button', { name: 'Add a URI' }).first().click();
    const second = page.getByLabel('Redirect URI 2', { exact: true });
    await second.fill('http://wiki.example.com/callback');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const problems = page.locator('#field-redirectUris-1-problems');
    await problems.getByText(uriRule).waitFor();
    assert.match(await problems.innerText(), /field_invalid/);
    assert.equal(await second.getAttribute('aria-invalid'), 'true');
    assert.equal(
      await page.getByLabel('Redirect URI 1', { exact: true }).getAttribute('aria-invalid'),
      null,
    );
    await screenshot(page, 'application-problem');
    assert.match(await page.locator('.application-form [role=status]').innerText(), /not saved/);
    await second.fill('https://wiki.example.com/callback');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${gateway.url}/_sso/admin/applications`);
    await page.getByText('Wiki is saved.').waitFor();
  });

  step('the list shows it: id, kind, two redirect URIs, its entry, refresh tokens on', async () => {
    const { page } = story();
    const row = page.locator('table.applications-table tbody tr');
    await waitUntil(async () => (await row.count()) === 1, {
      message: 'one application listed',
      timeoutMs: 30_000,
      intervalMs: 50,
    });
    const cells = await row.locator('th, td').allInnerTexts();
    assert.deepEqual(cells.slice(0, 6), ['Wiki', 'wiki', 'Confidential', '2', 'corp', 'On']);
    await screenshot(page, 'applications-list');
  });

  step('a relying party signs in with the client id and secret saved', async () => {
    const { gateway } = story();
    const config = await discoverProvider(gateway.url, 'wiki', client.ClientSecretBasic(secret));
    const browser = gateway.browser();
    await signInAtExample(browser, gateway.example.url);
    const { tokens, nonce } = await codeFlow(config, browser);
    const claims = tokens.claims();
    assert.deepEqual(
      [claims?.aud, claims?.sub, claims?.ssogate_entry, claims?.nonce],
      ['wiki', 'alice', 'corp', nonce],
    );
    // Saved with refresh tokens on: the exchange gave one, and it works.
    assert.equal(typeof tokens.refresh_token, 'string');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
    assert.equal(refreshed.claims()?.sub, 'alice');
  });

  step('a rotated secret is shown once; the old one stops working, the new one works', async () => {
    const { page, gateway } = story();
    await page.getByRole('link', { name: 'Wiki' }).click();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Yes, make a new secret' }).click();
    await page.getByText('Wiki has a new secret; the old one no longer works.').waitFor();
    const rotated = await page.locator('#new-token-secret').inputValue();
    assert.match(rotated, /^ssgc_/);
    assert.notEqual(rotated, secret);
    const signIn = async (withSecret: string) => {
      const config = await discoverProvider(
        gateway.url,
        'wiki',
        client.ClientSecretBasic(withSecret),
      );
      const browser = gateway.browser();
      await signInAtExample(browser, gateway.example.url);
      return codeFlow(config, browser);
    };
    await assert.rejects(signIn(secret), { name: 'WWWAuthenticateChallengeError' });
    assert.equal((await signIn(rotated)).tokens.claims()?.aud, 'wiki');
    secret = rotated;
  });

  step(
    'pairwise with redirect URIs on two hosts is refused under them; consent is saved',
    async () => {
      const { page, gateway } = story();
      await page.getByLabel('Pairwise:', { exact: false }).check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      const problems = page.locator('#field-redirectUris-problems');
      await problems
        .getByText('a pairwise client needs redirect URIs that all share one host')
        .waitFor();
      assert.match(await problems.innerText(), /oidc_client_sector_ambiguous/);
      await page.getByLabel("Public: the user's id", { exact: false }).check();
      await page.getByLabel('Ask the user to allow the application', { exact: false }).check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Wiki is saved.').waitFor();
      const saved = await gateway.storage.providerClients.get('wiki');
      assert.deepEqual([saved?.subjectType, saved?.consent], ['public', true]);
      await page.getByRole('link', { name: 'Wiki' }).click();
      await page.getByRole('heading', { level: 1, name: 'Wiki' }).waitFor();
      assert.equal(
        await page
          .getByLabel('Ask the user to allow the application', { exact: false })
          .isChecked(),
        true,
      );
    },
  );

  step('leaving an edited application asks first; what was not saved stays unsaved', async () => {
    const { page } = story();
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
    });
    await page.getByLabel('Name (required)').fill('Wiki renamed');
    await page
      .getByRole('navigation', { name: 'System Settings' })
      .getByRole('link', { name: 'Applications' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    assert.deepEqual(asked, [
      'This application has unsaved changes. Leave the page and lose them?',
    ]);
    await page.locator('table.applications-table').getByRole('link', { name: 'Wiki' }).waitFor();
  });

  step(
    'in Chinese: the list, the form and its refused URI; then the application is deleted',
    async () => {
      const { page, gateway } = story();
      await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN');
      await page.getByRole('heading', { level: 1, name: '接入应用' }).waitFor();
      assert.deepEqual(await page.locator('table.applications-table thead th').allInnerTexts(), [
        '名称',
        '客户端标识',
        '类型',
        '重定向 URI',
        '允许的登录方式',
        '刷新令牌',
        '最后更改',
      ]);
      assert.equal(
        await page.locator('table.applications-table tbody td').nth(1).innerText(),
        '机密客户端',
      );
      await page.getByRole('link', { name: 'Wiki' }).click();
      await page.getByRole('heading', { level: 2, name: '需要填入应用的内容' }).waitFor();
      await page
        .getByLabel('重定向 URI 2', { exact: true })
        .fill('https://wiki.example.com/callback#part');
      await page.getByRole('button', { name: '保存更改' }).click();
      const problems = page.locator('#field-redirectUris-1-problems');
      await problems.getByText('必须是绝对 https URL', { exact: false }).waitFor();
      assert.match(await problems.innerText(), /field_invalid/);
      await page.getByRole('button', { name: '删除接入应用' }).click();
      await page.getByRole('button', { name: '是，删除' }).click();
      await page.waitForURL(`${gateway.url}/_sso/admin/applications`);
      await page.getByRole('heading', { name: '还没有接入应用' }).waitFor();
      await page.getByText('Wiki 已删除。').waitFor();
      assert.equal(await gateway.storage.providerClients.get('wiki'), undefined);
    },
  );

  step('no script error and nothing the policy blocked', () => {
    assert.deepEqual(story().pageProblems, []);
  });
});
