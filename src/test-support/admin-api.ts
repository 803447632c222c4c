import assert from 'node:assert/strict';

/**
 * The admin API (/_sso/api/) as the tests call it, with a bearer token
 * (gateway-fixture.ts storedApiToken): shared here because the tests of
 * every kind of entry set their entries up through it.
 */

/** One call of the admin API; a body, if any, sent as JSON. */
export function callAdminApi(
  gatewayUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${gatewayUrl}/_sso/api/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Creates an entry through the admin API; the test fails, with the API's answer, unless it is created. */
export async function createEntryByApi(
  gatewayUrl: string,
  token: string,
  entry: Readonly<Record<string, unknown>>,
): Promise<void> {
  const created = await callAdminApi(gatewayUrl, token, 'POST', 'entries', entry);
  assert.equal(created.status, 201, await created.text());
}
