import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { emptyDraft, toEntryBody } from '../entry-form/entry-draft.js';
import type { PresetView } from './preset-draft.js';
import { defaultParameters, draftFromPreset, presetName, scopesOf } from './preset-draft.js';

// Compiled into build/console/src/presets/, so the repository is four levels up.
const github = JSON.parse(
  await readFile(
    new URL('../../../../src/foundation/presets/github.json', import.meta.url),
    'utf8',
  ),
) as PresetView;

describe('a new entry from a preset', () => {
  test('every field of the preset, its parameters filled; the credentials stay', () => {
    const current = { ...emptyDraft, id: 'hub', appid: 'my-client' };
    const draft = draftFromPreset(
      github,
      { ...defaultParameters(github), webBase: 'https://git.corp.example/' },
      current,
    );
    const body = toEntryBody(draft, false);
    assert.equal(body.id, 'hub');
    assert.equal(body.name, 'GitHub');
    assert.equal(body.appid, 'my-client');
    assert.equal(body.appsecret, undefined);
    assert.match(
      body.authorizeUrl ?? '',
      /^https:\/\/git\.corp\.example\/login\/oauth\/authorize\?/,
    );
    assert.equal(body.userInfoUrl, 'https://api.github.com/user');
    assert.equal(body.tokenRequest?.bodyEncoding, 'form');
    assert.match(JSON.stringify(body.userInfoParse), /userId = JSON_GET\(\$response, 'id'\)/);
  });

  test('a SAML preset makes an entry of type saml, its attributes filled and no client id', async () => {
    const okta = JSON.parse(
      await readFile(
        new URL('../../../../src/foundation/presets/okta-saml.json', import.meta.url),
        'utf8',
      ),
    ) as PresetView;
    const draft = draftFromPreset(
      okta,
      { ssoUrl: 'https://dev-1.okta.com/app/a/exk1/sso/saml', issuer: 'http://www.okta.com/exk1' },
      emptyDraft,
    );
    assert.equal(draft.type, 'saml');
    const body = toEntryBody(draft, false);
    assert.equal(body.appid, undefined);
    assert.deepEqual(body.saml?.attributes, {
      name: 'displayName',
      email: 'email',
      groups: 'groups',
    });
    assert.equal(body.saml.idpEntityId, 'http://www.okta.com/exk1');
  });

  test('the id is the preset’s own, unless typed, and never one another entry has', () => {
    assert.equal(draftFromPreset(github, defaultParameters(github), emptyDraft).id, 'github');
    assert.equal(
      draftFromPreset(github, defaultParameters(github), emptyDraft, ['github']).id,
      'github-2',
    );
    const typed = { ...emptyDraft, name: 'Code', id: 'corp-code' };
    assert.equal(draftFromPreset(github, defaultParameters(github), typed).id, 'corp-code');
  });

  test('an empty parameter stays a visible {{name}} to fill', () => {
    const draft = draftFromPreset(github, { webBase: '', apiBase: '' }, emptyDraft);
    assert.match(draft.authorizeUrl, /^\{\{webBase\}\}/);
  });

  test('the scopes to register are read from the authorization URL', () => {
    assert.deepEqual(scopesOf(String(github.entry.authorizeUrl)), ['read:user', 'user:email']);
    assert.deepEqual(scopesOf('https://x.example/auth?state=${state}'), []);
  });

  test("a new entry's default name is the preset's own name in the language on screen", async () => {
    const wecom = JSON.parse(
      await readFile(
        new URL('../../../../src/foundation/presets/wecom.json', import.meta.url),
        'utf8',
      ),
    ) as PresetView;
    assert.equal(presetName(wecom, 'zh-CN'), '企业微信');
    assert.equal(presetName(wecom, 'en'), 'WeCom');
    const chinese = draftFromPreset(wecom, defaultParameters(wecom), emptyDraft, [], 'zh-CN');
    assert.equal(chinese.name, '企业微信');
    assert.equal(chinese.id, 'wecom');
    assert.equal(draftFromPreset(wecom, defaultParameters(wecom), emptyDraft).name, 'WeCom');
  });
});

describe('a SAML entry from a preset, with the metadata pasted', () => {
  const presetFile = async (name: string) =>
    JSON.parse(
      await readFile(
        new URL(`../../../../src/foundation/presets/${name}.json`, import.meta.url),
        'utf8',
      ),
    ) as PresetView;
  const metadata = '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata"/>';

  test("the preset's unfilled parameters are left to the metadata, as blank fields are", async () => {
    for (const name of ['okta-saml', 'microsoft-entra-id-saml', 'adfs-saml']) {
      const draft = draftFromPreset(await presetFile(name), {}, emptyDraft);
      assert.match(draft.saml.idpCertificate, /\{\{certificate\}\}/, name);
      const pasted = { ...draft, saml: { ...draft.saml, idpMetadataXml: metadata } };
      const { saml } = toEntryBody(pasted, false);
      assert.deepEqual(
        [saml?.ssoUrl, saml?.idpEntityId, saml?.idpCertificate],
        [undefined, undefined, undefined],
        name,
      );
      assert.equal(saml?.idpMetadataXml, metadata);
      assert.ok(saml.attributes?.groups !== undefined, `${name}: the preset's attributes stay`);
    }
  });

  test('a parameter filled is sent beside the metadata; without metadata, a placeholder is sent for the core to name', async () => {
    const entra = await presetFile('microsoft-entra-id-saml');
    const filled = draftFromPreset(entra, { tenant: 'contoso-tenant' }, emptyDraft);
    const pasted = { ...filled, saml: { ...filled.saml, idpMetadataXml: metadata } };
    const { saml } = toEntryBody(pasted, false);
    assert.equal(saml?.ssoUrl, 'https://login.microsoftonline.com/contoso-tenant/saml2');
    assert.equal(saml.idpCertificate, undefined);
    assert.equal(toEntryBody(filled, false).saml?.idpCertificate, '{{certificate}}');
  });
});
