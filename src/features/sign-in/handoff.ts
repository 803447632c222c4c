import type { FastifyReply, FastifyRequest } from 'fastify';
import { SsogateError, isRandomToken, randomToken } from '../../core/index.js';
import { normaliseHost } from '../../foundation/config/proxy-settings.js';
import { applicationHost } from '../../foundation/config/served-hosts.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { setSessionCookie } from '../../foundation/http/browser-cookies.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import {
  clearHandoffNonce,
  handoffNonceHash,
  readHandoffNonce,
} from '../../foundation/http/handoff-cookie.js';
import type { HandoffTarget, PendingSignIn } from '../../foundation/storage/types.js';
import { sessionOf } from '../sessions/request-session.js';
import { startHostSession } from '../sessions/session-service.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import { recordHandoff, refuseHandoff } from './handoff-audit.js';
import { sendToSignIn } from './send-to-sign-in.js';

/**
 * One sign-in for many hosts (docs/design.md#one-sign-in-many-hosts).
 *
 * 1. A host without a session (not the auth host) sets its handoff cookie,
 *    a random nonce (http/handoff-cookie.ts), and sends the browser to the
 *    auth host's `/_sso/handoff` with the host, the path to come back to and
 *    the nonce's hash.
 * 2. The auth host, once the browser is signed in there (a sign-in runs
 *    first when it is not, and comes back), stores one handoff record — a
 *    pending sign-in (storage/types.ts PendingSignIn `handoff`) keyed by the
 *    hash of a random 256-bit code, with the host, the nonce's hash, the
 *    path and the sign-in's session, for 60 seconds — and sends the browser
 *    to that host's `/_sso/handoff/finish?code=...`.
 * 3. The host consumes the record in one atomic step (DELETE ... RETURNING,
 *    GETDEL) whatever comes next, so a code is good once; checks expiry,
 *    that the record is for this host and the host is still listed, and the
 *    nonce cookie; then makes this host's own session of the same sign-in
 *    (sessions/session-service.ts startHostSession) and redirects to the path.
 *
 * The code is never a session id, and the session id never leaves its host.
 */
export { handoffPath } from './handoff-start.js';
export const handoffFinishPath = '/_sso/handoff/finish';
/** How long a handoff code is good for. */
const handoffLifetimeMs = 60_000;

/** The key of a handoff record: the code's hash, of a kind no sign-in key has (pending-key.ts). */
function handoffKey(code: string): string {
  return sha256Base64url(`handoff:${code}`);
}

/**
 * A handoff code: a random 256-bit token, a dot, and the code's expiry (ms
 * since the epoch, base 36). The expiry is in the code itself so that a
 * code whose record is gone — consumed, or removed at its expiry by the
 * sweep or by Redis — can still be told apart: expired, or used. It only
 * picks that error: the record is found by the hash of the whole code, so
 * a changed expiry finds none.
 */
function newHandoffCode(gateway: Gateway, expiresAt: number): string {
  return `${randomToken(gateway.random)}.${expiresAt.toString(36)}`;
}

/** The expiry a well-formed handoff code carries; undefined for any other text. */
function handoffCodeExpiry(code: unknown): number | undefined {
  if (typeof code !== 'string') return undefined;
  const [token = '', expiry = '', ...rest] = code.split('.');
  if (rest.length > 0 || !isRandomToken(token) || !/^[0-9a-z]{1,11}$/.test(expiry))
    return undefined;
  return parseInt(expiry, 36);
}

/** Step 2, on the auth host: GET /_sso/handoff?host=&return_to=&browser=. */
export async function issueHandoff(
  gateway: Gateway,
  request: FastifyRequest<{ Querystring: Record<string, unknown> }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { host, return_to: rawReturnTo, browser } = request.query;
  if (typeof host !== 'string' || typeof browser !== 'string' || !isRandomToken(browser)) {
    const error = new SsogateError('request_invalid', 'a handoff names one host and one browser');
    return refuseHandoff(gateway, request, reply, 'start', error);
  }
  if (!applicationHost(gateway.config.hosts, host)) {
    const error = new SsogateError(
      'handoff_host_not_listed',
      `a handoff to ${host.slice(0, 255)}, a host not listed in SSOGATE_UPSTREAM or SSOGATE_FORWARD_AUTH_HOSTS`,
    );
    return refuseHandoff(gateway, request, reply, 'start', error, host);
  }
  // Through the session cache, as forward-auth's checks: a browser just
  // signed in, or handed off before, costs no read of storage here.
  const active = await sessionOf(gateway, request, { remembered: true });
  if (active === undefined) {
    // Signed in first, the browser comes back to this very handoff.
    return sendToSignIn(gateway, request, reply, safeReturnTo(request.url));
  }
  const now = gateway.clock();
  const code = newHandoffCode(gateway, now + handoffLifetimeMs);
  const target = normaliseHost(host);
  await gateway.storage.pendingSignIns.save({
    stateHash: handoffKey(code),
    entryId: active.session.entryId ?? '',
    returnTo: safeReturnTo(rawReturnTo),
    bindingHash: browser,
    redirectUri: '',
    codeVerifier: null,
    createdAt: now,
    expiresAt: now + handoffLifetimeMs,
    handoff: { host: target, signInHash: active.session.signInHash ?? active.session.idHash },
  });
  await recordHandoff(gateway, request, 'start', {
    host: target,
    userId: active.user.userId,
    entryId: active.session.entryId,
  });
  const { protocol } = new URL(gateway.config.publicUrl);
  // The code is in a URL: keep it out of any Referer and any cache.
  void reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
  return reply.redirect(
    `${protocol}//${target}${handoffFinishPath}?code=${encodeURIComponent(code)}`,
    302,
  );
}

/** Step 3, on the application host: GET /_sso/handoff/finish?code=. */
export async function finishHandoff(
  gateway: Gateway,
  request: FastifyRequest<{ Querystring: Record<string, unknown> }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  void reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
  const { code } = request.query;
  // Consumed before any check: of two requests carrying one code, at most
  // one finds it, on whatever host and in whatever browser.
  const codeExpiry = handoffCodeExpiry(code);
  const record =
    typeof code === 'string' && codeExpiry !== undefined
      ? await gateway.storage.pendingSignIns.consume(handoffKey(code))
      : undefined;
  const checked = checkHandoff(gateway, request, record, codeExpiry);
  if (checked instanceof SsogateError)
    return refuseHandoff(gateway, request, reply, 'finish', checked, request.headers.host);
  const { handoff, returnTo } = checked;
  clearHandoffNonce(gateway, reply);
  const signIn = await gateway.storage.sessions.get(handoff.signInHash);
  // Signed out in the moment between: the page asked for starts over.
  if (signIn === undefined) return reply.redirect(returnTo, 302);
  const id = await startHostSession(gateway.sessions, signIn, handoff.host);
  setSessionCookie(gateway, reply, id);
  const user = await gateway.storage.users.get(signIn.userRowId);
  await recordHandoff(gateway, request, 'finish', {
    host: handoff.host,
    userId: user?.userId ?? null,
    entryId: signIn.entryId,
  });
  return reply.redirect(returnTo, 302);
}

/**
 * The handoff a record holds, if it may finish here; else why not, in the
 * order of the checks.
 */
function checkHandoff(
  gateway: Gateway,
  request: FastifyRequest,
  record: PendingSignIn | undefined,
  codeExpiry: number | undefined,
): SsogateError | { readonly handoff: HandoffTarget; readonly returnTo: string } {
  const handoff = record?.handoff;
  if (record === undefined || handoff === undefined) {
    // Gone: removed at its expiry (the sweep, Redis), or used already.
    if (codeExpiry !== undefined && codeExpiry <= gateway.clock())
      return new SsogateError('handoff_expired', 'the handoff code expired');
    return new SsogateError('handoff_replayed', 'no handoff has this code');
  }
  if (record.expiresAt <= gateway.clock())
    return new SsogateError('handoff_expired', `the handoff to ${handoff.host} expired`);
  const here = normaliseHost(request.headers.host ?? '');
  if (handoff.host !== here) {
    const came = here.slice(0, 255);
    return new SsogateError('handoff_wrong_host', `a handoff to ${handoff.host} came to ${came}`);
  }
  if (!applicationHost(gateway.config.hosts, here))
    return new SsogateError('handoff_host_not_listed', `a handoff to ${here}, no longer listed`);
  const nonce = readHandoffNonce(gateway, request);
  if (nonce === undefined || handoffNonceHash(nonce) !== record.bindingHash) {
    return new SsogateError(
      'handoff_wrong_browser',
      `a handoff to ${here} came back without its browser's handoff cookie`,
    );
  }
  return { handoff, returnTo: record.returnTo };
}
