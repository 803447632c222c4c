import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, test } from 'node:test';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { JwsRefusal, verifyCompactJws, type JsonWebKeySet } from './jws.js';

type PublicJwk = JsonWebKeySet['keys'][number];

const allowed = ['RS256', 'ES256', 'EdDSA'];
const claims = { sub: 'alice', iss: 'https://idp.example' };

/** A key pair as a provider holds it: the private key, and its public JWK as published. */
async function providerKey(alg: 'RS256' | 'ES256' | 'EdDSA', kid: string, members: object = {}) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk: PublicJwk = { ...(await exportJWK(publicKey)), kid, use: 'sig', ...members };
  const signed = (header: object = {}, payload: object = claims) =>
    new SignJWT({ ...payload }).setProtectedHeader({ alg, kid, ...header }).sign(privateKey);
  return { jwk, signed };
}

function refusal(reason: JwsRefusal['reason']) {
  return (error: unknown) => error instanceof JwsRefusal && error.reason === reason;
}

function payloadOf(bytes: Uint8Array): unknown {
  return JSON.parse(Buffer.from(bytes).toString('utf8'));
}

/** A compact JWS put together by hand, for tokens no library would sign. */
function handMade(header: object, payload: object, privateKey: KeyObject): string {
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

describe('compact JWS verification against a provider key set', () => {
  for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) {
    test(`a token signed ${alg} by the key its kid names verifies, and its payload comes back`, async () => {
      const key = await providerKey(alg, 'k1');
      const other = await providerKey(alg, 'k2');
      const payload = verifyCompactJws(await key.signed(), { keys: [other.jwk, key.jwk] }, allowed);
      assert.deepEqual(payloadOf(payload), claims);
    });
  }

  test('a token naming no kid verifies with the only key that fits it', async () => {
    const rsa = await providerKey('RS256', 'rsa');
    const ec = await providerKey('ES256', 'ec');
    const token = await rsa.signed({ kid: undefined });
    assert.deepEqual(
      payloadOf(verifyCompactJws(token, { keys: [ec.jwk, rsa.jwk] }, allowed)),
      claims,
    );
  });

  test('a token naming no kid is refused when several keys fit it', async () => {
    const one = await providerKey('RS256', 'one');
    const two = await providerKey('RS256', 'two');
    const token = await one.signed({ kid: undefined });
    assert.throws(
      () => verifyCompactJws(token, { keys: [one.jwk, two.jwk] }, allowed),
      refusal('several_matching_keys'),
    );
  });

  test('a token whose kid the key set lacks is refused as such (the caller fetches the set again)', async () => {
    const key = await providerKey('RS256', 'k1');
    const token = await key.signed({ kid: 'rotated-away' });
    assert.throws(
      () => verifyCompactJws(token, { keys: [key.jwk] }, allowed),
      refusal('no_matching_key'),
    );
  });

  test('a signature by another key under the same kid, or a changed payload, does not verify', async () => {
    const published = await providerKey('RS256', 'k1');
    const impostor = await providerKey('RS256', 'k1');
    const keys: JsonWebKeySet = { keys: [published.jwk] };
    const byImpostor = await impostor.signed();
    assert.throws(() => verifyCompactJws(byImpostor, keys, allowed), refusal('signature_invalid'));
    const [header, , signature] = (await published.signed()).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString('base64url');
    assert.throws(
      () => verifyCompactJws(`${header}.${forged}.${signature}`, keys, allowed),
      refusal('signature_invalid'),
    );
  });

  test('an unsigned token, an HMAC one, or an algorithm the caller does not allow is refused', async () => {
    const key = await providerKey('RS256', 'k1');
    const [, payload, signature] = (await key.signed()).split('.');
    for (const alg of ['none', 'HS256', 'RS512', 'PS256']) {
      const header = Buffer.from(JSON.stringify({ alg, kid: 'k1' })).toString('base64url');
      assert.throws(
        () =>
          verifyCompactJws(
            `${header}.${payload}.${alg === 'none' ? '' : signature}`,
            { keys: [key.jwk] },
            allowed,
          ),
        refusal('algorithm_not_allowed'),
        alg,
      );
    }
    const rs256 = await key.signed();
    assert.throws(
      () => verifyCompactJws(rs256, { keys: [key.jwk] }, ['ES256']),
      refusal('algorithm_not_allowed'),
    );
  });

  test('a key is used only as its members allow: use, key_ops, alg and curve', async () => {
    for (const members of [
      { use: 'enc' },
      { key_ops: ['encrypt'] },
      { key_ops: 'verify' },
      { alg: 'RS384' },
    ]) {
      const key = await providerKey('RS256', 'k1', members);
      const token = await key.signed();
      assert.throws(
        () => verifyCompactJws(token, { keys: [key.jwk] }, allowed),
        refusal('no_matching_key'),
        JSON.stringify(members),
      );
    }
    const withOps = await providerKey('RS256', 'k1', { key_ops: ['verify'], alg: 'RS256' });
    assert.deepEqual(
      payloadOf(verifyCompactJws(await withOps.signed(), { keys: [withOps.jwk] }, allowed)),
      claims,
    );
    const ec = await providerKey('ES256', 'k1');
    const token = await ec.signed();
    assert.throws(
      () => verifyCompactJws(token, { keys: [{ ...ec.jwk, crv: 'P-384' }] }, allowed),
      refusal('no_matching_key'),
    );
  });

  test('an RSA key shorter than 2048 bits, or a published private key, is not used', () => {
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const shortJwk = { ...short.publicKey.export({ format: 'jwk' }), kid: 'short' };
    const token = handMade({ alg: 'RS256', kid: 'short' }, claims, short.privateKey);
    assert.throws(
      () => verifyCompactJws(token, { keys: [shortJwk] }, allowed),
      refusal('key_unusable'),
    );

    const full = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const privateJwk = { ...full.privateKey.export({ format: 'jwk' }), kid: 'leaked' };
    const signed = handMade({ alg: 'RS256', kid: 'leaked' }, claims, full.privateKey);
    assert.throws(
      () => verifyCompactJws(signed, { keys: [privateJwk] }, allowed),
      refusal('key_unusable'),
    );
  });

  test('a header naming critical extensions is refused (RFC 7515 §4.1.11)', async () => {
    const key = await providerKey('RS256', 'k1');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const token = handMade({ alg: 'RS256', kid: 'k1', crit: ['exp'], exp: 1 }, claims, privateKey);
    assert.throws(
      () => verifyCompactJws(token, { keys: [key.jwk] }, allowed),
      refusal('malformed'),
    );
  });

  test('what is not a compact JWS of base64url segments is refused as malformed', async () => {
    const key = await providerKey('ES256', 'k1');
    const keys = { keys: [key.jwk] };
    const token = await key.signed();
    const [header = '', payload = '', signature = ''] = token.split('.');
    const notJson = Buffer.from('{alg').toString('base64url');
    const array = Buffer.from('["RS256"]').toString('base64url');
    for (const bad of [
      `${header}.${payload}`,
      `${token}.${signature}`,
      `${header}=.${payload}.${signature}`,
      `${header}.${payload}.${signature.replace(/[-_]/g, '+').replace(/^./, '+')}`,
      `${notJson}.${payload}.${signature}`,
      `${array}.${payload}.${signature}`,
    ]) {
      assert.throws(() => verifyCompactJws(bad, keys, allowed), refusal('malformed'), bad);
    }
  });

  test('an ES256 signature in DER, not r ‖ s (RFC 7518 §3.4), is refused', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'ec' };
    const input = `${Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'ec' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const der = sign('sha256', Buffer.from(input), privateKey).toString('base64url');
    assert.throws(
      () => verifyCompactJws(`${input}.${der}`, { keys: [jwk] }, allowed),
      refusal('signature_invalid'),
    );
    const p1363 = sign('sha256', Buffer.from(input), {
      key: privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    assert.deepEqual(
      payloadOf(
        verifyCompactJws(`${input}.${p1363.toString('base64url')}`, { keys: [jwk] }, allowed),
      ),
      claims,
    );
  });
});
