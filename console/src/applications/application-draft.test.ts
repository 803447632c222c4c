import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  createOidcClient,
  oidcClientCreateBody,
  oidcClientSettings,
} from '../../../src/features/openid-provider/admin/oidc-clients.js';
import { presentOidcClient } from '../../../src/features/openid-provider/admin/client-answers.js';
import { providerPaths } from '../../../src/features/openid-provider/endpoints.js';
import { en, zhCN } from '../i18n/catalogs.js';
import type { ApplicationView, Problem } from '../types.js';
import {
  draftFromApplication,
  emptyApplicationDraft,
  formProblems,
  linesOf,
  problemSentence,
  providerAddresses,
  strayProblems,
  toCreateBody,
  toSettingsBody,
} from './application-draft.js';

/** An application as the server's presenter sends it. */
const stored = presentOidcClient({
  clientId: 'grafana',
  secretHash: 'hash',
  name: 'Grafana',
  redirectUris: ['https://grafana.example.com/login/generic_oauth', 'http://localhost:3000/cb'],
  postLogoutRedirectUris: ['https://grafana.example.com/login'],
  backchannelLogoutUri: null,
  frontchannelLogoutUri: 'https://grafana.example.com/logout/front',
  frontchannelLogoutSessionRequired: true,
  allowedEntries: ['corp'],
  allowedUsers: ['alice', 'bob'],
  allowedGroups: ['ops'],
  refreshTokens: true,
  subjectType: 'pairwise',
  consent: true,
  createdAt: 0,
  updatedAt: 0,
}) as unknown as ApplicationView;

/** The problems the admin API would answer for `body`, as the console receives them. */
function apiProblems(
  schema: typeof oidcClientSettings | typeof oidcClientCreateBody,
  body: unknown,
) {
  const result = schema.safeParse(body);
  if (result.success) assert.fail('the body passes');
  return result.error.issues.map((issue) => issue.message);
}

describe("an application's form", () => {
  test('a stored application through the draft and back is the same settings', () => {
    const body = toSettingsBody(draftFromApplication(stored));
    const settings = {
      name: stored.name,
      redirectUris: stored.redirectUris,
      postLogoutRedirectUris: stored.postLogoutRedirectUris,
      backchannelLogoutUri: stored.backchannelLogoutUri,
      frontchannelLogoutUri: stored.frontchannelLogoutUri,
      frontchannelLogoutSessionRequired: stored.frontchannelLogoutSessionRequired,
      allowedEntries: stored.allowedEntries,
      allowedUsers: stored.allowedUsers,
      allowedGroups: stored.allowedGroups,
      refreshTokens: stored.refreshTokens,
      subjectType: stored.subjectType,
      consent: stored.consent,
    };
    assert.deepEqual(body, settings);
    assert.deepEqual(oidcClientSettings.parse(body), settings);
  });

  test('a new one sends its id and kind; blank lines and a blank URI field are not settings', () => {
    const body = toCreateBody({
      ...emptyApplicationDraft,
      name: ' Wiki ',
      clientId: ' wiki ',
      isPublic: true,
      redirectUris: [' https://wiki.example.com/cb '],
      backchannelLogoutUri: '  ',
      frontchannelLogoutUri: ' ',
      allowedUsers: '\n alice \n\n',
    });
    assert.deepEqual(body, {
      name: 'Wiki',
      clientId: 'wiki',
      public: true,
      redirectUris: ['https://wiki.example.com/cb'],
      postLogoutRedirectUris: [],
      backchannelLogoutUri: null,
      frontchannelLogoutUri: null,
      frontchannelLogoutSessionRequired: false,
      allowedEntries: [],
      allowedUsers: ['alice'],
      allowedGroups: [],
      refreshTokens: false,
      subjectType: 'public',
      consent: false,
    });
    assert.equal(oidcClientCreateBody.safeParse(body).success, true);
    assert.deepEqual(linesOf('a\r\n b \n'), ['a', 'b']);
  });

  test('a blank URI row is sent, so a problem names the row shown', () => {
    const body = toSettingsBody({
      ...emptyApplicationDraft,
      redirectUris: ['', 'https://a.test/'],
    });
    assert.deepEqual(body.redirectUris, ['', 'https://a.test/']);
  });

  test("the API's problems land on the form's fields; a taken id on the id", () => {
    const problems: Problem[] = [
      { field: 'body.redirectUris[1]', code: 'field_invalid', message: 'x' },
      { field: 'body.name', code: 'field_invalid', message: 'y' },
    ];
    assert.deepEqual(
      formProblems('request_invalid', problems).map((problem) => problem.field),
      ['redirectUris[1]', 'name'],
    );
    assert.deepEqual(formProblems('oidc_client_exists', []), [
      { field: 'clientId', code: 'oidc_client_exists', message: '' },
    ]);
    assert.deepEqual(
      formProblems('oidc_client_sector_ambiguous', []).map((problem) => problem.field),
      ['redirectUris'],
    );
    assert.deepEqual(
      strayProblems([
        { field: 'redirectUris[1]', message: 'x' },
        { field: 'subjectType', message: 'z' },
        { field: 'scopes', message: 'w' },
      ]).map((problem) => problem.field),
      ['scopes'],
    );
  });

  test("every sentence the API says of an application's settings is in both catalogs", async () => {
    const said = [
      ...apiProblems(oidcClientSettings, { ...toSettingsBody(emptyApplicationDraft), name: '' }),
      ...apiProblems(oidcClientSettings, { name: 'A', redirectUris: [] }),
      ...apiProblems(oidcClientSettings, { name: 'A', redirectUris: ['http://example.com/'] }),
      ...apiProblems(oidcClientCreateBody, {
        name: 'A',
        redirectUris: ['https://a.test/'],
        clientId: '-',
      }),
    ];
    // The one refusal of settings that is not the schema's: checked before
    // storage is read, so no storage is needed to hear it.
    const sector = await createOidcClient(
      { storage: {} as never, clock: () => 0, random: (size) => new Uint8Array(size) },
      oidcClientCreateBody.parse({
        name: 'A',
        clientId: 'a',
        subjectType: 'pairwise',
        redirectUris: ['https://a.test/', 'https://b.test/'],
      }),
    ).then(
      () => assert.fail('a pairwise client on two hosts is saved'),
      (error: unknown) => (error as Error).message,
    );
    said.push(sector);
    const english = en.applications.problems;
    assert.deepEqual(
      said.sort(),
      [
        english.clientId,
        english.uri,
        english.uri,
        english.notEmpty,
        english.oneUri,
        english.sectorAmbiguous,
      ].sort(),
    );
    for (const message of said) {
      const chinese = problemSentence({ field: 'x', message }, zhCN.applications.problems);
      assert.match(chinese, /\p{Script=Han}/u, message);
      assert.equal(problemSentence({ field: 'x', message }, english), message);
    }
    assert.equal(
      problemSentence(
        { field: 'x', message: 'no entry has the id "corp"' },
        zhCN.applications.problems,
      ),
      '没有标识为“corp”的登录方式',
    );
    // A sentence the catalog does not know keeps the API's words.
    assert.equal(
      problemSentence({ field: 'x', message: 'odd' }, zhCN.applications.problems),
      'odd',
    );
  });

  test('the addresses to paste are the issuer, without a trailing slash, and its endpoints', () => {
    const at = providerAddresses('https://sso.example.com/');
    assert.equal(at.issuer, 'https://sso.example.com');
    assert.equal(at.discovery, 'https://sso.example.com/.well-known/openid-configuration');
    // The paths the provider serves and its discovery document names.
    const paths: Record<string, string> = {
      discovery: providerPaths.discovery,
      authorization: providerPaths.authorize,
      token: providerPaths.token,
      userinfo: providerPaths.userinfo,
      endSession: providerPaths.endSession,
    };
    for (const [name, path] of Object.entries(paths)) {
      assert.equal(at[name as keyof typeof at], `${at.issuer}${path}`, name);
    }
  });
});
