/**
 * Randomness is injected: production passes
 * the operating system's CSPRNG (crypto/random-pool.ts), tests pass a deterministic source.
 */
export type RandomSource = (size: number) => Uint8Array;

function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/**
 * An opaque random value: 32 bytes (256 bits, 43 base64url characters), well
 * over the 128 bits RFC 6749 §10.10 asks of a state value.
 */
export function randomToken(random: RandomSource, size = 32): string {
  const bytes = random(size);
  if (bytes.length !== size)
    throw new RangeError(`random source returned ${bytes.length} of ${size} bytes`);
  return base64url(bytes);
}

/**
 * Whether a value has the shape randomToken gives at its default size: what
 * a session id or a binding value read back from a cookie must look like
 * before it is looked up.
 */
export function isRandomToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
