import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { authorize } from './authorize.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { answerFault } from './fault-gate.js';

/**
 * GitHub's OAuth app flow (the `github` preset of src/presets/ with
 * webBase `{example}/github` and apiBase `{example}/github/api`): the client
 * secret in the token call's form body, no grant_type, a JSON answer, and a
 * user with a numeric `id` beside its `login`.
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
    const appid = field(body, 'client_id');
    if (appid === undefined || !state.authenticateClient(appid, field(body, 'client_secret'))) {
      return reply.send({ error: 'incorrect_client_credentials' });
    }
    const check = state.redeemCode(field(body, 'code'), appid, field(body, 'redirect_uri'));
    if (!check.ok) {
      // GitHub answers a bad code with 200 and an error object.
      return reply.send({ error: 'bad_verification_code', error_description: check.reason });
    }
    return reply.send({
      access_token: state.issueToken(appid, check.user),
      token_type: 'bearer',
      scope: 'read:user,user:email',
    });
  });

  app.get('/github/api/user', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '');
    const issued = context.state.tokenUser(match?.[1]);
    if (issued === undefined) {
      return reply.code(401).send({ message: 'Bad credentials' });
    }
    const { user } = issued;
    return reply.send({
      login: user.userId,
      id: numericId(user.userId),
      name: user.name,
      email: user.email,
    });
  });
}

/** A stable number for a username, as GitHub's ids are numbers. */
function numericId(username: string): number {
  return Number.parseInt(createHash('sha256').update(username).digest('hex').slice(0, 7), 16);
}
