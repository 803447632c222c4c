import type { FastifyInstance } from 'fastify';
import { authorize } from './authorize.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { answerFault } from './fault-gate.js';
import { bearerUser } from './bearer.js';

/**
 * GitHub's OAuth app flow (docs.github.com, "Authorizing OAuth apps"):
 * `/login/oauth/authorize` without `response_type`; `POST
 * /login/oauth/access_token` with the credentials and code in the form,
 * answering JSON when asked with `Accept: application/json`, and refusing a
 * bad code with HTTP 200 and `{"error": "bad_verification_code"}`; the user
 * at `GET /user` on the API host with a Bearer token.
 */
export function registerGithubStyle(app: FastifyInstance, context: RouteContext): void {
  app.get('/github/login/oauth/authorize', async (request, reply) => {
    await authorize(request, reply, context, { clientParameter: 'client_id', standard: false });
    return reply;
  });

  app.post('/github/login/oauth/access_token', async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    const clientId = field(request.body, 'client_id') ?? '';
    if (!context.state.authenticateClient(clientId, field(request.body, 'client_secret'))) {
      return reply.send({
        error: 'incorrect_client_credentials',
        error_description: 'The client_id and/or client_secret passed are incorrect.',
      });
    }
    const check = context.state.redeemCode(
      field(request.body, 'code'),
      clientId,
      field(request.body, 'redirect_uri'),
    );
    if (!check.ok) {
      return reply.send({
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
        error_uri:
          'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code',
      });
    }
    return reply.send({
      access_token: context.state.issueToken(clientId, check.user),
      scope: 'read:user,user:email',
      token_type: 'bearer',
    });
  });

  app.get('/github/api/user', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const issued = bearerUser(request, context);
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
      id: 1000 + context.state.users.indexOf(user),
      name: user.name,
      email: user.email,
      type: 'User',
    });
  });
}
