import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Gateway } from './provider-gateway.js';

/**
 * Set on the return-to of a sign-in the request asked to be fresh
 * (prompt=login, max_age): the time it was sent, so that coming back with a
 * session made since, the request is answered rather than sent again.
 */
export const signedInAfterParameter = 'ssogate_signed_in_after';

/** A marker older than this is not honoured: a sign-in takes minutes, not hours. */
const markerLifetimeMs = 30 * 60_000;

function macOf(gateway: Gateway, clientId: string, sentAt: number): Buffer {
  // The key of pairwise subjects (subjects.ts), under a label of its own.
  return createHmac('sha256', gateway.storage.providerSigningKeys.subjectKey())
    .update(JSON.stringify(['ssogate_signed_in_after', clientId, sentAt]))
    .digest();
}

/**
 * The marker's value: the time, and a MAC of it and the client under a key
 * derived from the secret key, so that a client, or anyone writing the
 * authorization request, cannot set it to skip prompt=login or max_age
 * (OpenID Connect Core §3.1.2.1).
 */
export function signedInAfterMarker(gateway: Gateway, clientId: string, sentAt: number): string {
  return `${String(sentAt)}.${macOf(gateway, clientId, sentAt).toString('base64url')}`;
}

/** The time a marker of this gateway for this client holds, recent; NaN for anything else. */
export function signedInAfterOf(
  gateway: Gateway,
  clientId: string,
  marker: string | undefined,
): number {
  const [time, mac, ...rest] = (marker ?? '').split('.');
  const sentAt = Number(time);
  if (rest.length > 0 || mac === undefined || !/^\d{1,16}$/.test(time ?? '')) return Number.NaN;
  const expected = macOf(gateway, clientId, sentAt);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return Number.NaN;
  return gateway.clock() - sentAt <= markerLifetimeMs ? sentAt : Number.NaN;
}
