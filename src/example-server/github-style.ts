import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorize } from './authorize.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { answerFault } from './fault-gate.js';
import type { ExampleState } from './state.js';
import type { ExampleUser } from './types.js';

/**
 * GitHub's style of OAuth app, under /github/ (the web host's paths under
 * /github/login/, the API's under /github/api/): the token call is a form
 * POST of client_id, client_secret, code and redirect_uri; it answers JSON
 * only when the caller's Accept asks for it, otherwise a form-encoded body;
 * a refused code or secret is still HTTP 200, with an `error` field. The user
 * is read with the token as a Bearer header and has a numeric `id` beside
 * its `login`.
 */
export function registerGithubStyle(app: FastifyInstance, context: RouteContext): void {
  app.get('/github/login/oauth/authorize', async (request, reply) => {
    await authorize(request, reply, context, { clientParameter: 'client_id', standard: false });
    return reply;
  });

  app.post('/github/login/oauth/access_token', async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    const { state } = context;
    const body = request.body;
    const clientId = field(body, 'client_id') ?? '';
    if (!state.authenticateClient(clientId, field(body, 'client_secret'))) {
      return answer(request, reply, {
        error: 'incorrect_client_credentials',
        error_description: 'The client_id and/or client_secret passed are incorrect.',
      });
    }
    // The redirect_uri is optional here; when sent, it must be the one authorized.
    const redirectUri = field(body, 'redirect_uri');
    const code = field(body, 'code');
    const check =
      redirectUri === undefined
        ? state.redeemCodeForClient(code, clientId)
        : state.redeemCode(code, clientId, redirectUri);
    if (!check.ok) {
      return answer(request, reply, {
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
        error_uri:
          'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code',
      });
    }
    return answer(request, reply, {
      access_token: state.issueToken(clientId, check.user),
      token_type: 'bearer',
      scope: 'read:user,user:email',
    });
  });

  app.get('/github/api/user', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    // GitHub takes both the standard Bearer and its older `token` scheme.
    const match = /^(?:Bearer|token) (\S+)$/i.exec(request.headers.authorization ?? '');
    const issued = context.state.tokenUser(match?.[1]);
    if (issued === undefined) {
      return reply.code(401).send({
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
        status: '401',
      });
    }
    const { user } = issued;
    return reply.send({
      login: user.username,
      id: githubId(context.state, user),
      name: user.name,
      email: user.email,
    });
  });
}

/** The token call's answer, JSON when asked for, GitHub's form encoding otherwise. */
function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  fields: Record<string, string>,
): FastifyReply {
  reply.header('cache-control', 'no-store');
  if ((request.headers.accept ?? '').includes('application/json')) return reply.send(fields);
  return reply
    .type('application/x-www-form-urlencoded; charset=utf-8')
    .send(new URLSearchParams(fields).toString());
}

/** A stable number per user, as GitHub's account ids are: 1001 for the first user, and so on. */
function githubId(state: ExampleState, user: ExampleUser): number {
  return 1001 + state.users.findIndex((candidate) => candidate.username === user.username);
}
