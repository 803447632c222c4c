import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { chromiumSkip, launchChromium } from '../../test-support/chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import type { ConsoleBrowser } from '../../test-support/console-in-chromium.js';
import { openConsoleBrowser, signInToConsole } from '../../test-support/console-in-chromium.js';
import {
  echoedRequest,
  framesVisited,
  navigationsRequested,
} from '../../test-support/page-navigations.js';
import { storySteps } from '../../test-support/story-steps.js';
import { base32Decode, totpCode } from './totp.js';

const minutes = 60_000;

/**
 * A second factor asked by an access rule, in Chromium, on two application
 * hosts proxied by the gateway (wiki.localhost and git.localhost, both
 * `factor: 2, within: 15m`; the auth host sso.localhost shows the factor
 * pages). The codes are computed here with the gateway's own TOTP
 * (totp.ts, RFC 6238) for the gateway's clock, which the story moves
 * instead of waiting: enrolment on first need and landing on the page
 * first asked for; the other host passing after the handoff, which carries
 * the factor (docs/design.md#one-sign-in-many-hosts); a step-up once
 * `within` has passed; a wrong and a reused code refused, in English and in
 * Chinese; the user's list of factors; an administrator's reset in the console
 * that ends the user's sessions.
 */
describe('a second factor asked by an access rule, in Chromium', { skip: chromiumSkip }, () => {
  const step = storySteps();
  let wiki: EchoUpstream;
  let git: EchoUpstream;
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  let admin: ConsoleBrowser | undefined;
  let gatewayPort = 0;
  let now = Date.UTC(2026, 10, 29, 12, 0, 0);
  let secret: Uint8Array = new Uint8Array();
  /** The last code the gateway accepted. */
  let usedCode = '';
  const at = (host: string, path: string) => `http://${host}.localhost:${gatewayPort}${path}`;
  const calls = (endpoint: string) =>
    gw.example.requests.filter(({ path }) => path.endsWith(endpoint)).length;
  const code = () => totpCode(secret, now);
  const onFactorPage = () => {
    const url = new URL(page.url());
    assert.equal(url.host, `sso.localhost:${gatewayPort}`, page.url());
    assert.equal(url.pathname, '/_sso/factor');
  };

  /** Reads the key shown on the enrolment page, proves it with a code and saves it as `name`. */
  async function enrol(name: string): Promise<string[]> {
    const shown = (await page.locator('#factor-secret').textContent()) ?? '';
    const uri = new URL((await page.locator('#factor-uri').textContent()) ?? '');
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.searchParams.get('secret'), shown, 'the URI carries the key shown');
    const decoded = base32Decode(shown);
    assert.ok(decoded !== undefined, 'the key is base32');
    secret = decoded;
    await page.locator('#name').fill(name);
    usedCode = code();
    await page.locator('#code').fill(usedCode);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#recovery-codes').waitFor();
    return page.locator('#recovery-codes li').allTextContents();
  }

  /** Enrols one more authenticator from its enrolment page (no recovery codes then). */
  async function enrolAnother(name: string): Promise<void> {
    const shown = (await page.locator('#factor-secret').textContent()) ?? '';
    secret = base32Decode(shown) ?? new Uint8Array();
    await page.locator('#name').fill(name);
    usedCode = code();
    await page.locator('#code').fill(usedCode);
    await page.getByRole('button', { name: 'Save' }).click();
  }

  /** The list of factors as shown: each item's name and date. */
  async function factorNames(): Promise<string[]> {
    const items = await page.locator('#factors li').allTextContents();
    return items.map((item) =>
      item
        .replace(/(Remove|移除)\s*$/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }

  /** Clicks the remove button of the factor named `name` on the list. */
  async function removeFactor(name: string): Promise<void> {
    const item = page.locator('#factors li').filter({ hasText: name });
    await Promise.all([
      page.waitForLoadState('load'),
      item.getByRole('button', { name: 'Remove' }).click(),
    ]);
  }

  before(async () => {
    wiki = await startEchoUpstream();
    git = await startEchoUpstream();
    gw = await startTestGateway({
      entries: ({ getStyle }) => [{ ...getStyle, isDefault: true }],
      clock: () => now,
      envOfPort: (port) => {
        gatewayPort = port;
        return {
          SSOGATE_PUBLIC_URL: `http://sso.localhost:${port}`,
          SSOGATE_UPSTREAM: `wiki.localhost:${port}=${wiki.url},git.localhost:${port}=${git.url}`,
          SSOGATE_ACCESS_RULES: JSON.stringify([
            { path: '/', host: 'wiki.localhost', users: ['alice'], factor: 2, within: '15m' },
            { path: '/', host: 'git.localhost', users: ['alice'], factor: 2, within: '15m' },
          ]),
        };
      },
    });
    browser = await launchChromium(['--host-resolver-rules=MAP *.localhost 127.0.0.1']);
    page = await (await browser.newContext()).newPage();
  });

  after(async () => {
    await admin?.browser.close();
    await browser.close();
    await gw.close();
    await wiki.close();
    await git.close();
  });

  step('the wiki: a sign-in, then the enrolment of an authenticator on first need', async () => {
    await page.goto(at('wiki', '/page?x=1'));
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/_sso/factor'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    onFactorPage();
    assert.equal(
      await page.getByRole('heading', { level: 1 }).textContent(),
      'Set up an authenticator',
    );
  });

  step('the key is read, a code proves it, the recovery codes are shown once', async () => {
    const recovery = await enrol('Phone');
    assert.equal(recovery.length, 10);
    for (const one of recovery) assert.match(one, /^[a-z2-7]{5}-[a-z2-7]{5}$/);
  });

  step('continuing lands on the page of the wiki first asked for', async () => {
    await Promise.all([
      page.waitForURL(at('wiki', '/page?x=1')),
      page.getByRole('link', { name: 'Continue' }).click(),
    ]);
    const seen = await echoedRequest(page);
    assert.equal(seen.url, '/page?x=1');
    assert.equal(seen.headers?.['x-auth-request-user'], 'alice');
    // Shown once: going back to the factor page asks for a code, not a new key.
    await page.goto(at('sso', '/_sso/factor'));
    assert.equal(await page.locator('#recovery-codes').count(), 0);
    assert.equal(await page.locator('#factor-secret').count(), 0);
  });

  step('git: the handoff carries the factor, no second enrolment and no code', async () => {
    const urls = await framesVisited(page, () => page.goto(at('git', '/repo?ref=main')));
    assert.equal(page.url(), at('git', '/repo?ref=main'));
    assert.deepEqual(urls, [at('git', '/repo?ref=main')], 'no page shown on the way');
    assert.equal((await echoedRequest(page)).url, '/repo?ref=main');
    assert.equal(calls('/token'), 1, 'one sign-in');
  });

  step('past `within`, the wiki asks for a code; a wrong one shows the page again', async () => {
    now += 16 * minutes;
    await page.goto(at('wiki', '/page?x=2'));
    onFactorPage();
    assert.equal(
      await page.getByRole('heading', { level: 1 }).textContent(),
      'Enter a code from your authenticator',
    );
    const wrong = code() === '000000' ? '111111' : '000000';
    await page.locator('#code').fill(wrong);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#factor-error').waitFor();
    onFactorPage();
    assert.equal(
      await page.locator('#factor-error').textContent(),
      'The code is not right, or was used already.',
    );
  });

  step('the right code returns to the page of the wiki it was on', async () => {
    usedCode = code();
    await page.locator('#code').fill(usedCode);
    await Promise.all([
      page.waitForURL(at('wiki', '/page?x=2')),
      page.getByRole('button', { name: 'Continue' }).click(),
    ]);
    assert.equal((await echoedRequest(page)).url, '/page?x=2');
  });

  step('git passes without a code: the code given for the wiki reached its sessions', async () => {
    // docs/security.md#second-factor: a factor given later reaches the
    // sign-in's host sessions in the same write.
    const urls = await framesVisited(page, () => page.goto(at('git', '/repo?ref=dev')));
    assert.deepEqual(urls, [at('git', '/repo?ref=dev')]);
    assert.equal((await echoedRequest(page)).url, '/repo?ref=dev');
  });

  step('in Chinese, the factor page opened again at once refuses the code just used', async () => {
    await page.goto(at('sso', '/_sso/factor?return_to=%2F_sso%2Ffactors'));
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/_sso/factor'),
      page.getByRole('link', { name: '简体中文' }).click(),
    ]);
    assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
    assert.equal(
      await page.getByRole('heading', { level: 1 }).textContent(),
      '请输入身份验证器中的验证码',
    );
    await page.locator('#code').fill(usedCode);
    await page.getByRole('button', { name: '继续' }).click();
    await page.locator('#factor-error').waitFor();
    assert.equal(await page.locator('#factor-error').textContent(), '验证码不正确，或已被使用。');
  });

  step("the next window's code is taken, landing on the list of factors, in Chinese", async () => {
    now += 30_000;
    usedCode = code();
    await page.locator('#code').fill(usedCode);
    await Promise.all([
      page.waitForURL(at('sso', '/_sso/factors')),
      page.getByRole('button', { name: '继续' }).click(),
    ]);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), '您的第二重验证方式');
    assert.deepEqual(await factorNames(), ['Phone (添加于 2026-11-29)']);
  });

  step('the list of factors: a second authenticator is added with its name', async () => {
    await Promise.all([
      page.waitForURL(at('sso', '/_sso/factors')),
      page.getByRole('link', { name: 'English' }).click(),
    ]);
    await page.getByRole('link', { name: 'Add an authenticator' }).click();
    // The sign-in is older than ten minutes: a fresh one (silent, at the
    // provider) and, as its new session holds no factor, a code come first.
    await page.waitForURL((url) => url.pathname === '/_sso/factor');
    assert.equal(calls('/token'), 2, 'a second sign-in');
    now += 30_000;
    usedCode = code();
    await page.locator('#code').fill(usedCode);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#factor-secret').waitFor();
    const phone = secret;
    // Not the first: saving goes back to the list, with no new recovery codes.
    await Promise.all([page.waitForURL(at('sso', '/_sso/factors')), enrolAnother('Tablet')]);
    assert.notDeepEqual(secret, phone, 'a new key');
    assert.deepEqual(await factorNames(), [
      'Phone (added 2026-11-29)',
      'Tablet (added 2026-11-29)',
    ]);
  });

  step('removing one of two factors needs nothing more', async () => {
    await removeFactor('Phone');
    assert.deepEqual(await factorNames(), ['Tablet (added 2026-11-29)']);
  });

  step('removing the last one asks for a recent code first', async () => {
    now += 16 * minutes;
    await removeFactor('Tablet');
    const shown = (await page.locator('main').textContent()) ?? '';
    assert.match(
      shown,
      /Removing your last second factor needs one given in the last 15 minutes: verify a code first\./,
    );
    assert.match(shown, /second_factor_not_recent/);
    assert.deepEqual(await factorNames(), [], 'not the list');
  });

  step('a code, and the last one is removed', async () => {
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.waitForURL((url) => url.pathname === '/_sso/factor');
    usedCode = code();
    await page.locator('#code').fill(usedCode);
    await Promise.all([
      page.waitForURL(at('sso', '/_sso/factors')),
      page.getByRole('button', { name: 'Continue' }).click(),
    ]);
    await removeFactor('Tablet');
    assert.deepEqual(await factorNames(), []);
    assert.match((await page.locator('main').textContent()) ?? '', /You have no second factor\./);
  });

  step('past `within`, the wiki enrols an authenticator again', async () => {
    now += 16 * minutes;
    await page.goto(at('wiki', '/page?x=3'));
    await page.locator('#factor-secret').waitFor();
    assert.equal((await enrol('Phone')).length, 10);
    await Promise.all([
      page.waitForURL(at('wiki', '/page?x=3')),
      page.getByRole('link', { name: 'Continue' }).click(),
    ]);
  });

  step("an administrator resets alice's factors in the console; her sessions end", async () => {
    admin = await openConsoleBrowser(gw, ['--host-resolver-rules=MAP *.localhost 127.0.0.1']);
    const console = admin.page;
    const confirmed: string[] = [];
    console.on('dialog', (dialog) => {
      confirmed.push(dialog.message());
    });
    await signInToConsole(console, at('sso', ''));
    await console.getByRole('link', { name: 'Users' }).click();
    await console.getByRole('button', { name: 'Reset second factors: alice' }).click();
    await console
      .getByText('1 second factor of alice removed; alice is signed out everywhere.')
      .waitFor();
    assert.match(confirmed[0] ?? '', /^Remove every authenticator and recovery code of alice/);
  });

  step('the wiki asks for a sign-in again, then for a new enrolment', async () => {
    const signIns = calls('/token');
    const requested = await navigationsRequested(page, () => page.goto(at('wiki', '/page?x=4')));
    assert.ok(requested[1]?.startsWith(at('sso', '/_sso/handoff?')), requested[1]);
    assert.ok(
      requested.some((url) => url.startsWith(gw.example.url)),
      'the sign-in went to the provider',
    );
    assert.equal(calls('/token'), signIns + 1, 'a new sign-in');
    await page.locator('#factor-secret').waitFor();
    assert.equal(
      await page.getByRole('heading', { level: 1 }).textContent(),
      'Set up an authenticator',
    );
    // It comes back to the wiki's page, through the return hop to the wiki.
    const back = await page.locator('input[name="return_to"]').first().inputValue();
    assert.equal(new URL(back, at('sso', '/')).searchParams.get('rd'), at('wiki', '/page?x=4'));
  });
});
