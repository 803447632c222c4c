import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContext } from './context.js';
import { field, httpUrl, signedInUser, withParameters } from './context.js';
import { applyResponseFault, isResponseFault } from './faults.js';
import { formPostPage, loginPage, messagePage } from './html.js';

/** How a style names the authorization request's parameters. */
interface AuthorizeStyle {
  readonly clientParameter: 'appid' | 'client_id' | 'app_id';
  /** RFC 6749 style: requires response_type=code and accepts PKCE. */
  readonly standard: boolean;
  /** The callback parameter carrying the code: `code` unless the style names another (DingTalk: `authCode`). */
  readonly codeParameter?: string;
  /** RFC 9207: the issuer put on every authorization response, for a provider that advertises it. */
  readonly issuer?: string;
}

/**
 * The authorization endpoint of every style. A browser already signed in here
 * goes straight back with a code, with no page (the silent sign-in the
 * gateway relies on); otherwise it gets the login form, which returns here.
 */
export async function authorize(
  request: FastifyRequest,
  reply: FastifyReply,
  context: RouteContext,
  style: AuthorizeStyle,
): Promise<void> {
  const query = request.query;
  const appid = field(query, style.clientParameter);
  const client = context.state.findClient(appid);
  const redirectUri = field(query, 'redirect_uri');
  const target = httpUrl(redirectUri);
  // RFC 6749 §4.1.2.1: with an unknown client or redirect URI, never redirect.
  if (client === undefined || appid === undefined) {
    await reply.code(400).type('text/html').send(messagePage('Unknown client', 'No such appid.'));
    return;
  }
  const allowed =
    client.redirectUris === undefined || client.redirectUris.includes(redirectUri ?? '');
  if (target === undefined || redirectUri === undefined || !allowed) {
    await reply
      .code(400)
      .type('text/html')
      .send(messagePage('Invalid redirect_uri', 'The redirect_uri is missing or not registered.'));
    return;
  }
  const state = field(query, 'state');
  // A standard server answers by form_post when asked (OAuth 2.0 Form Post Response Mode).
  const formPost = style.standard && field(query, 'response_mode') === 'form_post';
  const back = (parameters: Record<string, string | undefined>) =>
    formPost
      ? reply
          .type('text/html')
          .header('cache-control', 'no-store')
          .send(formPostPage(target.href, { ...parameters, state, iss: style.issuer }))
      : reply.redirect(withParameters(target, { ...parameters, state, iss: style.issuer }), 302);

  const challenge = style.standard ? field(query, 'code_challenge') : undefined;
  if (style.standard && field(query, 'response_type') !== 'code') {
    await back({ error: 'unsupported_response_type' });
    return;
  }
  if (challenge !== undefined && field(query, 'code_challenge_method') !== 'S256') {
    await back({ error: 'invalid_request', error_description: 'only S256 is supported' });
    return;
  }

  const fault = context.faults.take('authorize');
  if (fault !== undefined) {
    if ('error' in fault) {
      await back({ error: fault.error, error_description: fault.description });
      return;
    }
    if ('omitCode' in fault) {
      await back({});
      return;
    }
    if (isResponseFault(fault) && (await applyResponseFault(fault, reply, context.closing))) return;
  }

  const user = signedInUser(request, context);
  if (user === undefined) {
    await reply
      .type('text/html')
      .header('cache-control', 'no-store')
      .send(loginPage({ continueTo: request.url, clientName: client.appid }));
    return;
  }
  const code = context.state.issueCode({
    appid: client.appid,
    redirectUri,
    user,
    codeChallenge: challenge,
    nonce: field(query, 'nonce'),
  });
  await back({ [style.codeParameter ?? 'code']: code });
}
