import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { GatewayStorage } from '../../app/open-storage.js';
import type { ProviderGrantStore } from './storage/types.js';
import type { TestGateway } from '../../test-support/gateway-fixture.js';
import { signInAtExample } from '../../test-support/gateway-fixture.js';
import {
  followTo,
  plainAuthorizeUrl,
  registerClient,
  startProviderGateway,
} from './test-support/provider-fixture.js';

/**
 * A code's grant and the code are written in one transaction
 * (authorization-request.ts issueCode): whichever fails, no grant is left
 * behind to outlive the code, nor a logout token sent for it.
 */
describe('OpenID Provider: a code whose writes fail half-way', () => {
  let gw: TestGateway;
  let failing: 'addCode' | 'addGrant' | undefined;
  const refusing = (store: ProviderGrantStore): ProviderGrantStore => ({
    ...store,
    writeTogether: (work) => store.writeTogether((unit) => work(refusing(unit))),
    addCode: (code) =>
      failing === 'addCode' ? Promise.reject(new Error('oidc_codes refused')) : store.addCode(code),
    addGrant: (grant) =>
      failing === 'addGrant'
        ? Promise.reject(new Error('oidc_grants refused'))
        : store.addGrant(grant),
  });
  before(async () => {
    gw = await startProviderGateway({
      wrapStorage: (storage: GatewayStorage): GatewayStorage => ({
        ...storage,
        providerGrants: refusing(storage.providerGrants),
      }),
    });
    await registerClient(gw, 'app');
  });
  after(async () => {
    failing = undefined;
    await gw.close();
  });

  for (const write of ['addCode', 'addGrant'] as const) {
    test(`${write} failing leaves no grant and sends the browser nowhere`, async () => {
      const browser = gw.browser();
      await signInAtExample(browser, gw.example.url);
      failing = write;
      const answer = await followTo(browser, plainAuthorizeUrl(gw.url));
      failing = undefined;
      assert.equal(answer.arrived, undefined);
      assert.equal(answer.status, 500);
      assert.deepEqual(await gw.storage.providerGrants.signInsWithGrants('', 10), []);
    });
  }
});
