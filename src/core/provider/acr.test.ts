import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { acrClaim, acrRequestOf, acrSatisfiedBy, supportedAcrValues } from './acr.js';

const multiFactor = 'http://schemas.openid.net/pape/policies/2007/06/multi-factor';
const phishingResistant = 'http://schemas.openid.net/pape/policies/2007/06/phishing-resistant';
const claims = (acr: unknown) => JSON.stringify({ id_token: { acr } });

describe('acr', () => {
  test('the values: multi-factor for any second factor, phishing-resistant for a passkey', () => {
    assert.deepEqual(supportedAcrValues, [multiFactor, phishingResistant]);
    assert.deepEqual(acrSatisfiedBy(undefined), []);
    assert.deepEqual(acrSatisfiedBy('totp'), [multiFactor]);
    assert.deepEqual(acrSatisfiedBy('recovery'), [multiFactor]);
    assert.deepEqual(acrSatisfiedBy('webauthn'), [phishingResistant, multiFactor]);
  });

  test('acr_values: the known values in order, once; unknown ones ignored', () => {
    assert.equal(acrRequestOf({}), undefined);
    assert.equal(acrRequestOf({ acr_values: 'urn:a  urn:b' }), undefined);
    assert.deepEqual(
      acrRequestOf({ acr_values: `urn:a ${phishingResistant} ${multiFactor} ${multiFactor}` }),
      { values: [phishingResistant, multiFactor], essential: false },
    );
  });

  test("claims' acr: before acr_values; essential with none known refused; malformed refused", () => {
    const acrValues = multiFactor;
    assert.deepEqual(
      acrRequestOf({ acr_values: acrValues, claims: claims({ value: phishingResistant }) }),
      { values: [phishingResistant], essential: false },
    );
    assert.deepEqual(acrRequestOf({ acr_values: acrValues, claims: claims(null) }), {
      values: [multiFactor],
      essential: false,
    });
    assert.deepEqual(acrRequestOf({ claims: claims({ essential: true }) }), {
      values: supportedAcrValues,
      essential: true,
    });
    assert.deepEqual(
      acrRequestOf({ claims: claims({ essential: true, values: ['urn:a', multiFactor] }) }),
      { values: [multiFactor], essential: true },
    );
    assert.deepEqual(acrRequestOf({ claims: claims({ essential: true, values: ['urn:a'] }) }), {
      refused: 'provider_acr_unsupported',
    });
    assert.equal(acrRequestOf({ claims: '{"userinfo":{"email":null}}' }), undefined);
    for (const bad of [
      'x',
      '[]',
      'null',
      '{"id_token":[]}',
      '{"userinfo":1}',
      claims(1),
      claims({ essential: 'yes' }),
      claims({ value: 1 }),
      claims({ values: multiFactor }),
      claims({ values: [1] }),
    ]) {
      assert.deepEqual(acrRequestOf({ claims: bad }), { refused: 'provider_claims_invalid' }, bad);
    }
  });

  test('the claim: the first value asked for that the factor meets, else the strongest it meets', () => {
    assert.equal(acrClaim([multiFactor, phishingResistant], 'webauthn'), multiFactor);
    assert.equal(acrClaim([phishingResistant], 'webauthn'), phishingResistant);
    assert.equal(acrClaim([phishingResistant], 'totp'), multiFactor);
    assert.equal(acrClaim([], 'webauthn'), phishingResistant);
    assert.equal(acrClaim([multiFactor], undefined), undefined);
  });
});
