import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KeyObject } from 'node:crypto';
import { generateKeyPairSync, verify } from 'node:crypto';
import { redirectUrl, signedRedirectUrl } from './redirect-binding.js';

/**
 * The redirect binding's signature the gateway makes (SAML Bindings
 * §3.4.4.1) with an EC key, and with a target that has a query of its
 * own; RSA is shown against SimpleSAMLphp (saml-logout.test.ts).
 */
describe('the signature of a redirect-bound message', () => {
  const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();

  test('an EC key signs ECDSA-SHA256, r || s, over the message, RelayState and SigAlg only', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const url = await redirectUrl(
      'https://idp.example/slo?tenant=a%20b',
      'SAMLRequest',
      '<samlp:LogoutRequest/>',
      'back to/here',
      pem(privateKey),
    );
    const query = new URL(url).search.slice(1);
    const pairs = query.split('&');
    assert.deepEqual(
      pairs.map((pair) => pair.slice(0, pair.indexOf('='))),
      ['tenant', 'SAMLRequest', 'RelayState', 'SigAlg', 'Signature'],
    );
    const [, message, relayState, sigAlg, signature] = pairs;
    assert.equal(
      decodeURIComponent(sigAlg?.slice('SigAlg='.length) ?? ''),
      'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256',
    );
    const value = Buffer.from(
      decodeURIComponent(signature?.slice('Signature='.length) ?? ''),
      'base64',
    );
    assert.equal(value.length, 64);
    assert.ok(
      verify(
        'sha256',
        Buffer.from(`${message}&${relayState}&${sigAlg}`),
        { key: publicKey, dsaEncoding: 'ieee-p1363' },
        value,
      ),
    );
  });

  test('a URL without a SAML message is not signed', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    assert.throws(() => signedRedirectUrl('https://idp.example/sso?x=1', pem(privateKey)));
  });
});
