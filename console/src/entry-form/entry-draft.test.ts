import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { EntryInput } from '../../../src/core/index.js';
import { extensionSettingName, validateEntry } from '../../../src/core/index.js';
import { presentEntry } from '../../../src/features/admin-api/presenters.js';
import { entrySchema } from '../../../src/features/admin-api/response-schemas.js';
import { entryReplaceBody } from '../../../src/features/admin-api/schemas.js';
import { exampleEntries } from '../../../src/example-server/presets.js';
import type { EntryBody, EntryView } from '../types.js';
import { isPost } from './body-parts.js';
import type { EntryDraft, SecretDraft } from './entry-draft.js';
import { draftFromEntry, emptyDraft, fieldId, problemsOf, toEntryBody } from './entry-draft.js';
import { parseSettings, settingsProblems } from './extension-settings.js';
import { en, zhCN } from '../i18n/catalogs.js';

/** An OAuth2 entry as GET /entries/{id} sends it, every field set, none to its default. */
const oauth2Entry: EntryView = {
  id: 'corp-sso',
  name: 'Corporate sign-in',
  enabled: true,
  isDefault: true,
  type: 'oauth2',
  appid: 'corp-app',
  appsecretSet: true,
  authorizeUrl:
    'https://idp.example.test/authorize?client_id=${appid}&redirect_uri=${redirect_uri}&state=${state}',
  pkce: true,
  tokenUrl: 'POST https://idp.example.test/token?code=${code}&redirect_uri=${redirect_uri}',
  tokenRequest: {
    headers: [{ name: 'X-Tenant', value: 'corp' }],
    bodyEncoding: 'form',
    successCondition: "JSON_GET($response, 'errcode') == 0",
    clientAuthentication: 'basic',
  },
  tokenParse: "JSON_GET($response, 'access_token')",
  tokenValues: [{ name: 'openid', expression: "JSON_GET($response, 'openid')" }],
  userInfoUrl: 'https://idp.example.test/userinfo?openid=${openid}',
  userInfoRequest: {
    headers: [{ name: 'Authorization', value: 'Bearer ${access_token}' }],
    successCondition: "JSON_GET($response, 'errcode') == 0",
  },
  userInfoParse: [
    { attribute: 'userId', expression: "JSON_GET($response, 'sub')" },
    { attribute: 'email', expression: "JSON_GET($response, 'mail')", required: true },
  ],
  logoutUrl: 'https://idp.example.test/logout?redirect_uri=${redirect_uri}',
  timeoutMs: 4000,
  provisioning: { createUsers: false, updateOnSignIn: false, adoptExistingUsers: true },
  oidc: { issuer: 'https://idp.example.test', scope: 'profile', userInfo: 'both' },
  callbackCodeParameter: 'authCode',
  authorizeFragment: 'wechat_redirect',
  responseMode: 'form_post',
  appToken: {
    url: 'https://idp.example.test/gettoken?id=${appid}&secret=${app_secret}',
    parse: "JSON_GET($response, 'access_token')",
    expiresIn: "JSON_GET($response, 'expires_in')",
    successCondition: "JSON_GET($response, 'errcode') == 0",
  },
  codeInUserInfo: true,
  userInfoValues: [{ name: 'uid', expression: "JSON_GET($response, 'sub')" }],
  userInfoCalls: [
    {
      name: 'member',
      url: 'https://idp.example.test/member?id=${uid}&t=${app_token}',
      successCondition: "JSON_GET($response, 'errcode') == 0",
      mapping: "userName = JSON_GET($response, 'name')",
    },
  ],
  groupMapping: { expression: "JSON_GET($response, 'groups')", adminGroups: ['sso-admins'] },
  extensionSecretSet: false,
  broken: null,
  position: 2,
  createdAt: '2024-05-01T12:00:00.000Z',
  updatedAt: '2024-05-02T12:00:00.000Z',
  lastSuccessfulSignInAt: '2024-05-03T12:00:00.000Z',
  lastFailedSignInAt: null,
};

/** A plain OAuth2 entry (no `oidc` block) re-checking its sessions with the access token. */
const revalidatingEntry = {
  // Without the oidc block, and without codeInUserInfo: an entry whose
  // user-info call reads the code has no token to re-check with.
  ...Object.fromEntries(
    Object.entries(oauth2Entry).filter(([key]) => key !== 'oidc' && key !== 'codeInUserInfo'),
  ),
  revalidateMinutes: 15,
  revalidateGraceMinutes: 30,
} as EntryView;

/** An extension entry as the API sends it, every field it uses set. */
const extensionEntry: EntryView = {
  id: 'legacy-portal',
  name: 'Legacy portal',
  enabled: false,
  isDefault: false,
  type: 'extension',
  appid: 'legacy-app',
  appsecretSet: true,
  extensionUrl: 'https://extension.example.test/sso',
  extensionSecretSet: true,
  oidcDiscovery: null,
  broken: null,
  extensionSettings: { tenant: 'north', 'scope.list': 'read write', mode: 'a=b' },
  provisioning: {
    createUsers: true,
    updateOnSignIn: false,
    adoptExistingUsers: false,
    userIdScope: 'entry',
  },
  position: 0,
  createdAt: '2024-05-01T12:00:00.000Z',
  updatedAt: '2024-05-01T12:00:00.000Z',
  lastSuccessfulSignInAt: null,
  lastFailedSignInAt: null,
};

/** An LDAP entry with every field of its directory set. */
const ldapEntry: EntryView = {
  id: 'corp-directory',
  name: 'Corporate directory',
  enabled: true,
  isDefault: false,
  type: 'ldap',
  appsecretSet: true,
  extensionSecretSet: false,
  broken: null,
  ldap: {
    url: 'ldap://ldap.example.test',
    startTls: true,
    caCertificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
    bindDn: 'cn=gateway,ou=services,dc=example,dc=test',
    // The other way of finding the user, exclusive with bindDn; JSON carries no undefined.
    userDnTemplate: undefined,
    nestedGroups: true,
    baseDn: 'ou=people,dc=example,dc=test',
    userFilter: '(&(objectClass=person)(sAMAccountName={username}))',
    groupFilter: '(&(objectClass=group)(member={dn}))',
    groupBaseDn: 'ou=groups,dc=example,dc=test',
    userIdAttribute: 'sAMAccountName',
    nameAttribute: 'displayName',
    emailAttribute: 'mail',
    memberOfAttribute: 'memberOf',
    connectTimeoutMs: 3000,
  },
  groupMapping: { expression: "JSON_GET($response, 'groups')", adminGroups: ['sso-admins'] },
  provisioning: { createUsers: true, updateOnSignIn: true, adoptExistingUsers: false },
  position: 1,
  createdAt: '2024-05-01T12:00:00.000Z',
  updatedAt: '2024-05-01T12:00:00.000Z',
  lastSuccessfulSignInAt: null,
  lastFailedSignInAt: null,
};

/** A SAML entry with every field of its identity provider set. */
const samlEntry: EntryView = {
  id: 'corp-saml',
  name: 'Corp sign-on',
  enabled: true,
  isDefault: false,
  type: 'saml',
  appsecretSet: false,
  extensionSecretSet: false,
  oidcDiscovery: null,
  broken: null,
  saml: {
    ssoUrl: 'https://idp.example.test/sso',
    idpEntityId: 'https://idp.example.test/metadata',
    idpCertificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
    idpMetadataXml: '<md:EntityDescriptor entityID="https://idp.example.test/metadata"/>',
    idpMetadataUrl: 'https://idp.example.test/metadata',
    spCertificate: '-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n',
    wantAssertionsSigned: false,
    spEntityId: 'urn:example:gateway',
    clockSkewSeconds: 30,
    attributes: { userId: 'uid', name: 'displayName', email: 'mail', groups: 'groups' },
  },
  groupMapping: { adminGroups: ['sso-admins', 'root'] },
  provisioning: { createUsers: true, updateOnSignIn: true, adoptExistingUsers: false },
  position: 3,
  createdAt: '2024-05-01T12:00:00.000Z',
  updatedAt: '2024-05-01T12:00:00.000Z',
  lastSuccessfulSignInAt: null,
  lastFailedSignInAt: null,
};

/** What the API sends about an entry that a client never writes back. */
const serverOnlyFields = new Set([
  'appsecretSet',
  'extensionSecretSet',
  'oidcDiscovery',
  'broken',
  'position',
  'createdAt',
  'updatedAt',
  'lastSuccessfulSignInAt',
  'lastFailedSignInAt',
]);

/**
 * The entry's fields as a client writes them. Two defaults are left out:
 * type `oauth2`, and `isDefault: false` (the form sends isDefault only to
 * keep a stored default).
 */
function writtenFields(view: EntryView): Record<string, unknown> {
  const isDefaultValue = ([key, value]: [string, unknown]) =>
    (key === 'type' && value === 'oauth2') || (key === 'isDefault' && value === false);
  const withoutUndefined = (value: unknown): unknown =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined))
      : value;
  return Object.fromEntries(
    Object.entries(view)
      .filter((field) => !serverOnlyFields.has(field[0]) && !isDefaultValue(field))
      .map(([key, value]) => [key, withoutUndefined(value)]),
  );
}

/** The form's body for a stored entry left as it is. */
function resent(view: EntryView): EntryBody {
  return toEntryBody(draftFromEntry(view), view.isDefault);
}

/** The input stored for an entry, as validateEntry keeps it. */
function storedInput(input: unknown): EntryInput {
  const validation = validateEntry(input);
  assert.ok(validation.ok, JSON.stringify(validation.ok ? [] : validation.problems));
  return validation.entry.input;
}

/** An entry stored from `input` as the server's presenter sends it, through JSON. */
function presented(input: unknown, secretSet: boolean): EntryView {
  const record = { input: storedInput(input), position: 0, createdAt: 0, updatedAt: 0 };
  const answer = { ...presentEntry(record, secretSet), lastSuccessfulSignInAt: null };
  return entrySchema.parse(JSON.parse(JSON.stringify({ ...answer, lastFailedSignInAt: null })));
}

describe('an entry through the form and back', () => {
  test('the fixtures set every field the API sends about an entry', () => {
    // A field added to the API's entry must be added here, and to the draft.
    const set = new Set([
      ...Object.keys(oauth2Entry),
      ...Object.keys(revalidatingEntry),
      ...Object.keys(extensionEntry),
      ...Object.keys(ldapEntry),
      ...Object.keys(samlEntry),
    ]);
    assert.deepEqual(
      Object.keys(entrySchema.shape).filter((key) => !set.has(key)),
      [],
    );
  });

  test('an OAuth2 entry with every field set comes back as the same entry', () => {
    const body = resent(oauth2Entry);
    assert.deepEqual(body, writtenFields(oauth2Entry));
    // The stored secret is kept by leaving it out; the server takes the body as it is.
    assert.equal('appsecret' in body, false);
    assert.equal(entryReplaceBody.safeParse(body).success, true);
    assert.equal(validateEntry({ ...body, appsecret: 'kept' }).ok, true);
  });

  test('a plain OAuth2 entry that re-checks with the access token comes back as the same entry', () => {
    const body = resent(revalidatingEntry);
    assert.deepEqual(body, writtenFields(revalidatingEntry));
    assert.equal(validateEntry({ ...body, appsecret: 'kept' }).ok, true);
    const blank = toEntryBody({
      ...draftFromEntry(revalidatingEntry),
      revalidateMinutes: '',
      revalidateGraceMinutes: ' ',
    });
    assert.equal('revalidateMinutes' in blank || 'revalidateGraceMinutes' in blank, false);
  });

  test('an LDAP entry with every field set comes back as the same entry', () => {
    const body = resent(ldapEntry);
    assert.deepEqual(body, writtenFields(ldapEntry));
    assert.equal(entryReplaceBody.safeParse(body).success, true);
    assert.equal(validateEntry({ ...body, appsecret: 'kept' }).ok, true);
  });

  test('an extension entry with every field set comes back as the same entry', () => {
    const body = resent(extensionEntry);
    assert.deepEqual(body, writtenFields(extensionEntry));
    assert.equal('appsecret' in body, false);
    assert.equal('extensionSecret' in body, false);
    assert.equal(entryReplaceBody.safeParse(body).success, true);
  });

  test('a SAML entry with every field set comes back as the same entry', () => {
    const body = resent(samlEntry);
    assert.deepEqual(body, writtenFields(samlEntry));
    assert.equal(entryReplaceBody.safeParse(body).success, true);
  });

  test('the example entries, as the server presents them, come back as the entries stored', () => {
    const examples = exampleEntries('https://idp.example.test');
    for (const example of [examples.getStyle, examples.jsonStyle, examples.standard]) {
      const body = resent(presented(example, true));
      const validation = validateEntry({ ...body, appsecret: example.appsecret });
      assert.ok(validation.ok, String(example.id));
      assert.deepEqual(validation.entry.input, {
        ...storedInput(example),
        // The form writes the provisioning defaults out; they mean the same as none.
        provisioning: { createUsers: true, updateOnSignIn: true, adoptExistingUsers: false },
      });
    }
  });

  test('a new entry left blank sends the fields the core must report as required', () => {
    assert.deepEqual(toEntryBody(emptyDraft), {
      id: '',
      name: '',
      // A new entry starts off the sign-in page, until the administrator enables it.
      enabled: false,
      provisioning: { createUsers: true, updateOnSignIn: true, adoptExistingUsers: false },
      authorizeUrl: '',
      tokenUrl: '',
      tokenParse: '',
      userInfoUrl: '',
    });
  });

  test('an entry with only its required fields gives the draft of a new entry', () => {
    const view: EntryView = {
      id: 'plain',
      name: 'Plain',
      enabled: false,
      isDefault: false,
      type: 'oauth2',
      appsecretSet: false,
      extensionSecretSet: false,
      broken: null,
      position: 0,
      createdAt: '2024-05-01T12:00:00.000Z',
      updatedAt: '2024-05-01T12:00:00.000Z',
      lastSuccessfulSignInAt: null,
      lastFailedSignInAt: null,
    };
    assert.deepEqual(draftFromEntry(view), { ...emptyDraft, id: 'plain', name: 'Plain' });
  });
});

describe('write-only secrets', () => {
  const storedSecret = draftFromEntry(oauth2Entry).appsecret;
  const noSecret = draftFromEntry({ ...oauth2Entry, appsecretSet: false }).appsecret;
  const cases: readonly (readonly [string, SecretDraft, string | null | undefined])[] = [
    ['a stored secret left alone is kept: not sent', storedSecret, undefined],
    [
      'a stored secret to replace, left blank, is kept',
      { ...storedSecret, mode: 'replace' },
      undefined,
    ],
    ['a stored secret replaced is sent', { ...storedSecret, mode: 'replace', value: 'n3w' }, 'n3w'],
    ['a stored secret to remove is sent as null', { ...storedSecret, mode: 'clear' }, null],
    ['a value typed and then kept is not sent', { ...storedSecret, value: 'typed' }, undefined],
    ['no stored secret and none typed: not sent', noSecret, undefined],
    ['no stored secret, one typed: sent', { ...noSecret, value: 's3cret' }, 's3cret'],
  ];

  test('the draft of a stored entry knows whether a secret is stored, never its value', () => {
    assert.deepEqual(storedSecret, { stored: true, mode: 'keep', value: '' });
    assert.deepEqual(noSecret, { stored: false, mode: 'replace', value: '' });
    assert.deepEqual(draftFromEntry(extensionEntry).extensionSecret, storedSecret);
    assert.deepEqual(draftFromEntry(oauth2Entry).extensionSecret, noSecret);
  });

  for (const [name, secret, sent] of cases) {
    test(name, () => {
      const oauth2 = toEntryBody({ ...draftFromEntry(oauth2Entry), appsecret: secret });
      const extension = toEntryBody({ ...draftFromEntry(extensionEntry), extensionSecret: secret });
      for (const [body, field] of [
        [oauth2, 'appsecret'],
        [extension, 'extensionSecret'],
      ] as const) {
        assert.equal(field in body, sent !== undefined, field);
        assert.equal(body[field], sent, field);
      }
    });
  }
});

describe('the entry body from the draft', () => {
  const draft = draftFromEntry(oauth2Entry);

  test('blank optional fields and blank rows are left out, half-filled rows are kept', () => {
    const body = toEntryBody({
      ...draft,
      appid: '  ',
      logoutUrl: '',
      tokenValues: [{ name: '', value: '' }],
      tokenCall: {
        headers: [{ name: '', value: '' }],
        bodyEncoding: 'json',
        successCondition: ' ',
      },
      userInfoCall: {
        headers: [
          { name: 'X-Half', value: '' },
          { name: '', value: '' },
        ],
        bodyEncoding: 'json',
        successCondition: '',
      },
      clientAuthentication: 'none',
      mappingRows: [{ name: '', value: '' }],
    });
    for (const field of ['appid', 'logoutUrl', 'tokenValues', 'tokenRequest', 'userInfoParse']) {
      assert.equal(field in body, false, field);
    }
    // The core reports the half-filled row by its position.
    assert.deepEqual(body.userInfoRequest, { headers: [{ name: 'X-Half', value: '' }] });
  });

  test('a body encoding is sent for a POST call only, and json (the default) never', () => {
    const encoding = (tokenUrl: string, bodyEncoding: 'json' | 'form') =>
      toEntryBody({ ...draft, tokenUrl, tokenCall: { ...draft.tokenCall, bodyEncoding } })
        .tokenRequest?.bodyEncoding;
    assert.equal(encoding('POST https://idp.example.test/token', 'form'), 'form');
    assert.equal(encoding('POST https://idp.example.test/token', 'json'), undefined);
    assert.equal(encoding('https://idp.example.test/token', 'form'), undefined);
  });

  test('a whole-number timeout is sent as a number; anything else as typed, for the core to refuse', () => {
    const timeout = (timeoutMs: string) => toEntryBody({ ...draft, timeoutMs }).timeoutMs;
    assert.equal(timeout(' 5000 '), 5000);
    assert.equal(timeout(''), undefined);
    assert.equal(timeout('   '), undefined);
    assert.equal(timeout('5s'), '5s');
    assert.equal(timeout('1.5'), '1.5');
    assert.equal(timeout('-1'), '-1');
    const refused = validateEntry({
      ...toEntryBody({ ...draft, timeoutMs: '5s' }),
      appsecret: 'x',
    });
    assert.equal(refused.ok, false);
  });

  test('isDefault is sent only to keep a stored default', () => {
    assert.equal(toEntryBody({ ...draft, isDefault: true }, true).isDefault, true);
    assert.equal('isDefault' in toEntryBody({ ...draft, isDefault: true }, false), false);
    assert.equal('isDefault' in toEntryBody({ ...draft, isDefault: false }, true), false);
  });

  test('the user-info mapping is sent in the mode shown: the text as typed, or the rows', () => {
    const text = "userId = JSON_GET($response, 'sub')\n# a comment";
    const asText = toEntryBody({ ...draft, mappingMode: 'text', mappingText: text });
    assert.equal(asText.userInfoParse, text);
    assert.equal(
      'userInfoParse' in toEntryBody({ ...draft, mappingMode: 'text', mappingText: ' \n' }),
      false,
    );
    const fromText = draftFromEntry({ ...oauth2Entry, userInfoParse: text });
    assert.equal(fromText.mappingMode, 'text');
    assert.deepEqual(fromText.mappingRows, []);
    assert.equal(toEntryBody(fromText).userInfoParse, text);
  });

  test('an extension entry sends none of the OAuth2 fields the draft still holds', () => {
    const switched: EntryDraft = { ...draft, type: 'extension', extensionUrl: 'https://x.test' };
    const body = toEntryBody(switched);
    assert.deepEqual(Object.keys(body).sort(), [
      'appid',
      'enabled',
      'extensionSettings',
      'extensionUrl',
      'id',
      'name',
      'provisioning',
      'type',
    ]);
    assert.deepEqual(body.extensionSettings, {});
  });
});

describe('extension settings as text', () => {
  test('reads key = value lines, skipping blank lines, comments and lines without a key', () => {
    const text =
      '# comment\r\n\n tenant = north \nnot a setting\n= no key\nmode = a = b\ntenant=south';
    assert.deepEqual(parseSettings(text), { tenant: 'south', mode: 'a = b' });
    assert.deepEqual(parseSettings(''), {});
  });

  test('reports each line that is not key = value, by its line', () => {
    const text = '# comment\n\ntenant = north\nnot a setting\n= no key\n  ';
    assert.deepEqual(settingsProblems(text, en.entryForm), [
      {
        field: 'extensionSettings',
        line: 4,
        column: 1,
        message:
          'line 4 is not of the form "key = value" (indent a value\'s further lines by two spaces)',
      },
      {
        field: 'extensionSettings',
        line: 5,
        column: 1,
        message:
          'line 5 is not of the form "key = value" (indent a value\'s further lines by two spaces)',
      },
    ]);
    assert.deepEqual(settingsProblems('', en.entryForm), []);
    assert.match(settingsProblems('x', zhCN.entryForm)[0]?.message ?? '', /^第 1 行不是/);
  });

  test('a multi-line value is printed on indented lines and read back whole', () => {
    const certificate =
      '-----BEGIN CERTIFICATE-----\nMIIB\n\n  indented\n-----END CERTIFICATE-----';
    const view: EntryView = {
      ...extensionEntry,
      extensionSettings: { cert: certificate, tenant: 'north' },
    };
    const text = draftFromEntry(view).extensionSettings;
    assert.equal(
      text,
      'cert = -----BEGIN CERTIFICATE-----\n  MIIB\n  \n    indented\n  -----END CERTIFICATE-----\ntenant = north',
    );
    assert.deepEqual(settingsProblems(text, en.entryForm), []);
    assert.deepEqual(resent(view).extensionSettings, { cert: certificate, tenant: 'north' });
  });

  test('any settings an entry can hold come back the same, over several lines too', () => {
    const firstLine = fc.string().filter((text) => text === text.trim() && !/[\r\n]/.test(text));
    const line = fc.string().filter((text) => !/[\r\n]/.test(text));
    const value = fc
      .tuple(firstLine, fc.array(line, { maxLength: 3 }))
      .map(([first, rest]) => [first, ...rest].join('\n'));
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(extensionSettingName), value), (generated) => {
        const settings = { ...generated };
        const view: EntryView = { ...extensionEntry, extensionSettings: settings };
        assert.deepEqual(resent(view).extensionSettings, settings);
      }),
    );
  });

  test('any settings an entry can hold on one line each come back the same', () => {
    const value = fc.string().filter((text) => text === text.trim() && !/[\r\n]/.test(text));
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(extensionSettingName), value), (generated) => {
        // fast-check's objects have no prototype; JSON's (and parseSettings') do.
        const settings = { ...generated };
        const view: EntryView = { ...extensionEntry, extensionSettings: settings };
        assert.deepEqual(resent(view).extensionSettings, settings);
      }),
    );
  });
});

describe('field helpers', () => {
  test('isPost reads the method prefix of a call template exactly', () => {
    assert.equal(isPost('POST https://idp.example.test/token'), true);
    assert.equal(isPost('https://idp.example.test/token'), false);
    assert.equal(isPost('post https://idp.example.test/token'), false);
    assert.equal(isPost(' POST https://idp.example.test/token'), false);
    assert.equal(isPost('POSThttps://idp.example.test/token'), false);
  });

  test("problemsOf finds a field's problems, and with nested those inside it", () => {
    const problems = [
      { field: 'tokenRequest', message: 'a' },
      { field: 'tokenRequest.headers[0].name', message: 'b' },
      { field: 'tokenRequestX', message: 'c' },
      { field: 'tokenValues[1]', message: 'd' },
    ];
    assert.deepEqual(
      problemsOf(problems, 'tokenRequest').map(({ message }) => message),
      ['a'],
    );
    assert.deepEqual(
      problemsOf(problems, 'tokenRequest', true).map(({ message }) => message),
      ['a', 'b'],
    );
    assert.deepEqual(
      problemsOf(problems, 'tokenValues', true).map(({ message }) => message),
      ['d'],
    );
    assert.deepEqual(problemsOf([], 'tokenUrl', true), []);
  });

  test('fieldId makes an element id of any field path', () => {
    assert.equal(fieldId('tokenUrl'), 'field-tokenUrl');
    assert.equal(fieldId('tokenRequest.headers[0].name'), 'field-tokenRequest-headers-0-name');
    assert.equal(fieldId('extensionSettings.a b"c'), 'field-extensionSettings-a-b-c');
  });
});
