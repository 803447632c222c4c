import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CompiledEntry } from '../../core/index.js';
import { SignInError, isSsogateError } from '../../core/index.js';
import { audit } from '../../foundation/http/audit.js';
import { authHostOnly } from '../../foundation/http/auth-host-only.js';
import { ensureBinding, loginFormToken } from '../../foundation/http/browser-cookies.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { pageContext } from '../../foundation/http/page-context.js';
import { sendFailure, sendPage } from '../../foundation/http/respond.js';
import { addressPolicy } from '../../foundation/outbound/address-policy.js';
import { directorySignInPage, pageMessages } from '../../foundation/pages/index.js';
import type { TrialCallback } from './callback-answer.js';
import type { TypedCredentials } from '../ldap-directory/password-form-answer.js';
import { passwordFormFields } from '../ldap-directory/password-form-answer.js';
import { recordLocalSignInFailure, recordLocalSignInSuccess } from '../rate-limit/failure-limit.js';
import { sessionIdOf } from '../sessions/request-session.js';
import { startSession } from '../sessions/session-service.js';
import { allowSignInFormRedirects } from './application-origins.js';
import { chooserHref } from './auth-host-sign-in.js';
import { formBinding, withinFailureLimit } from './password-form-guards.js';
import {
  auditSignInSuccess,
  callbackStart,
  failCallback,
  settleSignIn,
} from './callback-answer.js';
import { completeSignIn } from './complete-sign-in.js';
import { startBrowserSignIn } from './send-to-sign-in.js';
import { ldapFormPath, ldapKind, trialFormMark } from './sources/ldap-source.js';
import { refuseDisabled } from './sources/enabled-entry.js';
import { sourceOf } from './sources/source-registry.js';

interface PasswordForm {
  readonly state?: unknown;
  readonly username?: unknown;
  readonly password?: unknown;
  readonly csrf?: unknown;
}

type FormRequest = FastifyRequest<{ Params: { readonly id: string } }>;

/**
 * GET and POST /_sso/ldap/{id}: the password form of an LDAP entry
 * (docs/entries.md#ldap-directories), where its sign-in's start sends the
 * browser with the pending sign-in's state. The post is the entry's
 * callback, with the local sign-in's form token and failure limits
 * (src/features/rate-limit/failure-limit.ts, counted per entry and
 * username): the pending sign-in is consumed and checked as for any
 * callback (complete-sign-in.ts), then the directory checks the password.
 * A wrong password or an unknown user shows the form again, with the same
 * words and status, and a new pending sign-in to the same return-to path.
 * On the auth host only, like every sign-in. An administrator's test
 * sign-in opens the form marked as a test; its post, found by its state
 * like any callback's, goes to the test (`trialCallback`), which records a
 * trace and signs nobody in.
 */
export function ldapPasswordFormRoutes(
  app: FastifyInstance,
  gateway: Gateway,
  trialCallback: TrialCallback,
): void {
  authHostOnly(app, gateway, (scope) => {
    scope.get<{ Params: { readonly id: string }; Querystring: Record<string, unknown> }>(
      '/_sso/ldap/:id',
      async (request, reply) => {
        const state = typeof request.query.state === 'string' ? request.query.state : '';
        const trial = request.query[trialFormMark] === '1';
        try {
          const entry = await formEntry(gateway, request.params.id);
          return await renderForm(gateway, request, reply, entry, state, 200, { trial });
        } catch (error) {
          sendFailure(gateway, request, reply, error, {
            as: 'page',
            tryAgainHref: chooserHref('/'),
          });
          return reply;
        }
      },
    );
    scope.post<{ Params: { readonly id: string }; Body: PasswordForm | undefined }>(
      '/_sso/ldap/:id',
      async (request, reply) =>
        postForm(gateway, request, reply, request.body ?? {}, trialCallback),
    );
  });
}

async function postForm(
  gateway: Gateway,
  request: FormRequest,
  reply: FastifyReply,
  form: PasswordForm,
  trialCallback: TrialCallback,
): Promise<FastifyReply> {
  const start = callbackStart(gateway);
  const entryId = request.params.id;
  const state = typeof form.state === 'string' ? form.state : '';
  const username = typeof form.username === 'string' ? form.username.trim().slice(0, 255) : '';
  const password = typeof form.password === 'string' ? form.password.slice(0, 1024) : '';
  const tryAgainHref = `/_sso/login/${encodeURIComponent(entryId)}`;
  const binding = formBinding(gateway, request, reply, form.csrf, tryAgainHref);
  if (binding === undefined) return reply;
  const limits = { store: gateway.storage.failureCounts, clock: gateway.clock };
  // One count per entry and username, beside the local accounts' own.
  const account = `ldap:${entryId}:${username}`;
  if (
    !(await withinFailureLimit(gateway, request, reply, {
      account,
      userId: username,
      entryId,
      tryAgainHref,
    }))
  ) {
    return reply;
  }

  const credentials: TypedCredentials = {
    username,
    password,
    policy: addressPolicy(gateway.config.outboundAllow),
  };
  // A test sign-in's post: traced by the test, nobody signed in.
  void reply.header('cache-control', 'no-store');
  if (await trialCallback(request, reply, entryId, passwordFormFields(state, credentials))) {
    return reply;
  }
  try {
    const result = await completeSignIn(
      gateway,
      entryId,
      passwordFormFields(state, credentials),
      binding,
      async (stores, success) => {
        // As the callback's (callback-answer.ts): the event, then the session, last.
        await auditSignInSuccess(gateway, request, success, start, stores.audit);
        const started = await startSession(
          { ...gateway.sessions, sessions: stores.sessions, users: stores.users },
          success.user,
          success.entry.id,
          sessionIdOf(gateway, request),
          { signInRecorded: true },
        );
        return { ...success, sessionId: started.id, started: started.active };
      },
    );
    await recordLocalSignInSuccess(limits, request.ip, account);
    await settleSignIn(gateway, reply, result, start);
    // 303: the browser follows with a GET and never re-posts the password (RFC 9700 §4.12).
    return await reply.redirect(result.returnTo, 303);
  } catch (error) {
    if (!(isSsogateError(error) && error.code === 'ldap_sign_in_failed')) {
      return failCallback(gateway, request, reply, error, start);
    }
    await recordLocalSignInFailure(limits, request.ip, account);
    gateway.telemetry.signInFinished(entryId, error.code);
    await audit(gateway, request, {
      kind: 'sign_in',
      outcome: 'failure',
      entryId,
      userId: username,
      code: error.code,
      startedAt: start.startedAt,
    });
    return retryForm(gateway, request, reply, entryId, credentials.returnTo ?? '/', username);
  }
}

/**
 * The form again after a wrong password, under a new pending sign-in to the
 * same return-to path: the one the post carried was consumed with it.
 */
async function retryForm(
  gateway: Gateway,
  request: FormRequest,
  reply: FastifyReply,
  entryId: string,
  returnTo: string,
  username: string,
): Promise<FastifyReply> {
  const entry = await formEntry(gateway, entryId);
  const url = await startBrowserSignIn(gateway, request, reply, entry, returnTo);
  const state = new URL(url).searchParams.get('state') ?? '';
  return renderForm(gateway, request, reply, entry, state, 401, { username, failed: true });
}

/** The entry the form is for: an enabled entry whose start sends the browser here. */
async function formEntry(gateway: Gateway, entryId: string): Promise<CompiledEntry> {
  const entry = await gateway.entries.get(entryId);
  // Asked of the entry's source: only an LDAP entry's start sends the browser here.
  if (entry === undefined || sourceOf(entry).kind !== ldapKind) {
    throw new SignInError('entry_unknown', `no LDAP entry ${entryId}`);
  }
  refuseDisabled(entry);
  return entry;
}

async function renderForm(
  gateway: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  entry: CompiledEntry,
  state: string,
  status: number,
  shown: { readonly username?: string; readonly failed?: boolean; readonly trial?: boolean },
): Promise<FastifyReply> {
  const { username, failed = false, trial = false } = shown;
  const page = pageContext(gateway, request);
  const binding = ensureBinding(gateway, request, reply);
  // The typed password never goes back into a page, nor into any cache.
  void reply.header('cache-control', 'no-store');
  // The post's redirects end on an application host, or at an OpenID
  // Provider client whose authorization request the sign-in continues.
  await allowSignInFormRedirects(gateway, reply);
  return sendPage(
    reply,
    status,
    directorySignInPage({
      entryName: entry.name,
      action: ldapFormPath(entry.id),
      state,
      csrfToken: loginFormToken(binding),
      page,
      ...(failed ? { error: pageMessages(page.language).chooser.wrongPassword } : {}),
      ...(username === undefined ? {} : { username }),
      ...(trial ? { trial } : {}),
    }),
  );
}
