import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchingStep,
  otpauthUri,
  timeStep,
  totpCode,
} from './totp.js';

// RFC 6238 Appendix B's SHA-1 seed, and its 8-digit values at each time.
const seed = new TextEncoder().encode('12345678901234567890');
const vectors: readonly [number, string][] = [
  [59, '94287082'],
  [1_111_111_109, '07081804'],
  [1_111_111_111, '14050471'],
  [1_234_567_890, '89005924'],
  [2_000_000_000, '69279037'],
  [20_000_000_000, '65353130'],
];

test('HOTP over the time step gives the values of RFC 6238 Appendix B', () => {
  for (const [seconds, expected] of vectors) {
    assert.equal(hotp(seed, timeStep(seconds * 1000), 8), expected, `T = ${seconds}`);
    assert.equal(totpCode(seed, seconds * 1000), expected.slice(2), `6 digits at T = ${seconds}`);
  }
});

test('HOTP gives the values of RFC 4226 Appendix D', () => {
  const expected = ['755224', '287082', '359152', '969429', '338314'];
  expected.forEach((code, counter) => {
    assert.equal(hotp(seed, counter), code);
  });
});

test('base32 reads back what it writes, and the RFC 4648 example', () => {
  assert.equal(base32Encode(new TextEncoder().encode('foobar')), 'MZXW6YTBOI');
  assert.deepEqual(base32Decode('mzxw 6ytb oi======'), new TextEncoder().encode('foobar'));
  assert.equal(base32Decode('MZXW1'), undefined);
  for (let length = 0; length < 25; length += 1) {
    const bytes = new Uint8Array(randomBytes(length));
    assert.deepEqual(base32Decode(base32Encode(bytes)), bytes);
  }
});

test('a code matches its own step and one either side, nothing further or malformed', () => {
  const now = 1_700_000_000_000;
  const step = timeStep(now);
  for (const offset of [-1, 0, 1]) {
    const code = hotp(seed, step + offset);
    assert.equal(matchingStep(seed, code, now), step + offset);
  }
  for (const offset of [-2, 2])
    assert.equal(matchingStep(seed, hotp(seed, step + offset), now), undefined);
  assert.equal(matchingStep(seed, '12345', now), undefined);
  assert.equal(matchingStep(seed, 'abcdef', now), undefined);
  assert.equal(
    matchingStep(seed, ` ${hotp(seed, step).slice(0, 3)} ${hotp(seed, step).slice(3)}`, now),
    step,
  );
});

test('the otpauth URI names issuer, account and the base32 secret', () => {
  const uri = new URL(otpauthUri('Corp SSO', 'alice@corp', seed));
  assert.equal(uri.protocol, 'otpauth:');
  assert.equal(uri.searchParams.get('secret'), base32Encode(seed));
  assert.equal(uri.searchParams.get('issuer'), 'Corp SSO');
  assert.equal(uri.searchParams.get('digits'), '6');
  assert.equal(uri.searchParams.get('period'), '30');
});
