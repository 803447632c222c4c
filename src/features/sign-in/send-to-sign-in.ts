import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CompiledEntry } from '../../core/index.js';
import { SignInError } from '../../core/index.js';
import { ensureBinding } from '../../foundation/http/browser-cookies.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { NoSessionError, sendFailure, wantsPage } from '../../foundation/http/respond.js';
import { countSignInStart } from '../rate-limit/start-limit.js';
import { markRoutine } from '../../foundation/logging/request-log.js';
import { safeReturnTo } from '../../foundation/web/index.js';
import { handsOffHere, sendToHandoff } from './handoff-start.js';
import { chooserHref } from './auth-host-sign-in.js';
import { startSignIn } from './start-sign-in.js';

/**
 * Starts a sign-in with an entry and sends the browser to its authorization
 * URL; used by /_sso/login/{id} and by the silent redirect to the default
 * entry, which shows no page of its own (docs/design.md#the-sign-in-flow, step 2).
 */
export async function redirectToEntry(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  entryId: string,
  returnTo: string,
): Promise<FastifyReply> {
  const entry = await gateway.entries.get(entryId);
  if (entry === undefined) throw new SignInError('entry_unknown', `no entry ${entryId}`);
  const { config } = gateway;
  await countSignInStart(
    {
      store: gateway.storage.rateLimits,
      clock: gateway.clock,
      perAddressPerMinute: config.signInsPerMinute,
      allPerLifetime: config.pendingSignInsMax,
      lifetimeMs: config.pendingSignInMs,
    },
    request.ip,
  );
  const url = await startBrowserSignIn(gateway, request, reply, entry, returnTo);
  // A start sent on is routine: its callback's line says how the sign-in ended.
  markRoutine(request);
  return reply.redirect(url, 302);
}

/**
 * Starts a sign-in with an entry for this browser (its binding cookie set
 * if it had none) and returns where to send it: the entry's authorization
 * URL, or the entry's own page at the gateway.
 */
export async function startBrowserSignIn(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  entry: CompiledEntry,
  returnTo: string,
): Promise<string> {
  const binding = ensureBinding(gateway, request, reply);
  return startSignIn(
    {
      publicUrl: gateway.config.publicUrl,
      pendingSignIns: gateway.storage.pendingSignIns,
      random: gateway.random,
      clock: gateway.clock,
      pendingSignInMs: gateway.config.pendingSignInMs,
      pendingPerBrowser: gateway.config.pendingPerBrowser,
      send: gateway.send,
      documents: gateway.documents,
      telemetry: gateway.telemetry,
    },
    entry,
    returnTo,
    binding,
  );
}

/**
 * The answer to a request without a valid session: a page load is sent to
 * sign in (the default entry's, or the chooser) and comes back to the same
 * URL after; anything else gets 401 JSON.
 */
export async function sendSignInNeeded(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  if (!wantsPage(request)) {
    sendFailure(gateway, request, reply, new NoSessionError(), {
      as: 'json',
    });
    return reply;
  }
  // The requested URL, query included, is where the user lands after sign-in.
  const returnTo = safeReturnTo(request.url);
  // On another host than the auth host, the sign-in is the auth host's,
  // handed over to this host (handoff.ts).
  const { host } = request.headers;
  if (handsOffHere(gateway, host)) return sendToHandoff(gateway, request, reply, host, returnTo);
  return sendToSignIn(gateway, request, reply, returnTo);
}

/** Sends the browser to sign in (the default entry's, or the chooser), to land on `returnTo` after. */
export async function sendToSignIn(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  returnTo: string,
): Promise<FastifyReply> {
  const defaultEntry = await gateway.entries.defaultEntry();
  if (defaultEntry !== undefined)
    return redirectToEntry(gateway, request, reply, defaultEntry.id, returnTo);
  return reply.redirect(chooserHref(returnTo), 302);
}
