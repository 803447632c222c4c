import type { FastifyInstance } from 'fastify';
import { authorize } from './authorize.js';
import { bearerUser } from './bearer.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { tokenLifetimeSeconds } from './defaults.js';
import { answerFault } from './fault-gate.js';

/**
 * GitLab as an OAuth 2.0 provider (docs.gitlab.com, "OAuth 2.0 identity
 * provider API"): `/oauth/authorize` with `response_type=code` and PKCE;
 * `POST /oauth/token` with the credentials, code, verifier and redirect URI
 * in the form, refusing a bad code with HTTP 400 `{"error": "invalid_grant"}`;
 * the user at `GET /api/v4/user` with a Bearer token.
 */
export function registerGitlabStyle(app: FastifyInstance, context: RouteContext): void {
  app.get('/gitlab/oauth/authorize', async (request, reply) => {
    await authorize(request, reply, context, { clientParameter: 'client_id', standard: true });
    return reply;
  });

  app.post('/gitlab/oauth/token', async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    const body = request.body;
    const clientId = field(body, 'client_id') ?? '';
    if (!context.state.authenticateClient(clientId, field(body, 'client_secret'))) {
      return reply.code(401).send({
        error: 'invalid_client',
        error_description:
          'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
      });
    }
    const check = context.state.redeemCode(
      field(body, 'code'),
      clientId,
      field(body, 'redirect_uri'),
      field(body, 'code_verifier'),
    );
    if (!check.ok) {
      return reply.code(400).send({
        error: 'invalid_grant',
        error_description:
          'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
      });
    }
    return reply.send({
      access_token: context.state.issueToken(clientId, check.user),
      token_type: 'Bearer',
      expires_in: tokenLifetimeSeconds,
      refresh_token: 'unused',
      scope: 'read_user',
      created_at: Math.floor(Date.now() / 1000),
    });
  });

  app.get('/gitlab/api/v4/user', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const issued = bearerUser(request, context);
    if (issued === undefined) return reply.code(401).send({ message: '401 Unauthorized' });
    const { user } = issued;
    return reply.send({
      id: 2000 + context.state.users.indexOf(user),
      username: user.username,
      name: user.name,
      email: user.email,
      state: user.enabled === false ? 'blocked' : 'active',
    });
  });
}
