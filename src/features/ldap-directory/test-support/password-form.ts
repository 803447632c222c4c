import assert from 'node:assert/strict';
import type { TestBrowser } from '../../../test-support/browser.js';
import type { TestGateway } from '../../../test-support/gateway-fixture.js';
import { serviceAccountEntry } from './slapd.js';

/** An LDAP entry of the test directory, searching people as the service account. */
export function ldapEntry(id: string, url: string, extra: Record<string, unknown> = {}) {
  const { ldap, ...rest } = extra as { ldap?: Record<string, unknown> };
  return {
    ...serviceAccountEntry({
      url,
      userFilter: '(&(objectClass=inetOrgPerson)(uid={username}))',
      ...ldap,
    }),
    id,
    name: `Directory ${id}`,
    timeoutMs: 2000,
    groupMapping: {
      expression: "JSON_GET($response, 'groups')",
      adminGroups: ['gateway-admins'],
    },
    ...rest,
  };
}

export interface FormAnswer {
  readonly status: number;
  readonly body: string;
  readonly location: string | undefined;
  readonly cookies: readonly string[];
}

/** The form of `entryId` opened from its start, then posted with these credentials. */
export async function signIn(
  gw: TestGateway,
  browser: TestBrowser,
  entryId: string,
  username: string,
  password: string,
): Promise<FormAnswer> {
  const form = await browser.open(`${gw.url}/_sso/login/${entryId}?return_to=/after`);
  assert.equal(form.status, 200, form.body);
  assert.equal(new URL(form.url).pathname, `/_sso/ldap/${entryId}`);
  return post(gw, browser, entryId, form.body, username, password);
}

/** The password form's page, already open, posted with these credentials. */
export async function post(
  gw: TestGateway,
  browser: TestBrowser,
  entryId: string,
  page: string,
  username: string,
  password: string,
): Promise<FormAnswer> {
  const field = (name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
  const response = await browser.exchange('POST', `${gw.url}/_sso/ldap/${entryId}`, {
    state: field('state'),
    csrf: field('csrf'),
    username,
    password,
  });
  return {
    status: response.status,
    body: await response.text(),
    location: response.headers.get('location') ?? undefined,
    cookies: response.headers.getSetCookie(),
  };
}
