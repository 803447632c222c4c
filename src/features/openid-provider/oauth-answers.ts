import type { FastifyReply } from 'fastify';

/**
 * An error of the token and userinfo endpoints, in OAuth's own form
 * ({ error, error_description }, RFC 6749 §5.2), which relying parties read,
 * rather than the gateway's coded envelope. Never cached.
 */
export function oauthError(
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error, error_description: description });
}
