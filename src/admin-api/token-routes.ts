import { z } from 'zod';
import { audit } from '../http/audit.js';
import type { ApiRouter } from './api-router.js';
import type { ApiCall } from './api-route.js';
import { issueApiToken, revokeApiToken, tokenNamePattern, tokenNameRule } from './api-tokens.js';
import { presentApiToken } from './presenters.js';
import { tokenCreatedAnswer, tokenListAnswer } from './response-schemas.js';
import { isoTime } from './schemas.js';

export const tokenCreateBody = z.strictObject({
  name: z.string().regex(tokenNamePattern, tokenNameRule),
  /** When the token stops working by itself (ISO 8601, in the future); absent: until revoked. */
  expiresAt: isoTime.optional(),
});

export const tokenParams = z.strictObject({ id: z.string().min(1).max(64) });

/**
 * API tokens (docs/admin-api.md#api-tokens), as `ssogate token` manages them: the token is shown
 * once in the create answer and stored only as its hash; a list shows names
 * and times, never a token.
 */
export function tokenRoutes(api: ApiRouter): void {
  const { gateway } = api;
  const tokens = gateway.storage.apiTokens;

  const recorded = (call: ApiCall, detail: Record<string, string>) =>
    audit(gateway, call.request, {
      kind: 'token_change',
      outcome: 'success',
      actor: call.admin.actor,
      detail,
    });

  api.route(
    {
      method: 'GET',
      url: '/_sso/api/tokens',
      tag: 'tokens',
      summary: 'Every API token, revoked ones included; never the tokens themselves',
      responses: { 200: { description: 'the tokens', schema: tokenListAnswer } },
    },
    async () => ({ body: { tokens: (await tokens.list()).map(presentApiToken) } }),
  );

  api.route(
    {
      method: 'POST',
      url: '/_sso/api/tokens',
      tag: 'tokens',
      summary: 'Create an API token; the answer holds it, once',
      body: tokenCreateBody,
      responses: { 201: { description: 'created', schema: tokenCreatedAnswer } },
      errors: [409],
    },
    async (call) => {
      const { name, expiresAt } = call.body;
      const { record, secret } = await issueApiToken(
        tokens,
        name,
        gateway.clock(),
        gateway.random,
        expiresAt ?? null,
      );
      await recorded(call, {
        action: 'create',
        tokenId: record.id,
        name,
        ...(record.expiresAt === null
          ? {}
          : { expiresAt: new Date(record.expiresAt).toISOString() }),
      });
      return { status: 201, body: { token: presentApiToken(record), secret } };
    },
  );

  api.route(
    {
      method: 'DELETE',
      url: '/_sso/api/tokens/:id',
      tag: 'tokens',
      summary: 'Revoke an API token',
      params: tokenParams,
      responses: { 204: { description: 'revoked' } },
      errors: [404],
    },
    async (call) => {
      const { id } = call.params;
      await revokeApiToken(tokens, id, gateway.clock());
      await recorded(call, { action: 'revoke', tokenId: id });
      return { status: 204 };
    },
  );
}
