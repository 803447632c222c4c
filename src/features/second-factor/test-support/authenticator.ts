import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/**
 * An authenticator's answers built by hand, as one builds them (WebAuthn
 * Level 3 §6.1 authenticatorData, §6.5 attestation, §5.8.1 clientDataJSON):
 * an ES256 key of node:crypto, its COSE form in CBOR, and a signature over
 * authenticatorData and the hash of clientDataJSON. Nothing here leans on
 * the library to build what it checks.
 */
export interface Authenticator {
  readonly credentialId: Buffer;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** The gateway's public URL, whose origin and host (the RP ID) the answers name. */
  readonly publicUrl: string;
}

export function newAuthenticator(publicUrl: string): Authenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { credentialId: randomBytes(16), privateKey, publicKey, publicUrl };
}

export const flags = { up: 0x01, uv: 0x04, at: 0x40 };

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

function authenticatorData(
  authenticator: Authenticator,
  flagBits: number,
  counter: number,
  attested?: Buffer,
): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([
    createHash('sha256').update(new URL(authenticator.publicUrl).hostname).digest(),
    Buffer.from([flagBits]),
    count,
    ...(attested === undefined ? [] : [attested]),
  ]);
}

function clientData(type: string, challenge: string, origin: string): Buffer {
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

/** The registration answer (navigator.credentials.create's, as JSON) to `challenge`. */
export function registration(
  authenticator: Authenticator,
  challenge: string,
  flagBits?: number,
): string {
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(authenticator.credentialId.length);
  const attested = Buffer.concat([
    Buffer.alloc(16),
    idLength,
    authenticator.credentialId,
    coseKey(authenticator.publicKey),
  ]);
  const id = authenticator.credentialId.toString('base64url');
  const origin = new URL(authenticator.publicUrl).origin;
  return JSON.stringify({
    id,
    rawId: id,
    type: 'public-key',
    response: {
      clientDataJSON: clientData('webauthn.create', challenge, origin).toString('base64url'),
      attestationObject: attestationObject(
        authenticatorData(authenticator, flagBits ?? flags.up | flags.uv | flags.at, 0, attested),
      ).toString('base64url'),
      transports: ['internal'],
    },
    clientExtensionResults: {},
  });
}

/** The assertion (navigator.credentials.get's answer, as JSON) to `challenge`. */
export function assertion(
  authenticator: Authenticator,
  challenge: string,
  options: { counter: number; origin?: string; flagBits?: number; signWith?: KeyObject },
): string {
  const data = authenticatorData(
    authenticator,
    options.flagBits ?? flags.up | flags.uv,
    options.counter,
  );
  const origin = options.origin ?? new URL(authenticator.publicUrl).origin;
  const client = clientData('webauthn.get', challenge, origin);
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
