import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { withTestStorage } from '../../test-support/storage-fixtures.js';
import type { Gateway } from './factor-gateway.js';
import { assertion, flags, newAuthenticator, registration } from './test-support/authenticator.js';
import {
  authenticationOptions,
  checkAssertion,
  checkRegistration,
  registrationOptions,
} from './webauthn.js';

/**
 * The ceremonies' refusals, fed answers built by hand as an authenticator
 * builds them (test-support/authenticator.ts).
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
      const key = newAuthenticator(publicUrl);

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
          assertion(newAuthenticator(publicUrl), await ask(), { counter: 2 }),
        ),
        'webauthn_unknown_credential',
      );
      // Signed by another key.
      await refusedWith(
        checkAssertion(
          gateway,
          'session-a',
          user,
          assertion(key, await ask(), {
            counter: 2,
            signWith: newAuthenticator(publicUrl).privateKey,
          }),
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
      const key = newAuthenticator(publicUrl);
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
