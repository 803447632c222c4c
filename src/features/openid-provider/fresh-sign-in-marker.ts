import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Gateway } from './provider-gateway.js';

/**
 * Set on the return-to of a sign-in the request asked to be fresh
 * (prompt=login, max_age): the time it was sent, so that coming back with a
 * session made since, the request is answered rather than sent again.
 */
export const signedInAfterParameter = 'ssogate_signed_in_after';

/**
 * Set on the return-to of a step-up to the factor page (acr-step-up.ts): the
 * time it was sent, so that coming back with a factor given since, the
 * request is answered (or refused) rather than sent to the page again.
 */
export const factorAfterParameter = 'ssogate_factor_after';

/** The markers: the return-to parameters above. */
type MarkerParameter = typeof signedInAfterParameter | typeof factorAfterParameter;

/** A marker older than this is not honoured: a sign-in takes minutes, not hours. */
const markerLifetimeMs = 30 * 60_000;

function macOf(
  gateway: Gateway,
  parameter: MarkerParameter,
  clientId: string,
  sentAt: number,
): Buffer {
  // The key of pairwise subjects (subjects.ts), under a label of its own: the parameter's name.
  return createHmac('sha256', gateway.storage.providerSigningKeys.subjectKey())
    .update(JSON.stringify([parameter, clientId, sentAt]))
    .digest();
}

/**
 * A marker's value: the time, and a MAC of it, the marker's name and the
 * client under a key derived from the secret key, so that a client, or
 * anyone writing the authorization request, cannot set it to skip
 * prompt=login or max_age (OpenID Connect Core §3.1.2.1), nor pass one
 * marker for the other.
 */
export function markerValue(
  gateway: Gateway,
  parameter: MarkerParameter,
  clientId: string,
  sentAt: number,
): string {
  return `${String(sentAt)}.${macOf(gateway, parameter, clientId, sentAt).toString('base64url')}`;
}

/** The time a marker of this gateway, name and client holds, recent; NaN for anything else. */
export function markedTime(
  gateway: Gateway,
  parameter: MarkerParameter,
  clientId: string,
  marker: string | undefined,
): number {
  const [time, mac, ...rest] = (marker ?? '').split('.');
  const sentAt = Number(time);
  if (rest.length > 0 || mac === undefined || !/^\d{1,16}$/.test(time ?? '')) return Number.NaN;
  const expected = macOf(gateway, parameter, clientId, sentAt);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return Number.NaN;
  return gateway.clock() - sentAt <= markerLifetimeMs ? sentAt : Number.NaN;
}
