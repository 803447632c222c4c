/**
 * CPU time of one RS256 signature verification (a 2048-bit key, a token's
 * size of signing input), the two ways Node.js offers: WebCrypto's
 * `crypto.subtle.verify` (a job handed to libuv's thread pool and back, what
 * jose's `compactVerify` does) and `crypto.verify` with a KeyObject, at
 * once on the calling thread (src/foundation/oidc/jws.ts). The two take
 * turns, three rounds; the figure is the process's CPU time (every thread's)
 * over the verifications.
 *
 *   npm run build:test && node build/bench/jws-verify.js
 */
import { KeyObject, generateKeyPairSync, sign, verify, webcrypto } from 'node:crypto';

const verifications = 5000;
const rounds = 3;

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingInput = Buffer.from('h'.repeat(40) + '.' + 'p'.repeat(600));
const signature = sign('sha256', signingInput, privateKey);
const cryptoKey = await webcrypto.subtle.importKey(
  'jwk',
  publicKey.export({ format: 'jwk' }),
  { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  false,
  ['verify'],
);
const keyObject: KeyObject = publicKey;

async function cpuPerVerification(run: () => Promise<boolean> | boolean): Promise<number> {
  const before = process.cpuUsage();
  for (let index = 0; index < verifications; index += 1) {
    if (!(await run())) throw new Error('a signature did not verify');
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / verifications;
}

for (let round = 1; round <= rounds; round += 1) {
  const subtle = await cpuPerVerification(() =>
    webcrypto.subtle.verify('RSASSA-PKCS1-v1_5', cryptoKey, signature, signingInput),
  );
  const direct = await cpuPerVerification(() =>
    verify('sha256', signingInput, keyObject, signature),
  );
  console.log(
    `round ${round}: crypto.subtle.verify ${subtle.toFixed(1)} µs, crypto.verify ${direct.toFixed(1)} µs of CPU (×${(direct / subtle).toFixed(2)})`,
  );
}
