import type { FastifyInstance } from 'fastify';
import { authorize } from './authorize.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { tokenLifetimeSeconds } from './defaults.js';
import { answerFault } from './fault-gate.js';

/**
 * The DingTalk (钉钉) style of its new server API: the login page sends the
 * browser back with `authCode` (not `code`); `POST /v1.0/oauth2/userAccessToken`
 * takes a JSON body `{clientId, clientSecret, code, grantType}` and answers
 * `{accessToken, refreshToken, expireIn, corpId}`; `GET /v1.0/contact/users/me`
 * reads the token from the `x-acs-dingtalk-access-token` header. A failure is
 * HTTP 400 (or 401) with the envelope `{"code": "...", "message": "...", "requestid": "..."}`.
 */
export function registerDingtalkStyle(app: FastifyInstance, context: RouteContext): void {
  app.get('/dingtalk/oauth2/auth', async (request, reply) => {
    await authorize(request, reply, context, {
      clientParameter: 'client_id',
      standard: true,
      codeParameter: 'authCode',
    });
    return reply;
  });

  app.post('/dingtalk/v1.0/oauth2/userAccessToken', async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    const { state } = context;
    const clientId = field(request.body, 'clientId') ?? '';
    const failure = (code: string, message: string) =>
      reply.code(400).send({ code, message, requestid: 'example' });
    if (!state.authenticateClient(clientId, field(request.body, 'clientSecret'))) {
      return failure('invalidClientSecret', 'clientSecret is wrong');
    }
    if (field(request.body, 'grantType') !== 'authorization_code') {
      return failure('invalidParameter.grantType', 'grantType must be authorization_code');
    }
    const check = state.redeemCodeForClient(field(request.body, 'code'), clientId);
    if (!check.ok) return failure('invalidParameter.authCode.notFound', 'authCode is invalid');
    return reply.send({
      accessToken: state.issueToken(clientId, check.user),
      refreshToken: 'unused',
      expireIn: tokenLifetimeSeconds,
      corpId: 'ding-example-corp',
    });
  });

  app.get('/dingtalk/v1.0/contact/users/me', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const header = request.headers['x-acs-dingtalk-access-token'];
    const issued = context.state.tokenUser(typeof header === 'string' ? header : undefined);
    if (issued === undefined) {
      return reply.code(401).send({
        code: 'InvalidAuthentication',
        message: 'accessToken is invalid',
        requestid: 'example',
      });
    }
    const { user } = issued;
    return reply.send({
      nick: user.name,
      unionId: `union-${user.userId}`,
      openId: context.state.openid(issued.appid, user),
      email: user.email,
      mobile: '',
      stateCode: '86',
    });
  });
}
