import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MASK } from '../../core/index.js';
import { callAdminApi, createEntryByApi } from '../../test-support/admin-api.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import type { RunningSimpleSamlPhp } from '../saml/test-support/simplesamlphp.js';
import {
  formOf,
  simpleSamlPhpSkip,
  startSimpleSamlPhp,
} from '../saml/test-support/simplesamlphp.js';
import { idpSettingsOf } from '../saml/test-support/saml-entries.js';
import type { TrialSignInTrace } from './trace-types.js';

/**
 * An administrator's test sign-in of a SAML entry against SimpleSAMLphp:
 * found at the callback by the Response's RelayState, each check of the
 * Response on the trace, nobody signed in and no user written.
 */
describe('a test sign-in of a SAML entry', { skip: simpleSamlPhpSkip }, () => {
  let gw: TestGateway;
  let idp: RunningSimpleSamlPhp;
  let token: string;
  const acsUrl = () => `${gw.url}/_sso/callback/trial-saml`;

  const api = (method: string, path: string, body?: unknown) =>
    callAdminApi(gw.url, token, method, path, body);

  before(async () => {
    gw = await startTestGateway();
    token = await storedApiToken(gw, 'saml-trial-tests');
    idp = await startSimpleSamlPhp(
      [{ username: 'carol', name: 'Carol Example', email: 'carol@example.test', groups: ['ops'] }],
      [{ entityId: 'urn:ssogate:test:trial', acsUrl: acsUrl() }],
    );
    await createEntryByApi(gw.url, token, {
      type: 'saml',
      id: 'trial-saml',
      name: 'Trial SAML',
      enabled: true,
      saml: {
        ...idpSettingsOf(idp),
        spEntityId: 'urn:ssogate:test:trial',
        attributes: { name: 'displayName', email: 'mail', groups: 'groups' },
      },
      groupMapping: { adminGroups: ['admins'] },
    });
  });
  after(async () => {
    await gw.close();
    await idp.stop();
  });

  /** The test started, the identity provider's form filled: the Response form to post back. */
  async function startedTrial(): Promise<{
    id: string;
    answer: { action: string; fields: Record<string, string> };
    browser: ReturnType<TestGateway['browser']>;
  }> {
    const started = await api('POST', 'entries/trial-saml/test-sign-in');
    assert.equal(started.status, 201, await started.clone().text());
    const { id, url } = (await started.json()) as { id: string; url: string };
    const browser = gw.browser();
    const login = await browser.open(url);
    assert.equal(login.status, 200, `${login.body}\n${await idp.log()}`);
    const form = formOf(login.body);
    const posted = await browser.submit(new URL(form.action, login.url).href, {
      ...form.fields,
      username: 'carol',
      password: 'carol-password',
    });
    assert.equal(posted.status, 200, `${posted.body}\n${await idp.log()}`);
    const answer = formOf(posted.body);
    assert.equal(answer.action, acsUrl(), posted.body);
    return { id, answer, browser };
  }

  async function traceOf(id: string): Promise<TrialSignInTrace> {
    const read = await api('GET', `test-sign-ins/${id}`);
    assert.equal(read.status, 200);
    return ((await read.json()) as { trace: TrialSignInTrace }).trace;
  }

  test('the Response posted back is traced check by check, and nobody is signed in', async () => {
    const { id, answer, browser } = await startedTrial();
    const relayState = answer.fields.RelayState ?? '';
    const page = await browser.submit(answer.action, answer.fields);
    assert.equal(page.status, 200, page.body);
    assert.match(page.body, /Test sign-in finished/);
    assert.ok(!page.headers.getSetCookie().some((cookie) => cookie.startsWith('ssogate_session=')));
    const trace = await traceOf(id);
    assert.equal(trace.outcome, 'success', JSON.stringify(trace, null, 2));
    const checks = trace.steps.find((step) => step.name === 'saml response');
    assert.ok(checks !== undefined);
    assert.deepEqual(
      checks.results.map((result) => result.label),
      [
        'Status',
        'Response Destination',
        'Response Issuer',
        'Response InResponseTo',
        'signature',
        'assertion Issuer',
        'Conditions times',
        'Audience',
        'SubjectConfirmationData Recipient',
        'SubjectConfirmationData InResponseTo',
        'SubjectConfirmationData times',
        'userId ← NameID',
        'name ← displayName',
        'email ← mail',
        'groups ← groups',
      ],
    );
    const value = (label: string) => checks.results.find((one) => one.label === label)?.value;
    assert.equal(value('Audience'), 'urn:ssogate:test:trial');
    assert.equal(value('Response Issuer'), idp.entityId);
    // The AuthnRequest's ID is the test's nonce: masked as the trace masks any.
    assert.equal(value('Response InResponseTo'), MASK);
    assert.equal(value('groups ← groups'), 'ops');
    assert.equal(trace.user?.userId, 'carol');
    const text = JSON.stringify(trace);
    assert.equal(text.includes(relayState), false, 'the RelayState is masked');
    assert.equal(text.includes('<saml:Assertion') || text.includes('Assertion '), false);
    assert.equal(text.includes(answer.fields.SAMLResponse ?? '-'), false);
    assert.equal(await gw.storage.users.findByUserId('carol'), undefined);
  });

  test('the RelayState carried in another field is refused as state_invalid', async () => {
    const { id, answer, browser } = await startedTrial();
    const page = await browser.submit(answer.action, {
      SAMLResponse: answer.fields.SAMLResponse ?? '',
      state: answer.fields.RelayState ?? '',
    });
    assert.equal(page.status, 200, page.body);
    assert.match(page.body, /<code>state_invalid<\/code>/);
    const trace = await traceOf(id);
    assert.equal(trace.outcome, 'failure');
    assert.equal(trace.error?.code, 'state_invalid');
  });
});
