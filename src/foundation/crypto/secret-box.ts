import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  randomBytes,
} from 'node:crypto';

/** Encrypts app secrets at rest, so a copied database file does not leak them. */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /**
   * A key of its own for one purpose, derived from the secret key with
   * HKDF-SHA-256 (RFC 5869), the purpose as its info: never stored, the same
   * in every process that holds the secret key, and telling nothing of the
   * secret key or of another purpose's key.
   */
  derive(purpose: string): Uint8Array;
}

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a fresh random 96-bit IV per message. The sealed form is
 * `v1.<base64url(iv | tag | ciphertext)>`; the version prefix leaves room for
 * another algorithm or key later without guessing at old values.
 */
export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== KEY_BYTES) {
    throw new Error(`The secret key must be ${KEY_BYTES} bytes, got ${key.length}.`);
  }
  // A private copy (the caller may reuse or wipe its buffer), made a key
  // object once: a raw buffer would be turned into one at every call.
  const ownKey = createSecretKey(Buffer.from(key));

  return {
    derive(purpose) {
      return new Uint8Array(hkdfSync('sha256', ownKey, new Uint8Array(0), purpose, KEY_BYTES));
    },

    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', ownKey, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${VERSION}.${Buffer.concat([iv, tag, ciphertext]).toString('base64url')}`;
    },

    open(sealed) {
      const dot = sealed.indexOf('.');
      if (dot < 0 || sealed.slice(0, dot) !== VERSION) {
        throw new Error('Cannot open the sealed secret: unknown format (expected "v1.").');
      }
      const bytes = Buffer.from(sealed.slice(dot + 1), 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) {
        throw new Error('Cannot open the sealed secret: it is truncated.');
      }
      const iv = bytes.subarray(0, IV_BYTES);
      const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const ciphertext = bytes.subarray(IV_BYTES + TAG_BYTES);
      try {
        const decipher = createDecipheriv('aes-256-gcm', ownKey, iv);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch (error) {
        throw new Error(
          'Cannot open the sealed secret: wrong secret key, or the stored value was altered.',
          { cause: error },
        );
      }
    },
  };
}
