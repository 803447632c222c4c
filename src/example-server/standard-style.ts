import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authorize } from './authorize.js';
import type { RouteContext } from './context.js';
import { field } from './context.js';
import { tokenLifetimeSeconds } from './defaults.js';
import { answerFault } from './fault-gate.js';

/**
 * RFC 6749 §2.3.1: Basic credentials are form-encoded before base64, so each
 * half is form-decoded after splitting at the first colon.
 */
export function basicCredentials(request: FastifyRequest): [string, string] | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(request.headers.authorization ?? '');
  if (match?.[1] === undefined) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const formDecode = (text: string) => new URLSearchParams(`x=${text}`).get('x') ?? '';
  return [formDecode(decoded.slice(0, colon)), formDecode(decoded.slice(colon + 1))];
}

/** A standard RFC 6749 server: form POST, HTTP Basic, PKCE, Bearer user info. */
export function registerStandardStyle(app: FastifyInstance, context: RouteContext): void {
  app.get('/oauth2/authorize', async (request, reply) => {
    await authorize(request, reply, context, { clientParameter: 'client_id', standard: true });
    return reply;
  });

  app.post('/oauth2/token', async (request, reply) => {
    if (await answerFault('token', reply, context)) return reply;
    const { state } = context;
    reply.header('cache-control', 'no-store');
    const credentials = basicCredentials(request);
    if (credentials === undefined || !state.authenticateClient(...credentials)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Basic realm="example"')
        .send({ error: 'invalid_client' });
    }
    const body = request.body;
    if (field(body, 'grant_type') !== 'authorization_code') {
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    }
    const [appid] = credentials;
    const check = state.redeemCode(
      field(body, 'code'),
      appid,
      field(body, 'redirect_uri'),
      field(body, 'code_verifier'),
    );
    if (!check.ok) {
      return reply.code(400).send({ error: 'invalid_grant', error_description: check.reason });
    }
    return reply.send({
      access_token: state.issueToken(appid, check.user),
      token_type: 'Bearer',
      expires_in: tokenLifetimeSeconds,
    });
  });

  app.get('/oauth2/userinfo', async (request, reply) => {
    if (await answerFault('userinfo', reply, context)) return reply;
    const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '');
    const issued = context.state.tokenUser(match?.[1]);
    if (issued === undefined) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer error="invalid_token"')
        .send({ error: 'invalid_token' });
    }
    const { user } = issued;
    return reply.send({
      sub: user.userId,
      name: user.name,
      email: user.email,
      groups: user.groups ?? [],
      active: user.enabled !== false,
    });
  });
}
