import type { FastifyInstance } from 'fastify';
import { authorize } from './authorize.js';
import { bearerUser } from './bearer.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { answerFault } from './fault-gate.js';

/**
 * Slack's "Sign in with Slack" over OAuth v2 (api.slack.com, "Installing
 * with OAuth"): `/oauth/v2/authorize` with `user_scope`; `POST
 * /api/oauth.v2.access` answering the user's token under `authed_user`;
 * `GET /api/users.identity` with a Bearer token. Every answer is HTTP 200
 * with `ok`; a failure is `{"ok": false, "error": "invalid_code"}` and the like.
 */
export function registerSlackStyle(app: FastifyInstance, context: RouteContext): void {
  app.get('/slack/oauth/v2/authorize', async (request, reply) => {
    await authorize(request, reply, context, { clientParameter: 'client_id', standard: false });
    return reply;
  });

  app.post('/slack/api/oauth.v2.access', async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    const clientId = field(request.body, 'client_id') ?? '';
    if (!context.state.authenticateClient(clientId, field(request.body, 'client_secret'))) {
      return reply.send({ ok: false, error: 'invalid_client_id' });
    }
    const check = context.state.redeemCode(
      field(request.body, 'code'),
      clientId,
      field(request.body, 'redirect_uri'),
    );
    if (!check.ok) return reply.send({ ok: false, error: 'invalid_code' });
    return reply.send({
      ok: true,
      app_id: 'A0EXAMPLE',
      authed_user: {
        id: `U${check.user.userId.toUpperCase()}`,
        scope: 'identity.basic,identity.email',
        access_token: `xoxp-${context.state.issueToken(clientId, check.user)}`,
        token_type: 'user',
      },
      team: { id: 'T0EXAMPLE' },
    });
  });

  app.get('/slack/api/users.identity', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const issued = bearerUser(request, context, 'xoxp-');
    if (issued === undefined) return reply.send({ ok: false, error: 'invalid_auth' });
    const { user } = issued;
    return reply.send({
      ok: true,
      user: { name: user.name, id: `U${user.userId.toUpperCase()}`, email: user.email },
      team: { id: 'T0EXAMPLE' },
    });
  });
}
