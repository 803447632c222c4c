import { randomFillSync } from 'node:crypto';

/** Bytes drawn from the operating system at once. */
const defaultPoolBytes = 4096;

/**
 * The gateway's randomness (session ids, states, binding values, PKCE
 * verifiers): the operating system's CSPRNG, as crypto.randomBytes, but
 * drawn 4 KiB at a time and handed out in slices, as Node.js does for
 * crypto.randomUUID. A sign-in asks for three values of 32 bytes, and each
 * call into OpenSSL cost more than the copy. Every value is a copy of its
 * slice, and the slice is zeroed as it is handed out, so the pool never
 * holds a value that is in use.
 */
export function pooledRandomBytes(poolBytes = defaultPoolBytes): (size: number) => Uint8Array {
  const pool = Buffer.allocUnsafeSlow(poolBytes);
  let next = poolBytes; // empty: filled at the first call
  return (size) => {
    if (size > poolBytes) return randomFillSync(Buffer.alloc(size));
    if (next + size > poolBytes) {
      randomFillSync(pool);
      next = 0;
    }
    const value = Buffer.from(pool.subarray(next, next + size));
    pool.fill(0, next, next + size);
    next += size;
    return value;
  };
}
