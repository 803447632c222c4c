import { z } from 'zod';
import { audit } from '../../foundation/http/audit.js';
import type { ApiRouter } from './api-router.js';
import type { ApiCall } from './api-route.js';
import { SsogateError } from '../../core/index.js';
import {
  issueApiToken,
  ownerLabel,
  revokeApiToken,
  tokenNamePattern,
  tokenNameRule,
} from './api-tokens.js';
import { presentApiToken } from './presenters.js';
import { tokenCreatedAnswer, tokenListAnswer } from './response-schemas.js';
import { isoTime } from './schemas.js';

const tokenCreateBody = z.strictObject({
  name: z.string().regex(tokenNamePattern, tokenNameRule),
  /**
   * When the token stops working by itself: an ISO 8601 time in the future;
   * "never" for a token that lasts until revoked; absent: after the
   * default lifetime (SSOGATE_API_TOKEN_DAYS).
   */
  expiresAt: z
    .union([z.literal('never'), isoTime])
    .optional()
    .describe(
      'an ISO 8601 time in the future; "never": until revoked; absent: SSOGATE_API_TOKEN_DAYS from now',
    ),
});

const tokenParams = z.strictObject({ id: z.string().min(1).max(64) });

/**
 * API tokens (docs/admin-api.md#api-tokens), as `ssogate token` manages them: the token is shown
 * once in the create answer and stored only as its hash, with its owner (the
 * caller's: authenticate.ts); a list shows names, owners and times, never a token.
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
      summary:
        "Create an API token owned by the caller (the administrator, or the calling token's owner); the answer holds it, once",
      body: tokenCreateBody,
      responses: { 201: { description: 'created', schema: tokenCreatedAnswer } },
      errors: [403, 409],
    },
    async (call) => {
      const { name, expiresAt } = call.body;
      const { owner } = call.admin;
      if (owner === null) {
        // Its tokens would have no owner either, and so nothing that ends them but a revocation.
        throw new SsogateError(
          'forbidden',
          'an API token made before owners were recorded cannot make tokens; make one at the console or with ssogate token create',
        );
      }
      const now = gateway.clock();
      const { record, secret } = await issueApiToken(
        tokens,
        {
          name,
          owner,
          expiresAt:
            expiresAt === 'never' ? null : (expiresAt ?? now + gateway.config.apiTokenLifetimeMs),
        },
        now,
        gateway.random,
      );
      await recorded(call, {
        action: 'create',
        tokenId: record.id,
        name,
        owner: ownerLabel(owner) ?? '',
        expiresAt: record.expiresAt === null ? 'never' : new Date(record.expiresAt).toISOString(),
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
