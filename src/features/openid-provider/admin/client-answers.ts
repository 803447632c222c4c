import { z } from 'zod';
import type { JsonValue } from '../../../core/index.js';
import { isoTime, named } from '../../admin-api/response-schemas.js';
import type { OidcClientRecord } from '../storage/types.js';

/**
 * The admin API's answers about OpenID clients (oidc-client-routes.ts), and
 * the command line's (cli/client-commands.ts): what a client is shown as,
 * and the schemas the OpenAPI document describes it with.
 */

const iso = (ms: number): string => new Date(ms).toISOString();

/** An OpenID client's settings and times; never its secret or the secret's hash. */
export function presentOidcClient(client: OidcClientRecord): Record<string, JsonValue> {
  return {
    clientId: client.clientId,
    name: client.name,
    public: client.secretHash === null,
    redirectUris: [...client.redirectUris],
    postLogoutRedirectUris: [...client.postLogoutRedirectUris],
    backchannelLogoutUri: client.backchannelLogoutUri,
    frontchannelLogoutUri: client.frontchannelLogoutUri,
    frontchannelLogoutSessionRequired: client.frontchannelLogoutSessionRequired,
    allowedEntries: [...client.allowedEntries],
    allowedUsers: [...client.allowedUsers],
    allowedGroups: [...client.allowedGroups],
    refreshTokens: client.refreshTokens,
    subjectType: client.subjectType,
    consent: client.consent,
    createdAt: iso(client.createdAt),
    updatedAt: iso(client.updatedAt),
  };
}

const oidcClientSchema = named(
  'OidcClient',
  z.looseObject({
    clientId: z.string(),
    name: z.string(),
    public: z
      .boolean()
      .describe('true: no secret, PKCE proves the client; false: it authenticates with its secret'),
    redirectUris: z.array(z.string()),
    postLogoutRedirectUris: z.array(z.string()),
    backchannelLogoutUri: z.string().nullable(),
    frontchannelLogoutUri: z.string().nullable(),
    frontchannelLogoutSessionRequired: z
      .boolean()
      .describe('true: the front-channel logout URI is loaded with iss and sid'),
    allowedEntries: z.array(z.string()).describe('empty: every entry'),
    allowedUsers: z.array(z.string()),
    allowedGroups: z
      .array(z.string())
      .describe('with allowedUsers: both empty, everyone; else a user listed or in a group listed'),
    refreshTokens: z.boolean(),
    subjectType: z
      .enum(['public', 'pairwise'])
      .describe("public: the sub is the user's id; pairwise: one of the client's own per user"),
    consent: z.boolean().describe('true: the user is asked before a code is issued'),
    createdAt: isoTime,
    updatedAt: isoTime,
  }),
);

export const oidcClientAnswer = z.looseObject({ client: oidcClientSchema });
export const oidcClientListAnswer = z.looseObject({ clients: z.array(oidcClientSchema) });
export const oidcClientSecretAnswer = z.looseObject({
  client: oidcClientSchema,
  secret: z
    .string()
    .nullable()
    .describe('the client secret, shown once; only its hash is stored; null for a public client'),
});
