import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignInError } from '../../core/index.js';
import { readCookie } from '../../foundation/http/browser-cookies.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendPage } from '../../foundation/http/respond.js';
import {
  RELAYED_FIELD,
  RELAY_SCRIPT_SOURCE,
  callbackRelayPage,
} from '../../foundation/pages/index.js';
import { securityHeaders } from '../../foundation/web/index.js';
import { signInFormOrigins } from './application-origins.js';
import type { TrialCallback } from './callback-answer.js';
import { callbackStart, completeCallback, failCallback } from './callback-answer.js';
import { formFields } from './callback-query.js';
import type { CallbackQuery } from './complete-sign-in.js';
import { tracedCallback } from './sign-in-trace.js';
import { sourceOf } from './sources/source-registry.js';

/** A posted callback is a code, a state and a few more fields: 16 KiB is ample. */
const maxPostedCallbackBytes = 16 * 1024;

type CallbackRequest = FastifyRequest<{ Params: { readonly id: string } }>;

/**
 * POST /_sso/callback/{id}: the callback of an entry whose server answers
 * by form_post (OAuth 2.0 Form Post Response Mode; docs/design.md#the-callback-by-post).
 *
 * The server's page posts the form from its own origin: a cross-site POST,
 * on which the browser leaves out the SameSite=Lax binding cookie. Without
 * it, the gateway answers a page that posts the same fields again from its
 * own origin, same-site, so the cookie comes along; the pending sign-in is
 * then consumed and checked exactly as for a GET. Nothing is consumed
 * before the cookie is there, and the relayed post is never relayed again:
 * a browser that still sends no cookie fails as `state_invalid`. A
 * SameSite=None cookie would spare the page, but only over https (browsers
 * refuse it without Secure), and the binding would then be sent on every
 * cross-site request; the page keeps one cookie, Lax, under http and https.
 */
export function formPostCallbackRoute(
  app: FastifyInstance,
  gateway: Gateway,
  trialCallback: TrialCallback,
): void {
  void app.register((scope, _options, done) => {
    // Only this route's own reading of the body: the raw text, capped, so the
    // fields decode as a query does and any other type is refused in words.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: maxPostedCallbackBytes },
      (_request, body, done) => {
        done(null, body);
      },
    );
    scope.post<{ Params: { readonly id: string } }>(
      '/_sso/callback/:id',
      {
        // A body over the cap never reaches the handler: the same page and audit.
        errorHandler: (error, request, reply) => {
          failCallback(
            gateway,
            request,
            reply,
            asCallbackError(error, request),
            callbackStart(gateway),
          ).catch((failure: unknown) => {
            request.log.error({ err: failure }, 'a refused callback post was not audited');
          });
        },
      },
      tracedCallback(gateway, postedFields, async (request, reply, query) => {
        const start = callbackStart(gateway);
        void reply.header('referrer-policy', 'no-referrer');
        // A body that is not a form has no fields, so no test's state either.
        if (await trialCallback(request, reply, request.params.id, query)) return reply;
        const refusal = await postRefusal(gateway, request);
        if (refusal !== undefined) return failCallback(gateway, request, reply, refusal, start);
        if (
          readCookie(gateway, request, 'binding') === undefined &&
          query[RELAYED_FIELD] === undefined
        ) {
          return relay(gateway, request, reply, query);
        }
        return completeCallback(gateway, request, reply, withoutRelayMark(query), start);
      }),
    );
    done();
  });
}

/** Why this post is no callback to read: not a form, or its entry expects a query. */
async function postRefusal(
  gateway: Gateway,
  request: CallbackRequest,
): Promise<SignInError | undefined> {
  if (!isForm(request)) {
    return new SignInError(
      'callback_body_invalid',
      'a posted callback must be application/x-www-form-urlencoded',
      { entryId: request.params.id },
    );
  }
  const entry = await gateway.entries.get(request.params.id);
  if (entry === undefined || sourceOf(entry).callback.methods.includes('POST')) return undefined;
  return new SignInError(
    'callback_post_refused',
    `entry ${entry.id} expects its callback in the query, not posted (responseMode)`,
    { entryId: entry.id },
  );
}

/** The posted fields; none when the body is not a form (the handler refuses it). */
function postedFields(request: CallbackRequest): CallbackQuery {
  return isForm(request) && typeof request.body === 'string' ? formFields(request.body) : {};
}

function isForm(request: FastifyRequest): boolean {
  const type = request.headers['content-type'] ?? '';
  return type.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** The page that posts the fields again, same-site; its one script allowed by its hash. */
async function relay(
  gateway: Gateway,
  request: CallbackRequest,
  reply: FastifyReply,
  query: CallbackQuery,
): Promise<FastifyReply> {
  const fields = Object.entries(query).flatMap(([name, value]) =>
    (Array.isArray(value) ? (value as string[]) : [String(value)]).map(
      (one) => [name, one] as const,
    ),
  );
  // The relayed post's redirects end on the application host the sign-in
  // began at, or at the OpenID Provider's client whose authorization request
  // it continues (application-origins.ts): form-action must allow them.
  const csp = securityHeaders({
    https: gateway.config.secureCookies,
    formActionOrigins: await signInFormOrigins(gateway),
  })['Content-Security-Policy'];
  void reply.header('content-security-policy', `${csp}; script-src ${RELAY_SCRIPT_SOURCE}`);
  return sendPage(
    reply,
    200,
    callbackRelayPage({
      action: `/_sso/callback/${encodeURIComponent(request.params.id)}`,
      fields,
      page: pageContext(gateway, request),
    }),
  );
}

function withoutRelayMark(query: CallbackQuery): CallbackQuery {
  return Object.fromEntries(Object.entries(query).filter(([name]) => name !== RELAYED_FIELD));
}

/** The framework's refusal of the body (too large, unreadable) as the callback's own code. */
function asCallbackError(
  error: Error & { readonly code?: string },
  request: CallbackRequest,
): unknown {
  if (error.code?.startsWith('FST_ERR_CTP_') !== true) return error;
  const reason =
    error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? `a posted callback is larger than ${maxPostedCallbackBytes} bytes`
      : 'the posted callback could not be read';
  return new SignInError('callback_body_invalid', reason, {
    entryId: request.params.id,
    cause: error,
  });
}
