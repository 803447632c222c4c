import { createHash, randomUUID } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { z } from 'zod';
import { SsogateError } from '../../core/index.js';
import { lazyModule } from '../../foundation/outbound/lazy-module.js';
import type { Gateway } from './factor-gateway.js';
import type { ChallengePurpose, Passkey } from './storage/passkey-store.js';

/**
 * @simplewebauthn/server, loaded with the first passkey ceremony rather than
 * with the gateway: on Node.js 24 its load prints experimental-feature
 * warnings (Web Crypto's `supports`, ML-DSA), which a gateway that never
 * sees a passkey should not write.
 */
const loadWebAuthn = lazyModule(() => import('@simplewebauthn/server'));

/**
 * The WebAuthn ceremonies of passkeys and security keys (W3C Web
 * Authentication Level 3, §7.1 registering and §7.2 verifying an
 * assertion), over @simplewebauthn/server for the CBOR, COSE keys and
 * signatures. The gateway's own checks come first, each with its code
 * (docs/errors.md#second-factor): the origin (the public URL's alone, so a
 * page elsewhere cannot relay an answer), the challenge (handed to this
 * session, taken once, within five minutes), the credential (the user's
 * own), user verification (a PIN or biometrics, always required), and,
 * after the signature, the counter (raised in one conditional update,
 * storage/passkey-store.ts useCounter).
 */

/** How long a ceremony's challenge may be answered. */
const challengeLifetimeMs = 5 * 60_000;
/** How long the browser waits for the authenticator (a hint to it). */
const ceremonyTimeoutMs = 2 * 60_000;

type WebauthnCode =
  | 'webauthn_origin'
  | 'webauthn_challenge'
  | 'webauthn_counter'
  | 'webauthn_unknown_credential'
  | 'webauthn_user_verification'
  | 'webauthn_invalid';

export class WebauthnError extends SsogateError<WebauthnCode> {}

/** The relying party: the auth host's name (RP ID) and the public URL's origin. */
function relyingParty(publicUrl: string): { readonly id: string; readonly origin: string } {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin };
}

/** A stable, opaque user handle: the authenticator keeps one discoverable credential per user. */
function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(`ssogate-webauthn-user:${userId}`).digest());
}

async function newChallenge(
  gateway: Gateway,
  sessionHash: string,
  purpose: ChallengePurpose,
): Promise<Uint8Array<ArrayBuffer>> {
  // Bytes, not text: the library would encode a string's UTF-8 as the challenge.
  const bytes = new Uint8Array(gateway.random(32));
  await gateway.storage.passkeys.saveChallenge(
    Buffer.from(bytes).toString('base64url'),
    sessionHash,
    purpose,
    gateway.clock() + challengeLifetimeMs,
  );
  return bytes;
}

export async function registrationOptions(
  gateway: Gateway,
  sessionHash: string,
  user: { readonly id: number; readonly userId: string; readonly displayName?: string | undefined },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(gateway.config.publicUrl);
  const held = await gateway.storage.passkeys.ofUser(user.id);
  const { generateRegistrationOptions } = await loadWebAuthn();
  return generateRegistrationOptions({
    rpName: gateway.config.organization.name ?? rp.id,
    rpID: rp.id,
    userName: user.userId,
    userDisplayName: user.displayName ?? user.userId,
    userID: userHandle(user.userId),
    challenge: await newChallenge(gateway, sessionHash, 'register'),
    timeout: ceremonyTimeoutMs,
    attestationType: 'none',
    // The same authenticator twice would be no second device.
    excludeCredentials: held.map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.transports as AuthenticatorTransport[],
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
}

export async function authenticationOptions(
  gateway: Gateway,
  sessionHash: string,
  userRowId: number,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const rp = relyingParty(gateway.config.publicUrl);
  const held = await gateway.storage.passkeys.ofUser(userRowId);
  const { generateAuthenticationOptions } = await loadWebAuthn();
  return generateAuthenticationOptions({
    rpID: rp.id,
    challenge: await newChallenge(gateway, sessionHash, 'authenticate'),
    timeout: ceremonyTimeoutMs,
    userVerification: 'required',
    allowCredentials: held.map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.transports as AuthenticatorTransport[],
    })),
  });
}

const base64url = z
  .string()
  .regex(/^[A-Za-z0-9_-]*$/)
  .max(8192);

const clientDataSchema = z.object({
  type: z.string(),
  challenge: z.string(),
  origin: z.string(),
});

const registrationSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string().max(32)).max(8).optional(),
  }),
  clientExtensionResults: z.object({}).loose().default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

const assertionSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  clientExtensionResults: z.object({}).loose().default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || text.length > 32_768)
    throw new WebauthnError('webauthn_invalid', 'the answer is missing or too long');
  try {
    return JSON.parse(text);
  } catch {
    throw new WebauthnError('webauthn_invalid', 'the answer is not JSON');
  }
}

/**
 * The checks of clientDataJSON every ceremony shares (§7.1 steps 7-9, §7.2
 * steps 11-13): its type, its origin, and its challenge, taken from the
 * store in the same step so that it is good once whatever follows.
 */
async function checkClientData(
  gateway: Gateway,
  sessionHash: string,
  clientDataJSON: string,
  purpose: ChallengePurpose,
): Promise<string> {
  let clientData: z.infer<typeof clientDataSchema>;
  try {
    clientData = clientDataSchema.parse(
      JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')),
    );
  } catch {
    throw new WebauthnError('webauthn_invalid', 'clientDataJSON is not a client data object');
  }
  const expectedType = purpose === 'register' ? 'webauthn.create' : 'webauthn.get';
  if (clientData.type !== expectedType)
    throw new WebauthnError('webauthn_invalid', `clientDataJSON.type is not ${expectedType}`);
  const { origin } = relyingParty(gateway.config.publicUrl);
  if (clientData.origin !== origin)
    throw new WebauthnError(
      'webauthn_origin',
      `the answer was made for ${clientData.origin.slice(0, 200)}, not ${origin}`,
    );
  const taken = await gateway.storage.passkeys.takeChallenge(
    clientData.challenge,
    sessionHash,
    purpose,
    gateway.clock(),
  );
  if (!taken)
    throw new WebauthnError(
      'webauthn_challenge',
      'the challenge is not this session’s, was used already, or has expired',
    );
  return clientData.challenge;
}

/** Flags of authenticatorData (§6.1): byte 32; UV is bit 2. */
function userVerified(authenticatorData: Buffer): boolean {
  const flags = authenticatorData[32];
  return flags !== undefined && (flags & 0x04) !== 0;
}

/** A library refusal, named by its code where the library's own check is the one that found it. */
function libraryRefusal(error: unknown): WebauthnError {
  const message = error instanceof Error ? error.message : String(error);
  if (/user verification/i.test(message))
    return new WebauthnError('webauthn_user_verification', message);
  return new WebauthnError('webauthn_invalid', message);
}

/** A registration answer checked (§7.1): the passkey to store, not yet stored. */
export async function checkRegistration(
  gateway: Gateway,
  sessionHash: string,
  user: { readonly id: number },
  answer: unknown,
  name: string,
): Promise<Passkey> {
  const parsed = registrationSchema.safeParse(parseJson(answer));
  if (!parsed.success) throw new WebauthnError('webauthn_invalid', 'not a registration answer');
  const response = parsed.data as RegistrationResponseJSON;
  const challenge = await checkClientData(
    gateway,
    sessionHash,
    response.response.clientDataJSON,
    'register',
  );
  const rp = relyingParty(gateway.config.publicUrl);
  const { verifyRegistrationResponse } = await loadWebAuthn();
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    throw libraryRefusal(error);
  }
  if (!verified.verified)
    throw new WebauthnError('webauthn_invalid', 'the registration does not verify');
  const { credential, credentialDeviceType } = verified.registrationInfo;
  return {
    factorId: randomUUID(),
    userRowId: user.id,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: (credential.transports ?? response.response.transports ?? []).slice(0, 8),
    deviceType: credentialDeviceType,
    name,
  };
}

/**
 * An assertion checked (§7.2) for the user, its counter raised: the
 * passkey it proves. Each refusal throws its coded WebauthnError.
 */
export async function checkAssertion(
  gateway: Gateway,
  sessionHash: string,
  user: { readonly id: number },
  answer: unknown,
): Promise<Passkey> {
  const parsed = assertionSchema.safeParse(parseJson(answer));
  if (!parsed.success) throw new WebauthnError('webauthn_invalid', 'not an assertion');
  const response = parsed.data as AuthenticationResponseJSON;
  const challenge = await checkClientData(
    gateway,
    sessionHash,
    response.response.clientDataJSON,
    'authenticate',
  );
  const { passkeys } = gateway.storage;
  const passkey = await passkeys.byCredentialId(response.id);
  if (passkey === undefined || passkey.userRowId !== user.id)
    throw new WebauthnError('webauthn_unknown_credential', 'the user holds no such credential');
  if (!userVerified(Buffer.from(response.response.authenticatorData, 'base64url')))
    throw new WebauthnError(
      'webauthn_user_verification',
      'the authenticator did not verify the user',
    );
  const rp = relyingParty(gateway.config.publicUrl);
  const { verifyAuthenticationResponse } = await loadWebAuthn();
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        // The counter is checked below, in the one update that raises it,
        // so that two instances given the same assertion accept it once.
        counter: 0,
        transports: passkey.transports as AuthenticatorTransport[],
      },
    });
  } catch (error) {
    throw libraryRefusal(error);
  }
  if (!verified.verified)
    throw new WebauthnError('webauthn_invalid', 'the signature does not verify');
  const { newCounter } = verified.authenticationInfo;
  if (!(await passkeys.useCounter(passkey.factorId, newCounter, gateway.clock())))
    throw new WebauthnError(
      'webauthn_counter',
      `the signature counter ${String(newCounter)} is not above ${String(passkey.counter)}`,
    );
  return passkey;
}
