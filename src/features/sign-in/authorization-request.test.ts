import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { startTestGateway } from '../../test-support/gateway-fixture.js';

/**
 * The redirect to the authorization server (RFC 6749 section 4.1.1): its
 * `state` unguessable and unique per start, the URL absolute and built from
 * the entry's template, and `redirect_uri` the configured public URL
 * whatever Host the request names.
 */
describe('the authorization request', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      entries: ({ getStyle }) => [
        getStyle,
        {
          ...getStyle,
          id: 'with-query',
          name: 'With query',
          appid: 'app&id#1',
          authorizeUrl: `${String(getStyle.authorizeUrl)}&foo=1`,
        },
      ],
    });
  });
  after(async () => gw.close());

  /** One start from its own address with no cookies: the Location it answers. */
  async function start(index: number, entry = 'example-get', headers = {}) {
    const response = await gw.app.inject({
      url: `/_sso/login/${entry}?return_to=/return-address-marker`,
      remoteAddress: `198.51.100.${index % 250}`,
      headers: { accept: 'text/html', ...headers },
    });
    assert.ok([302, 303].includes(response.statusCode), response.body);
    return new URL(String(response.headers.location));
  }

  test('state is unique per start, at least 128 bits of base64url, and carries nothing readable', async () => {
    const states = new Set<string>();
    for (let index = 0; index < 1000; index += 1) {
      const state = (await start(index)).searchParams.get('state') ?? '';
      assert.match(state, /^[A-Za-z0-9_-]{22,}$/);
      // Not decodable into the return address or the entry (markers long
      // enough that random bytes never spell them).
      const decoded = Buffer.from(state, 'base64url').toString('latin1');
      assert.doesNotMatch(decoded, /example-get|return-address-marker/);
      states.add(state);
    }
    assert.equal(states.size, 1000);
  });

  test('the URL keeps its query, encodes values once, is absolute and has no fragment', async () => {
    const location = await start(1, 'with-query');
    assert.equal(location.origin, new URL(gw.example.url).origin);
    assert.equal(location.hash, '');
    assert.equal(location.searchParams.get('foo'), '1');
    assert.equal(location.searchParams.get('appid'), 'app&id#1');
    assert.equal(location.searchParams.get('redirect_uri'), `${gw.url}/_sso/callback/with-query`);
  });

  test('redirect_uri is the configured public URL whatever Host or X-Forwarded-Host say', async () => {
    const location = await start(2, 'example-get', {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
    });
    assert.equal(location.searchParams.get('redirect_uri'), `${gw.url}/_sso/callback/example-get`);
  });
});
