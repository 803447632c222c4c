import type { FastifyRequest } from 'fastify';
import type { RouteContext } from './context.js';
import type { IssuedToken } from './state.js';

/**
 * The token of an `Authorization: Bearer` header, if the server issued it to
 * a user still enabled. `prefix` is the provider's mark on its tokens
 * (Slack's `xoxp-`, Feishu's `u-`), which the server's memory does not keep.
 */
export function bearerUser(
  request: FastifyRequest,
  context: RouteContext,
  prefix = '',
): IssuedToken | undefined {
  const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '');
  const token = match?.[1];
  if (token === undefined || !token.startsWith(prefix)) return undefined;
  const issued = context.state.tokenUser(token.slice(prefix.length));
  return issued?.user.enabled === false ? undefined : issued;
}
