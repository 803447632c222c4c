import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keyLength: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/**
 * scrypt, memory-hard (OWASP Password Storage: N=2^17, r=8, p=1 uses 128 MiB;
 * 2^15 with r=8 keeps 32 MiB per check so a burst of sign-ins cannot exhaust
 * memory, and stays above OWASP's minimum). Parameters are stored with the
 * hash so they can be raised later without breaking old hashes.
 */
const defaults = { N: 2 ** 15, r: 8, p: 1 };
const keyLength = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, defaults);
  return [
    'scrypt',
    defaults.N,
    defaults.r,
    defaults.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** Constant-time check; an unknown format is simply a mismatch. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every((value) => Number.isInteger(value) && value > 0))
    return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), params);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of nothing, checked when the user does not exist, so a wrong user
 * name costs the same time as a wrong password and reveals nothing.
 */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  return decoyHash;
}

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  return scryptAsync(password.normalize('NFKC'), salt, keyLength, {
    ...params,
    maxmem: 128 * params.N * params.r * 2,
  });
}
