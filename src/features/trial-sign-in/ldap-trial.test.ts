import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { callAdminApi } from '../../test-support/admin-api.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway, storedApiToken } from '../../test-support/gateway-fixture.js';
import { ldapEntry, post } from '../ldap-directory/test-support/password-form.js';
import type { RunningSlapd } from '../ldap-directory/test-support/slapd.js';
import {
  directoryUsers,
  groupSearch,
  serviceDn,
  servicePassword,
  slapdSkip,
  startSlapd,
  suffix,
} from '../ldap-directory/test-support/slapd.js';
import type { TrialSignInTrace } from './trace-types.js';

const [alice] = directoryUsers as [(typeof directoryUsers)[number]];

/**
 * An administrator's test sign-in of an LDAP entry against slapd: the
 * gateway's password form, opened as a test, says so; its post is traced
 * bind by bind and search by search, the password never shown, nobody
 * signed in and no user written.
 */
describe('a test sign-in of an LDAP entry', { skip: slapdSkip }, () => {
  let slapd: RunningSlapd;
  let gw: TestGateway;
  let token: string;

  const api = (method: string, path: string) => callAdminApi(gw.url, token, method, path);

  before(async () => {
    slapd = await startSlapd();
    gw = await startTestGateway({
      entries: () => [ldapEntry('corp', slapd.url, { isDefault: true, ldap: groupSearch })],
    });
    token = await storedApiToken(gw, 'ldap-trial-tests');
  });
  after(async () => {
    await gw.close();
    await slapd.stop();
  });

  /** The test started and its form opened: the form's page and the test's id. */
  async function openedForm(): Promise<{
    id: string;
    page: string;
    browser: ReturnType<TestGateway['browser']>;
  }> {
    const started = await api('POST', 'entries/corp/test-sign-in');
    assert.equal(started.status, 201, await started.clone().text());
    const { id, url } = (await started.json()) as { id: string; url: string };
    assert.equal(new URL(url).pathname, '/_sso/ldap/corp');
    assert.equal(new URL(url).searchParams.get('test'), '1');
    const browser = gw.browser();
    const form = await browser.open(url);
    assert.equal(form.status, 200, form.body);
    return { id, page: form.body, browser };
  }

  const postForm = (
    opened: { page: string; browser: ReturnType<TestGateway['browser']> },
    username: string,
    password: string,
  ) => post(gw, opened.browser, 'corp', opened.page, username, password);

  async function traceOf(id: string): Promise<TrialSignInTrace> {
    const read = await api('GET', `test-sign-ins/${id}`);
    assert.equal(read.status, 200);
    return ((await read.json()) as { trace: TrialSignInTrace }).trace;
  }

  test('the form says it is a test; its post is traced, and nobody is signed in', async () => {
    const opened = await openedForm();
    assert.match(opened.page, /A test sign-in: the directory checks the password/);
    const answer = await postForm(opened, alice.uid, alice.password);
    assert.equal(answer.status, 200, answer.body);
    assert.match(answer.body, /Test sign-in finished/);
    assert.ok(!answer.cookies.some((cookie) => cookie.startsWith('ssogate_session=')));
    const trace = await traceOf(opened.id);
    assert.equal(trace.outcome, 'success', JSON.stringify(trace, null, 2));
    const step = (name: string) => trace.steps.find((one) => one.name === name);
    const value = (name: string, label: string) =>
      step(name)?.results.find((one) => one.label === label)?.value;
    assert.deepEqual(
      trace.steps.map((one) => one.name),
      ['callback', 'service bind', 'user search', 'user bind', 'groups', 'mapped user'],
    );
    assert.equal(value('service bind', 'bound as'), serviceDn);
    assert.equal(value('user search', 'base'), `ou=people,${suffix}`);
    assert.equal(value('user search', 'filter'), '(&(objectClass=inetOrgPerson)(uid=alice))');
    assert.equal(value('user search', 'found'), '1');
    assert.equal(value('user bind', 'bound as'), `uid=alice,ou=people,${suffix}`);
    const groups = value('groups', 'group search');
    assert.ok(typeof groups === 'string');
    assert.match(groups, /cn=gateway-admins,ou=groups/);
    assert.equal(trace.user?.userId, 'alice');
    const text = JSON.stringify(trace);
    assert.equal(text.includes(alice.password), false, 'the typed password');
    assert.equal(text.includes(servicePassword), false, "the service account's password");
    assert.equal(await gw.storage.users.findByUserId('alice'), undefined);
  });

  test('the typed username is escaped in the filter; a wrong password fails the user bind', async () => {
    const escaped = await openedForm();
    await postForm(escaped, 'a*)(uid=*', 'anything at all');
    const unknown = await traceOf(escaped.id);
    assert.equal(unknown.outcome, 'failure');
    assert.equal(unknown.error?.code, 'ldap_sign_in_failed');
    const search = unknown.steps.find((one) => one.name === 'user search');
    assert.ok(search !== undefined);
    assert.equal(
      search.results.find((one) => one.label === 'filter')?.value,
      '(&(objectClass=inetOrgPerson)(uid=a\\2a\\29\\28uid=\\2a))',
    );
    assert.equal(search.results.find((one) => one.label === 'found')?.value, '0');

    const wrong = await openedForm();
    const answer = await postForm(wrong, alice.uid, 'not the password');
    assert.match(answer.body, /<code>ldap_sign_in_failed<\/code>/);
    const trace = await traceOf(wrong.id);
    const bind = trace.steps.find((one) => one.name === 'user bind');
    assert.ok(bind !== undefined);
    assert.equal(bind.outcome, 'failed');
    assert.equal(bind.error?.code, 'ldap_sign_in_failed');
    assert.equal(JSON.stringify(trace).includes('not the password'), false);
  });

  test('an ordinary sign-in opens the form unmarked', async () => {
    const browser = gw.browser();
    const form = await browser.open(`${gw.url}/_sso/login/corp`);
    assert.equal(form.status, 200, form.body);
    assert.equal(new URL(form.url).searchParams.has('test'), false);
    assert.doesNotMatch(form.body, /A test sign-in/);
  });
});
