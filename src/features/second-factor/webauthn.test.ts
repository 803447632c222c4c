import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import type { Gateway } from './factor-gateway.js';
import {
  authenticationOptions,
  checkAssertion,
  checkRegistration,
  registrationOptions,
} from './webauthn.js';

/**
 * The ceremonies' refusals, fed answers built here by hand as an
 * authenticator builds them (WebAuthn Level 3 §6.1 authenticatorData, §6.5
 * attestation, §5.8.1 clientDataJSON): an ES256 key of node:crypto, its COSE
 * form in CBOR, and a signature over authenticatorData and the hash of
 * clientDataJSON. Nothing here leans on the library to build what it checks.
 */

const publicUrl = 'https://sso.example.com';
const rpId = 'sso.example.com';
const user = { id: 7, userId: 'ada' };

/** Just the gateway the ceremonies read: its public URL, clock, randomness and storage. */
function gatewayOver(storage: Gateway['storage'], clock: { now: number }): Gateway {
  return {
    config: { publicUrl, organization: {} },
    clock: () => clock.now,
    random: (size: number) => new Uint8Array(randomBytes(size)),
    storage,
  } as unknown as Gateway;
}

/** A COSE_Key (RFC 9052 §7) of an EC2 P-256 key, for ES256 (-7), in CBOR. */
function coseKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  return Buffer.concat([
    Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
    x,
    Buffer.from([0x22, 0x58, 0x20]),
    y,
  ]);
}

interface Authenticator {
  readonly credentialId: Buffer;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

function newAuthenticator(): Authenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { credentialId: randomBytes(16), privateKey, publicKey };
}

const flags = { up: 0x01, uv: 0x04, at: 0x40 };

function authenticatorData(flagBits: number, counter: number, attested?: Buffer): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([
    createHash('sha256').update(rpId).digest(),
    Buffer.from([flagBits]),
    count,
    ...(attested === undefined ? [] : [attested]),
  ]);
}

function clientData(type: string, challenge: string, origin = publicUrl): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/** A `none` attestation object (§8.7): {fmt, attStmt, authData} in CBOR. */
function attestationObject(authData: Buffer): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(authData.length);
  return Buffer.concat([
    Buffer.from([0xa3, 0x63]),
    Buffer.from('fmt'),
    Buffer.from([0x64]),
    Buffer.from('none'),
    Buffer.from([0x67]),
    Buffer.from('attStmt'),
    Buffer.from([0xa0, 0x68]),
    Buffer.from('authData'),
    Buffer.from([0x59]),
    length,
    authData,
  ]);
}

function registration(authenticator: Authenticator, challenge: string, flagBits?: number): string {
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(authenticator.credentialId.length);
  const attested = Buffer.concat([
    Buffer.alloc(16),
    idLength,
    authenticator.credentialId,
    coseKey(authenticator.publicKey),
  ]);
  const id = authenticator.credentialId.toString('base64url');
  return JSON.stringify({
    id,
    rawId: id,
    type: 'public-key',
    response: {
      clientDataJSON: clientData('webauthn.create', challenge).toString('base64url'),
      attestationObject: attestationObject(
        authenticatorData(flagBits ?? flags.up | flags.uv | flags.at, 0, attested),
      ).toString('base64url'),
      transports: ['internal'],
    },
    clientExtensionResults: {},
  });
}

function assertion(
  authenticator: Authenticator,
  challenge: string,
  options: { counter: number; origin?: string; flagBits?: number; signWith?: KeyObject },
): string {
  const data = authenticatorData(options.flagBits ?? flags.up | flags.uv, options.counter);
  const client = clientData('webauthn.get', challenge, options.origin);
  const signature = sign(
    'sha256',
    Buffer.concat([data, createHash('sha256').update(client).digest()]),
    options.signWith ?? authenticator.privateKey,
  );
  const id = authenticator.credentialId.toString('base64url');
  return JSON.stringify({
    id,
    rawId: id,
    type: 'public-key',
    response: {
      clientDataJSON: client.toString('base64url'),
      authenticatorData: data.toString('base64url'),
      signature: signature.toString('base64url'),
    },
    clientExtensionResults: {},
  });
}

async function refusedWith(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.equal((error as { code?: unknown }).code, code);
    return true;
  });
}

describe('WebAuthn ceremonies', () => {
  test('a passkey is registered, then signs in; each refusal has its code', async () => {
    await withTestStorage(async (storage) => {
      const clock = { now: 1_000_000 };
      const gateway = gatewayOver(storage, clock);
      const key = newAuthenticator();

      const created = await registrationOptions(gateway, 'session-a', user);
      assert.equal(created.rp.id, rpId);
      assert.deepEqual(
        { ...created.authenticatorSelection },
        { residentKey: 'preferred', userVerification: 'required', requireResidentKey: false },
      );
      const passkey = await checkRegistration(
        gateway,
        'session-a',
        user,
        registration(key, created.challenge),
        'Laptop',
      );
      assert.equal(passkey.credentialId, key.credentialId.toString('base64url'));
      await storage.passkeys.add(passkey, clock.now);

      const ask = async () =>
        (await authenticationOptions(gateway, 'session-a', user.id)).challenge;

      const good = assertion(key, await ask(), { counter: 1 });
      assert.equal(
        (await checkAssertion(gateway, 'session-a', user, good)).factorId,
        passkey.factorId,
      );

      // The same answer again: its challenge was taken.
      await refusedWith(checkAssertion(gateway, 'session-a', user, good), 'webauthn_challenge');
      // A fresh challenge, but a counter that did not increase: a cloned authenticator.
      await refusedWith(
        checkAssertion(gateway, 'session-a', user, assertion(key, await ask(), { counter: 1 })),
        'webauthn_counter',
      );
      // An answer made for a page of another origin.
      await refusedWith(
        checkAssertion(
          gateway,
          'session-a',
          user,
          assertion(key, await ask(), { counter: 2, origin: 'https://evil.example.com' }),
        ),
        'webauthn_origin',
      );
      // Another session's challenge.
      await refusedWith(
        checkAssertion(gateway, 'session-b', user, assertion(key, await ask(), { counter: 2 })),
        'webauthn_challenge',
      );
      // A challenge answered too late.
      const late = await ask();
      clock.now += 5 * 60_000 + 1;
      await refusedWith(
        checkAssertion(gateway, 'session-a', user, assertion(key, late, { counter: 2 })),
        'webauthn_challenge',
      );
      // Presence without verification (no PIN, no biometrics).
      await refusedWith(
        checkAssertion(
          gateway,
          'session-a',
          user,
          assertion(key, await ask(), { counter: 2, flagBits: flags.up }),
        ),
        'webauthn_user_verification',
      );
      // Another user's credential, and one nobody holds.
      await refusedWith(
        checkAssertion(
          gateway,
          'session-a',
          { id: 8 },
          assertion(key, await ask(), { counter: 2 }),
        ),
        'webauthn_unknown_credential',
      );
      await refusedWith(
        checkAssertion(
          gateway,
          'session-a',
          user,
          assertion(newAuthenticator(), await ask(), { counter: 2 }),
        ),
        'webauthn_unknown_credential',
      );
      // Signed by another key.
      await refusedWith(
        checkAssertion(
          gateway,
          'session-a',
          user,
          assertion(key, await ask(), { counter: 2, signWith: newAuthenticator().privateKey }),
        ),
        'webauthn_invalid',
      );
      // After all these, the right answer still counts.
      await checkAssertion(gateway, 'session-a', user, assertion(key, await ask(), { counter: 9 }));
      assert.equal((await storage.passkeys.byCredentialId(passkey.credentialId))?.counter, 9);
    });
  });

  test('a registration without user verification is refused, and its challenge is used up', async () => {
    await withTestStorage(async (storage) => {
      const gateway = gatewayOver(storage, { now: 1_000_000 });
      const key = newAuthenticator();
      const first = await registrationOptions(gateway, 'session-a', user);
      await refusedWith(
        checkRegistration(
          gateway,
          'session-a',
          user,
          registration(key, first.challenge, flags.up | flags.at),
          'Key',
        ),
        'webauthn_user_verification',
      );
      await refusedWith(
        checkRegistration(gateway, 'session-a', user, registration(key, first.challenge), 'Key'),
        'webauthn_challenge',
      );
      await refusedWith(
        checkRegistration(gateway, 'session-a', user, '{"id":', 'Key'),
        'webauthn_invalid',
      );
    });
  });
});
