import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { EchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { startEchoUpstream } from '../reverse-proxy/test-support/upstream-fixture.js';
import { chromiumSkip, launchChromium } from '../../test-support/chromium.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
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
import { registerClient, tokenRequest } from './test-support/provider-fixture.js';

const [alice] = directoryUsers as [(typeof directoryUsers)[number]];

/** The claims of a JWT's payload (its signature is the provider tests' concern). */
function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;
}

/**
 * An application signs its users in through the gateway's OpenID Provider,
 * in Chromium, and the gateway signs them in through a directory or a SAML
 * identity provider: a user of slapd through the gateway's password form,
 * a user of SimpleSAMLphp (at idp.test) through its login page. Each comes
 * back to the application with a code whose ID token names the user and
 * the groups the directory or the identity provider gave, which the
 * application's rule on groups lets in.
 *
 * Both end with a form post on the gateway (the directory's password form,
 * the relayed SAML Response) whose 303 goes to the authorization endpoint
 * and on to the client's redirect URI: browsers apply CSP form-action to
 * those redirects, so the pages allow the registered clients' origins
 * (sign-in/application-origins.ts), or Chromium would stop before the client.
 */
describe(
  'an LDAP user and a SAML user sign in to an OpenID Connect application, in Chromium',
  { skip: chromiumSkip || slapdSkip || simpleSamlPhpSkip },
  () => {
    const step = storySteps();
    let slapd: RunningSlapd;
    let idp: RunningSimpleSamlPhp;
    let app: EchoUpstream;
    let gw: TestGateway;
    let browser: Browser;
    const callback = () => `${app.url}/cb`;
    const authorizeUrl = (state: string) =>
      `${gw.url}/_sso/oidc/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: 'app',
        redirect_uri: callback(),
        scope: 'openid profile groups',
        state,
      })}`;

    /** The application's side: the code redeemed, the ID token's claims. */
    async function redeemed(page: Page, state: string): Promise<Record<string, unknown>> {
      const arrived = new URL(page.url());
      assert.equal(`${arrived.origin}${arrived.pathname}`, callback());
      assert.equal(arrived.searchParams.get('state'), state);
      const code = arrived.searchParams.get('code');
      assert.ok(code !== null, page.url());
      const answer = await tokenRequest(gw.url, 'app', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: callback(),
      });
      const tokens = (await answer.json()) as { id_token?: string };
      assert.equal(answer.status, 200, JSON.stringify(tokens));
      assert.ok(tokens.id_token !== undefined);
      return claimsOf(tokens.id_token);
    }

    before(async () => {
      slapd = await startSlapd();
      app = await startEchoUpstream();
      gw = await startTestGateway({
        entries: () => [
          {
            type: 'ldap',
            id: 'corp',
            name: 'Corporate directory',
            enabled: true,
            appsecret: servicePassword,
            ldap: {
              url: slapd.url,
              bindDn: serviceDn,
              baseDn: `ou=people,${suffix}`,
              userFilter: '(&(objectClass=inetOrgPerson)(uid={username}))',
              groupFilter: '(&(objectClass=groupOfNames)(member={dn}))',
              groupBaseDn: `ou=groups,${suffix}`,
            },
            groupMapping: { expression: "JSON_GET($response, 'groups')" },
          },
        ],
      });
      idp = await startSimpleSamlPhp(
        [
          {
            username: 'carol',
            name: 'Carol Example',
            email: 'carol@example.test',
            groups: ['finance'],
          },
        ],
        [
          {
            entityId: `${gw.url}/_sso/saml/partner/metadata`,
            acsUrl: `${gw.url}/_sso/callback/partner`,
          },
        ],
        { host: 'idp.test' },
      );
      const token = await storedApiToken(gw, 'provider-story');
      const created = await fetch(`${gw.url}/_sso/api/entries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'saml',
          id: 'partner',
          name: 'Partner sign-on',
          enabled: true,
          saml: {
            ssoUrl: idp.ssoUrl,
            idpEntityId: idp.entityId,
            idpCertificate: idp.certificate,
            attributes: { name: 'displayName', email: 'mail', groups: 'groups' },
          },
        }),
      });
      assert.equal(created.status, 201, await created.text());
      await registerClient(gw, 'app', {
        redirectUris: [callback()],
        allowedGroups: ['engineers', 'finance'],
      });
      browser = await launchChromium(['--host-resolver-rules=MAP *.test 127.0.0.1']);
    });

    after(async () => {
      await browser.close();
      await gw.close();
      await idp.stop();
      await slapd.stop();
      await app.close();
    });

    step("the directory's user: the chooser, the password form, back with a code", async () => {
      const page = await (await browser.newContext()).newPage();
      await page.goto(authorizeUrl('ldap-state'));
      await page.getByRole('link', { name: 'Corporate directory' }).click();
      await page.getByLabel('Username').fill(alice.uid);
      await page.getByLabel('Password').fill(alice.password);
      await Promise.all([
        page.waitForURL((url) => url.href.startsWith(callback())),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      const claims = await redeemed(page, 'ldap-state');
      assert.equal(claims.sub, 'alice');
      assert.deepEqual([...(claims.groups as string[])].sort(), ['engineers', 'gateway-admins']);
    });

    step(
      "the identity provider's user: the chooser, SimpleSAMLphp's page, back with a code",
      async () => {
        const page = await (await browser.newContext()).newPage();
        await page.goto(authorizeUrl('saml-state'));
        await page.getByRole('link', { name: 'Partner sign-on' }).click();
        await page.locator('#username').waitFor();
        assert.ok(page.url().startsWith(`${idp.url}/`), page.url());
        await page.locator('#username').fill('carol');
        await page.locator('#password').fill('carol-password');
        await Promise.all([
          page.waitForURL((url) => url.href.startsWith(callback())),
          page.locator('#submit_button').click(),
        ]);
        const claims = await redeemed(page, 'saml-state');
        assert.equal(claims.sub, 'carol');
        assert.deepEqual(claims.groups, ['finance']);
        assert.equal(claims.name, 'Carol Example');
      },
    );
  },
);
