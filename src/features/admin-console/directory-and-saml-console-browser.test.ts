import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { ConsoleBrowser } from '../../test-support/console-in-chromium.js';
import {
  consoleSkip,
  openConsoleBrowser,
  screenshot,
  signInToConsole,
} from '../../test-support/console-in-chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';
import { storySteps } from '../../test-support/story-steps.js';
import type { RunningSlapd } from '../ldap-directory/test-support/slapd.js';
import {
  directoryUsers,
  serviceDn,
  servicePassword,
  slapdSkip,
  startSlapd,
  suffix,
} from '../ldap-directory/test-support/slapd.js';
import type { RunningSimpleSamlPhp } from '../saml/test-support/simplesamlphp.js';
import { simpleSamlPhpSkip, startSimpleSamlPhp } from '../saml/test-support/simplesamlphp.js';

const [alice] = directoryUsers as [(typeof directoryUsers)[number]];

/** The panel of the form's test sign-in. */
const trialPanel = (page: Page) => page.locator('section[aria-labelledby="test-sign-in-heading"]');

/** Turns the console to a language with its switch, and waits for the form's heading in it. */
async function switchLanguage(page: Page, language: 'en' | 'zh-CN', heading: string) {
  await page.getByRole('combobox', { name: /Language|语言/ }).selectOption(language);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** The form's label of a field (`field-<name>` in text-field.tsx), as shown. */
async function labelOf(page: Page, inputId: string): Promise<string> {
  return (await page.locator(`label[for="${inputId}"]`).innerText()).trim();
}

/**
 * An administrator makes an LDAP entry in the console from the OpenLDAP
 * preset against a real slapd: the kind chosen, the preset's parameters
 * filled, the form's labels read in English and in Chinese (the draft kept
 * across the switch), saved; then its test sign-in, with a user's name and
 * password typed in the gateway's form in the window it opens, shows the
 * trace of the service bind, the search, the user's bind and the groups,
 * in either language, never the password.
 */
describe(
  'an LDAP entry made in the console and tested, in headless Chromium',
  { skip: consoleSkip === false ? slapdSkip : consoleSkip },
  () => {
    const step = storySteps();
    let slapd: RunningSlapd;
    let gateway: TestGateway;
    let console_: ConsoleBrowser;
    let page: Page;

    before(async () => {
      slapd = await startSlapd();
      gateway = await startTestGateway();
      console_ = await openConsoleBrowser(gateway);
      page = console_.page;
    });

    after(async () => {
      try {
        await console_.browser.close();
      } finally {
        await gateway.close();
        await slapd.stop();
      }
    });

    step('the kind chosen, the OpenLDAP preset applied with its parameters', async () => {
      await signInToConsole(page, gateway.url);
      await page.getByRole('link', { name: 'New entry' }).click();
      await page.getByRole('heading', { level: 1, name: 'New entry' }).waitFor();
      await page.getByLabel('LDAP or Active Directory (a password form of the gateway)').check();
      await page.locator('#start-from').selectOption('openldap');
      await page.getByLabel('Server URL').fill(slapd.url);
      await page.getByLabel('Service account DN', { exact: true }).first().fill(serviceDn);
      await page.getByLabel("Users' base DN").fill(`ou=people,${suffix}`);
      await page.getByLabel("Groups' base DN").fill(`ou=groups,${suffix}`);
      // The preset filled the directory's section: its filters, and the parameters typed.
      assert.equal(await page.locator('#field-ldap-url').inputValue(), slapd.url);
      assert.equal(await page.locator('#field-ldap-bindDn').inputValue(), serviceDn);
      assert.equal(
        await page.locator('#field-ldap-userFilter').inputValue(),
        '(&(objectClass=inetOrgPerson)(uid={username}))',
      );
      assert.equal(await page.getByLabel('Name (required)').inputValue(), 'OpenLDAP');
      await page.getByLabel('Id (required)', { exact: true }).fill('corp');
      await page.getByLabel('Name (required)').fill('Corporate directory');
      await page.getByLabel('Enabled: users can sign in with it').check();
      await page.getByLabel('App secret').fill(servicePassword);
      await page.locator('.validation').getByText('No problems').waitFor();
    });

    step("the directory's labels in English and in Chinese, the draft kept", async () => {
      const english = {
        url: await labelOf(page, 'field-ldap-url'),
        bindDn: await labelOf(page, 'field-ldap-bindDn'),
        userFilter: await labelOf(page, 'field-ldap-userFilter'),
        groupBaseDn: await labelOf(page, 'field-ldap-groupBaseDn'),
      };
      assert.match(english.url, /^Directory URL/);
      assert.match(english.bindDn, /^Service account DN/);
      assert.match(english.userFilter, /^User filter/);
      assert.match(english.groupBaseDn, /^Group search base DN/);
      await switchLanguage(page, 'zh-CN', '新建登录方式');
      assert.match(await labelOf(page, 'field-ldap-url'), /^目录 URL/);
      assert.match(await labelOf(page, 'field-ldap-bindDn'), /^服务账号 DN/);
      // The preset's own parameters are said in Chinese too.
      await page.getByLabel('服务器地址').waitFor();
      for (const [id, label] of Object.entries(english)) {
        assert.doesNotMatch(await labelOf(page, `field-ldap-${id}`), new RegExp(label), id);
      }
      assert.equal(await page.locator('#field-ldap-url').inputValue(), slapd.url);
      assert.equal(await page.locator('#field-ldap-bindDn').inputValue(), serviceDn);
      await switchLanguage(page, 'en', 'New entry');
      assert.equal(await page.locator('#field-ldap-url').inputValue(), slapd.url);
    });

    step('saved, it is stored as an LDAP entry with its secret kept', async () => {
      await page.getByRole('button', { name: 'Create entry' }).click();
      await page.waitForURL(`${gateway.url}/_sso/admin/entries/corp`);
      await page.getByText('Corporate directory is saved.').waitFor();
      const stored = await gateway.storage.entries.get('corp');
      assert.equal(stored?.input.type, 'ldap');
      assert.equal(stored.input.appsecret, servicePassword);
    });

    step(
      'its test sign-in shows the search, the binds and the groups, not the password',
      async () => {
        const panel = trialPanel(page);
        const [popup] = await Promise.all([
          page.waitForEvent('popup'),
          panel.getByRole('button', { name: 'Test sign-in', exact: true }).click(),
        ]);
        await popup.getByText('A test sign-in: the directory checks the password').waitFor();
        await popup.getByLabel('Username').fill(alice.uid);
        await popup.getByLabel('Password').fill(alice.password);
        await popup.getByRole('button', { name: 'Sign in' }).click();
        await popup.getByRole('heading', { name: 'Test sign-in finished' }).waitFor();
        await popup.close();
        await panel.getByText('The sign-in would succeed.').waitFor();
        const shown = await panel.innerText();
        for (const name of ['service bind', 'user search', 'user bind', 'groups']) {
          assert.match(shown, new RegExp(`^${name}: ok$`, 'm'), name);
        }
        assert.match(shown, /uid=alice\)/);
        assert.match(shown, /gateway-admins/);
        assert.doesNotMatch(shown, new RegExp(alice.password));
        assert.doesNotMatch(shown, new RegExp(servicePassword));
        await screenshot(page, 'ldap-test-sign-in');
        assert.equal(await gateway.storage.users.findByUserId(alice.uid), undefined);
      },
    );

    step("the trace's steps in Chinese", async () => {
      await switchLanguage(page, 'zh-CN', 'Corporate directory');
      const shown = await trialPanel(page).innerText();
      for (const name of ['服务账号绑定', '搜索用户', '用户绑定', '组']) {
        assert.match(shown, new RegExp(`^${name}：成功$`, 'm'), name);
      }
      assert.doesNotMatch(shown, /^(service bind|user search|user bind|groups|mapped user)/m);
      await switchLanguage(page, 'en', 'Corporate directory');
      assert.deepEqual(console_.pageProblems, []);
    });
  },
);

/**
 * An administrator makes a SAML entry in the console from the Okta preset
 * with SimpleSAMLphp's metadata pasted instead of the preset's three
 * parameters; the labels read in both languages; saved; its test sign-in
 * goes through SimpleSAMLphp's login page (at idp.test, another site) and
 * shows the trace of the Response's checks and the attributes read.
 */
describe(
  'a SAML entry made in the console and tested, in headless Chromium',
  { skip: consoleSkip === false ? simpleSamlPhpSkip : consoleSkip },
  () => {
    const step = storySteps();
    let gateway: TestGateway;
    let idp: RunningSimpleSamlPhp;
    let console_: ConsoleBrowser;
    let page: Page;
    let metadata = '';

    before(async () => {
      gateway = await startTestGateway();
      idp = await startSimpleSamlPhp(
        [
          {
            username: 'carol',
            name: 'Carol Example',
            email: 'carol@example.test',
            groups: ['finance', 'staff'],
          },
        ],
        [
          {
            entityId: `${gateway.url}/_sso/saml/okta/metadata`,
            acsUrl: `${gateway.url}/_sso/callback/okta`,
          },
        ],
        { host: 'idp.test' },
      );
      const port = new URL(idp.url).port;
      metadata = await (await fetch(`http://127.0.0.1:${port}/saml2/idp/metadata.php`)).text();
      console_ = await openConsoleBrowser(gateway, ['--host-resolver-rules=MAP *.test 127.0.0.1']);
      page = console_.page;
    });

    after(async () => {
      try {
        await console_.browser.close();
      } finally {
        await gateway.close();
        await idp.stop();
      }
    });

    step('the kind chosen, the Okta preset applied, the metadata pasted', async () => {
      await signInToConsole(page, gateway.url);
      await page.getByRole('link', { name: 'New entry' }).click();
      await page.getByRole('heading', { level: 1, name: 'New entry' }).waitFor();
      await page.getByLabel('SAML 2.0 identity provider').check();
      await page.locator('#start-from').selectOption('okta-saml');
      assert.equal(
        await page.getByLabel('Id (required)', { exact: true }).inputValue(),
        'okta-saml',
      );
      await page.getByLabel('Id (required)', { exact: true }).fill('okta');
      assert.equal(
        await page.locator('#field-saml-attributes-name').inputValue(),
        'displayName',
        "the preset's attributes",
      );
      await page.locator('#field-saml-idpMetadataXml').fill(metadata);
      // SimpleSAMLphp releases the address as mail, where Okta says email.
      await page.locator('#field-saml-attributes-email').fill('mail');
      await page.getByLabel('Enabled: users can sign in with it').check();
      await page.locator('.validation').getByText('No problems').waitFor();
    });

    step("the identity provider's labels in English and in Chinese, the draft kept", async () => {
      assert.match(
        await labelOf(page, 'field-saml-idpMetadataXml'),
        /^Identity provider metadata \(XML\)/,
      );
      assert.match(await labelOf(page, 'field-saml-ssoUrl'), /^Single sign-on URL/);
      await switchLanguage(page, 'zh-CN', '新建登录方式');
      assert.match(await labelOf(page, 'field-saml-idpMetadataXml'), /^身份提供方元数据（XML）/);
      assert.match(await labelOf(page, 'field-saml-ssoUrl'), /^单点登录 URL/);
      await page.getByLabel('身份提供方单点登录 URL').waitFor();
      assert.equal(await page.locator('#field-saml-idpMetadataXml').inputValue(), metadata);
      await switchLanguage(page, 'en', 'New entry');
    });

    step('saved, the entry reads the identity provider from its metadata', async () => {
      await page.getByRole('button', { name: 'Create entry' }).click();
      await page.waitForURL(`${gateway.url}/_sso/admin/entries/okta`);
      await page.getByText('Okta (SAML) is saved.').waitFor();
      const stored = await gateway.storage.entries.get('okta');
      assert.equal(stored?.input.type, 'saml');
      // The preset's blank parameters are not stored over what the metadata says.
      const saml = (stored.input as { saml: Record<string, unknown> }).saml;
      assert.equal(saml.ssoUrl, undefined);
      assert.equal(saml.idpEntityId, undefined);
      assert.equal(saml.idpCertificate, undefined);
      await page.getByText(`${gateway.url}/_sso/saml/okta/metadata`, { exact: true }).waitFor();
    });

    step("its test sign-in goes through SimpleSAMLphp's page and shows the trace", async () => {
      const panel = trialPanel(page);
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        panel.getByRole('button', { name: 'Test sign-in', exact: true }).click(),
      ]);
      await popup.locator('#username').waitFor();
      assert.ok(popup.url().startsWith(`${idp.url}/`), popup.url());
      await popup.locator('#username').fill('carol');
      await popup.locator('#password').fill('carol-password');
      await popup.locator('#submit_button').click();
      await popup.getByRole('heading', { name: 'Test sign-in finished' }).waitFor();
      await popup.close();
      await panel.getByText('The sign-in would succeed.').waitFor();
      const shown = await panel.innerText();
      assert.match(shown, /^SAML response: ok$/m);
      assert.match(shown, /Carol Example/);
      assert.match(shown, /carol@example\.test/);
      assert.match(shown, /finance/);
      assert.doesNotMatch(shown, /carol-password/);
      await screenshot(page, 'saml-test-sign-in');
      assert.equal(await gateway.storage.users.findByUserId('carol'), undefined);
    });

    step("the trace's steps in Chinese", async () => {
      await switchLanguage(page, 'zh-CN', 'Okta (SAML)');
      const shown = await trialPanel(page).innerText();
      assert.match(shown, /^SAML 应答：成功$/m);
      await switchLanguage(page, 'en', 'Okta (SAML)');
      assert.deepEqual(console_.pageProblems, []);
    });
  },
);
