/**
 * RFC 6749 Appendix A: a code (A.11), a state (A.5) and an access token
 * (A.12) are 1*VSCHAR, VSCHAR = %x20-7E: printable ASCII only. Nothing
 * else may be passed on, where a control character could split a header or
 * a non-ASCII one be encoded differently by each side.
 */
export function isVisibleAscii(value: string): boolean {
  return /^[\x20-\x7e]+$/.test(value);
}
