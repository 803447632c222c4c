import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample, startTestGateway } from '../../test-support/gateway-fixture.js';
import { emulatedRealm, emulatedSlug, emulatedTenant } from '../../example-server/oidc-profiles.js';
import { redirectTarget } from '../oidc/test-support/oidc-gateway.js';
import { unusedIdpCertificate } from '../../features/saml/test-support/saml-entries.js';
import { samlOf } from '../../core/index.js';
import { entryFromPreset, findPreset, presets } from './presets.js';

// Compiled into build/src/foundation/presets/, so the repository is four levels up.
const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const presetFolder = resolve(repositoryRoot, 'src/foundation/presets');

const sampleParameters: Record<string, Record<string, string>> = {
  wecom: { agentid: '1000002' },
  'microsoft-entra-id': { tenant: '9188040d-6c67-4c5b-b112-36a304b66dad' },
  okta: { oktaDomain: 'https://dev-123456.okta.com' },
  keycloak: { baseUrl: 'https://keycloak.example.com', realm: 'example' },
  authentik: { baseUrl: 'https://authentik.example.com', slug: 'ssogate' },
  auth0: { domain: 'https://dev-abc123.us.auth0.com' },
  'microsoft-entra-id-saml': {
    tenant: '9188040d-6c67-4c5b-b112-36a304b66dad',
    certificate: unusedIdpCertificate,
  },
  'adfs-saml': { host: 'adfs.corp.example', certificate: unusedIdpCertificate },
  'okta-saml': {
    ssoUrl: 'https://dev-123456.okta.com/app/corp_ssogate_1/exk1a2b3c4/sso/saml',
    issuer: 'http://www.okta.com/exk1a2b3c4',
    certificate: unusedIdpCertificate,
  },
  'active-directory': {
    url: 'ldaps://dc1.corp.example.com',
    bindDn: 'CN=ssogate,OU=Service Accounts,DC=corp,DC=example,DC=com',
    baseDn: 'DC=corp,DC=example,DC=com',
  },
  openldap: {
    url: 'ldaps://ldap.example.com',
    bindDn: 'cn=ssogate,ou=services,dc=example,dc=com',
    baseDn: 'ou=people,dc=example,dc=com',
    groupBaseDn: 'ou=groups,dc=example,dc=com',
  },
};

/** The presets of SAML identity providers: no client id or secret, no OAuth2 emulation. */
const isSaml = (name: string) => findPreset(name)?.entry.type === 'saml';

/** The directory presets: they sign in against slapd (src/features/ldap-directory/). */
const directoryPresets = new Set(['active-directory', 'openldap']);

function presetEntry(name: string, parameters: Record<string, string> = {}) {
  const preset = findPreset(name);
  assert.ok(preset, name);
  const result = entryFromPreset(preset, {
    id: name,
    ...(isSaml(name) ? {} : { appid: 'demo-app', appsecret: 'demo-secret' }),
    parameters: { ...sampleParameters[name], ...parameters },
  });
  assert.ok(result.ok, result.ok ? '' : result.problems.map((p) => p.message).join('; '));
  return result.entry;
}

describe('presets', () => {
  test('every file of src/foundation/presets/ is a preset, and each makes a valid entry', async () => {
    const files = (await readdir(presetFolder)).filter((file) => file.endsWith('.json'));
    assert.deepEqual(
      files.map((file) => file.replace(/\.json$/, '')).sort(),
      presets.map((preset) => preset.preset).sort(),
    );
    for (const preset of presets) presetEntry(preset.preset);
  });

  test("the SAML presets make entries of type saml with their providers' attribute names", () => {
    const entra = samlOf(presetEntry('microsoft-entra-id-saml'));
    assert.equal(
      entra?.saml.ssoUrl,
      'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/saml2',
    );
    assert.equal(
      entra.saml.idpEntityId,
      'https://sts.windows.net/9188040d-6c67-4c5b-b112-36a304b66dad/',
    );
    assert.equal(entra.saml.idpCertificate, unusedIdpCertificate);
    assert.equal(entra.appid, undefined);
    assert.deepEqual(entra.saml.attributes, {
      userId: undefined,
      name: 'http://schemas.microsoft.com/identity/claims/displayname',
      email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
      groups: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
    });
    const adfs = samlOf(presetEntry('adfs-saml'));
    assert.equal(adfs?.saml.ssoUrl, 'https://adfs.corp.example/adfs/ls/');
    assert.equal(adfs.saml.idpEntityId, 'http://adfs.corp.example/adfs/services/trust');
    const okta = samlOf(presetEntry('okta-saml'));
    assert.equal(okta?.saml.idpEntityId, 'http://www.okta.com/exk1a2b3c4');
    assert.equal(okta.saml.attributes.groups, 'groups');
  });

  test("the directory presets are LDAP entries with their directories' attribute names", () => {
    const ad = presetEntry('active-directory');
    assert.ok('ldap' in ad);
    assert.equal(ad.ldap.url, 'ldaps://dc1.corp.example.com:636');
    assert.deepEqual(
      [ad.ldap.userIdAttribute, ad.ldap.nameAttribute, ad.ldap.emailAttribute],
      ['sAMAccountName', 'displayName', 'mail'],
    );
    assert.equal(ad.ldap.memberOfAttribute, 'memberOf');
    assert.equal(ad.ldap.groupFilter, undefined);
    assert.ok(ad.ldap.lookup.kind === 'search');
    assert.match(ad.ldap.lookup.userFilter, /\(sAMAccountName=\{username\}\)/);
    const openldap = presetEntry('openldap');
    assert.ok('ldap' in openldap);
    assert.equal(openldap.ldap.groupBaseDn, 'ou=groups,dc=example,dc=com');
  });

  test('a parameter without value or default is a coded problem on its name', () => {
    const preset = findPreset('wecom');
    assert.ok(preset);
    const result = entryFromPreset(preset, { id: 'wecom', appid: 'corp' });
    assert.ok(!result.ok);
    assert.deepEqual(
      result.problems.map(({ code, field }) => [code, field]),
      [['field_invalid', 'parameters.agentid']],
    );
  });

  test('the build ships every preset file (the program imports each)', async () => {
    const tsc = resolve(repositoryRoot, 'node_modules/typescript/bin/tsc');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [tsc, '-p', 'tsconfig.build.json', '--listFilesOnly'],
      { cwd: repositoryRoot, maxBuffer: 16 * 1024 * 1024 },
    );
    const listed = new Set(stdout.split('\n').map((line) => line.trim()));
    for (const preset of presets) {
      assert.ok(listed.has(resolve(presetFolder, `${preset.preset}.json`)), preset.preset);
    }
  });
});

/** How each preset is pointed at its emulation in the example server, and who it says signed in. */
interface EmulatedPreset {
  readonly parameters: (exampleUrl: string) => Record<string, string>;
  readonly userId: string;
  /** The callback parameter carrying the code (DingTalk: authCode). */
  readonly codeParameter?: string;
  /** The coded error a code the provider does not know ends in, in the provider's own envelope. */
  readonly badCode: string;
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const uuidShaped = (hex: string) =>
  [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20, 32)].join(
    '-',
  );

const emulated: Record<string, EmulatedPreset> = {
  github: {
    parameters: (u) => ({ webBase: `${u}/github`, apiBase: `${u}/github/api` }),
    userId: '1001',
    badCode: 'token_request_failed', // 200 {"error":"bad_verification_code"}
  },
  gitlab: {
    parameters: (u) => ({ host: `${u}/gitlab` }),
    userId: '2000',
    badCode: 'token_request_failed', // 400 {"error":"invalid_grant"}
  },
  slack: {
    parameters: (u) => ({ base: `${u}/slack` }),
    userId: 'UALICE',
    badCode: 'token_request_failed', // 200 {"ok":false,"error":"invalid_code"}
  },
  wechat: {
    parameters: (u) => ({ loginBase: `${u}/wechat`, apiBase: `${u}/wechat` }),
    userId: `oWx${Buffer.from('alice').toString('hex')}`,
    badCode: 'token_request_failed', // 200 {"errcode":40029}
  },
  wecom: {
    parameters: (u) => ({ loginBase: `${u}/wecom`, apiBase: `${u}/wecom` }),
    userId: 'alice',
    badCode: 'userinfo_request_failed', // the code is read by user info: {"errcode":40029}
  },
  dingtalk: {
    parameters: (u) => ({ loginBase: `${u}/dingtalk`, apiBase: `${u}/dingtalk` }),
    userId: 'union-alice',
    codeParameter: 'authCode',
    badCode: 'token_request_failed', // 400 {"code":"invalidParameter.authCode.notFound"}
  },
  feishu: {
    parameters: (u) => ({ base: `${u}/feishu` }),
    userId: 'on_alice',
    badCode: 'token_request_failed', // 400 {"code":20003,"error":"invalid_grant"}
  },
  google: {
    parameters: (u) => ({ issuer: `${u}/google` }),
    userId: `1${Buffer.from('alice').toString('hex')}`,
    badCode: 'token_request_failed', // 400 {"error":"invalid_grant"}
  },
  'microsoft-entra-id': {
    parameters: (u) => ({ loginBase: `${u}/entra`, tenant: emulatedTenant }),
    userId: `00000000-0000-0000-0000-${Buffer.from('alice').toString('hex').padStart(12, '0')}`,
    badCode: 'token_request_failed', // 400 {"error":"invalid_grant","error_codes":[70008]}
  },
  okta: {
    parameters: (u) => ({ oktaDomain: `${u}/okta` }),
    userId: '00ualice',
    badCode: 'token_request_failed',
  },
  keycloak: {
    parameters: (u) => ({ baseUrl: `${u}/keycloak`, realm: emulatedRealm }),
    userId: uuidShaped(sha256Hex('keycloak\nalice')),
    badCode: 'token_request_failed',
  },
  authentik: {
    parameters: (u) => ({ baseUrl: `${u}/authentik`, slug: emulatedSlug }),
    userId: sha256Hex('authentik\nalice'),
    badCode: 'token_request_failed',
  },
  auth0: {
    parameters: (u) => ({ domain: `${u}/auth0` }),
    userId: 'auth0|alice',
    badCode: 'token_request_failed', // 403 {"error":"invalid_grant"}
  },
};

/**
 * Every preset, made into an entry with its parameters pointed at the
 * example server's emulation of its provider (src/example-server/), signs a
 * person in; and a code the provider does not know is refused in the
 * provider's own envelope, which the gateway turns into a coded error and
 * no session.
 */
describe('presets sign in against emulations of their providers', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: (_examples, exampleUrl) =>
        presets
          .filter((preset) => !isSaml(preset.preset) && !directoryPresets.has(preset.preset))
          .map(
            (preset) =>
              presetEntry(preset.preset, emulated[preset.preset]?.parameters(exampleUrl)).input,
          ),
      usernames: ['alice'],
    });
  });
  after(async () => gw.close());

  test('every preset has an emulation', () => {
    assert.deepEqual(
      Object.keys(emulated).sort(),
      presets
        .map((p) => p.preset)
        .filter((name) => !isSaml(name) && !directoryPresets.has(name))
        .sort(),
    );
  });

  for (const [name, expected] of Object.entries(emulated)) {
    test(`${name}: signs in`, async () => {
      const browser = gw.browser();
      await signInAtExample(browser, gw.example.url);
      const page = await browser.open(`${gw.url}/_sso/login/${name}?return_to=/p`);
      assert.equal(page.url, `${gw.url}/p`, page.body.slice(0, 400));
      const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
      const user = JSON.parse(me.body) as { userId: string; userName: string; entryId: string };
      assert.deepEqual(
        [user.userId, user.userName, user.entryId],
        [expected.userId, 'Alice Example', name],
      );
    });

    test(`${name}: a code the provider refuses is ${expected.badCode} and no session`, async () => {
      const browser = gw.browser();
      await signInAtExample(browser, gw.example.url);
      const callback = `${gw.url}/_sso/callback/${name}`;
      const { location } = await redirectTarget(browser, `${gw.url}/_sso/login/${name}`, callback);
      const url = new URL(location);
      const codeParameter = expected.codeParameter ?? 'code';
      assert.ok(url.searchParams.has(codeParameter), location);
      url.searchParams.set(codeParameter, 'not-a-code-the-provider-issued');
      const page = await browser.open(url.toString());
      assert.equal(page.status, 502, page.body.slice(0, 400));
      assert.match(page.body, new RegExp(expected.badCode));
      const me = await browser.open(`${gw.url}/_sso/me`, { accept: 'application/json' });
      assert.equal(me.status, 401);
    });
  }
});
