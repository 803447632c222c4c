import { z } from 'zod';
import { SsogateError, entryIdPattern, pairwiseSector } from '../../core/index.js';
import { sha256Base64url } from '../../foundation/crypto/hash.js';
import { audit } from '../../foundation/http/audit.js';
import type { OidcClientRecord, OidcClientSettings } from '../../foundation/storage/types.js';
import { invalidField } from './api-failure.js';
import type { ApiCall } from './api-route.js';
import type { ApiRouter } from './api-router.js';
import { presentOidcClient } from './presenters.js';
import {
  oidcClientAnswer,
  oidcClientListAnswer,
  oidcClientSecretAnswer,
} from './response-schemas.js';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A URI the provider sends a browser or a logout token to: absolute, https
 * (http only on a loopback host, RFC 8252 §7.3), no fragment (RFC 6749
 * §3.1.2), no user name or password. Kept as written: requests must match it
 * as an exact string.
 */
const clientUri = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .refine((text) => {
    if (!URL.canParse(text)) return false;
    const url = new URL(text);
    const schemeAllowed =
      url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHosts.has(url.hostname));
    return (
      schemeAllowed &&
      url.hash === '' &&
      !text.includes('#') &&
      url.username === '' &&
      url.password === ''
    );
  }, 'must be an absolute https URL (http only on localhost), without a fragment or credentials');

const names = z.array(z.string().min(1).max(200)).max(1000);

const clientSettings = z.strictObject({
  name: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  redirectUris: z.array(clientUri).min(1, 'must list at least one URI').max(20),
  postLogoutRedirectUris: z.array(clientUri).max(20).default([]),
  backchannelLogoutUri: clientUri.nullable().default(null),
  allowedEntries: z
    .array(z.string().regex(entryIdPattern, 'must be an entry id'))
    .max(100)
    .default([])
    .describe('empty: sign-ins through every entry'),
  allowedUsers: names.default([]).describe('userIds; with allowedGroups both empty: everyone'),
  allowedGroups: names.default([]),
  refreshTokens: z.boolean().default(false),
  subjectType: z
    .enum(['public', 'pairwise'])
    .default('public')
    .describe(
      "the sub it is given: the user's id (public), or its own per user, not to be matched across hosts (pairwise); pairwise needs redirect URIs on one host",
    ),
  consent: z
    .boolean()
    .default(false)
    .describe('true: the user allows or denies the application before a code is issued'),
});

const clientIdRule =
  'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit';
const clientId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, clientIdRule);

const clientCreateBody = z.strictObject({
  ...clientSettings.shape,
  clientId,
  public: z
    .boolean()
    .default(false)
    .describe(
      'true: no secret, PKCE required (a browser or native app); false: a secret is issued',
    ),
});

const clientParams = z.strictObject({ clientId });

/** 256 random bits, with a prefix secret scanners can match on. */
function newSecret(random: (size: number) => Uint8Array): string {
  return `ssgc_${Buffer.from(random(32)).toString('base64url')}`;
}

/**
 * The applications that sign in through the gateway's OpenID Provider
 * (docs/openid-provider.md#clients). A confidential client's secret is shown
 * once, in the answer that made or rotated it, and stored only as its hash.
 */
export function oidcClientRoutes(api: ApiRouter): void {
  const { gateway } = api;
  const clients = gateway.storage.oidcClients;

  const recorded = (call: ApiCall, detail: Record<string, string | boolean>) =>
    audit(gateway, call.request, {
      kind: 'client_change',
      outcome: 'success',
      actor: call.admin.actor,
      detail,
    });

  /**
   * The entries named must exist when the client is saved; one deleted later
   * simply matches no sign-in. A pairwise client's redirect URIs must share
   * one host, its sector (OpenID Connect Core §8.1): no sector_identifier_uri
   * is fetched to join several.
   */
  async function checkSettings(settings: OidcClientSettings): Promise<void> {
    if (
      settings.subjectType === 'pairwise' &&
      pairwiseSector(settings.redirectUris) === undefined
    ) {
      throw new SsogateError(
        'oidc_client_sector_ambiguous',
        'a pairwise client needs redirect URIs that all share one host',
        { field: 'body.redirectUris' },
      );
    }
    for (const [index, entryId] of settings.allowedEntries.entries()) {
      if ((await gateway.storage.entries.get(entryId)) === undefined) {
        throw invalidField(`body.allowedEntries[${index}]`, `no entry has the id "${entryId}"`);
      }
    }
  }

  async function existing(id: string): Promise<OidcClientRecord> {
    const client = await clients.get(id);
    if (client === undefined) {
      throw new SsogateError('oidc_client_unknown', `no OpenID client has the id "${id}"`);
    }
    return client;
  }

  api.route(
    {
      method: 'GET',
      url: '/_sso/api/oidc-clients',
      tag: 'clients',
      summary: 'Every OpenID client; never a secret',
      responses: { 200: { description: 'the clients', schema: oidcClientListAnswer } },
    },
    async () => ({ body: { clients: (await clients.list()).map(presentOidcClient) } }),
  );

  api.route(
    {
      method: 'POST',
      url: '/_sso/api/oidc-clients',
      tag: 'clients',
      summary: "Register an OpenID client; a confidential client's secret is in the answer, once",
      body: clientCreateBody,
      responses: { 201: { description: 'created', schema: oidcClientSecretAnswer } },
      errors: [409],
    },
    async (call) => {
      const { clientId: id, public: isPublic, ...settings } = call.body;
      await checkSettings(settings);
      const secret = isPublic ? null : newSecret(gateway.random);
      const now = gateway.clock();
      const record: OidcClientRecord = {
        clientId: id,
        secretHash: secret === null ? null : sha256Base64url(secret),
        ...settings,
        createdAt: now,
        updatedAt: now,
      };
      if (!(await clients.create(record))) {
        throw new SsogateError('oidc_client_exists', `an OpenID client has the id "${id}" already`);
      }
      await recorded(call, {
        action: 'create',
        clientId: id,
        name: settings.name,
        public: isPublic,
      });
      return { status: 201, body: { client: presentOidcClient(record), secret } };
    },
  );

  api.route(
    {
      method: 'GET',
      url: '/_sso/api/oidc-clients/:clientId',
      tag: 'clients',
      summary: 'One OpenID client; never its secret',
      params: clientParams,
      responses: { 200: { description: 'the client', schema: oidcClientAnswer } },
      errors: [404],
    },
    async (call) => ({ body: { client: presentOidcClient(await existing(call.params.clientId)) } }),
  );

  api.route(
    {
      method: 'PUT',
      url: '/_sso/api/oidc-clients/:clientId',
      tag: 'clients',
      summary: "Replace an OpenID client's settings (its secret, or having none, stays)",
      params: clientParams,
      body: clientSettings,
      responses: { 200: { description: 'saved', schema: oidcClientAnswer } },
      errors: [404],
    },
    async (call) => {
      const id = call.params.clientId;
      await checkSettings(call.body);
      if (!(await clients.update(id, call.body, gateway.clock()))) await existing(id);
      await recorded(call, { action: 'update', clientId: id, name: call.body.name });
      return { body: { client: presentOidcClient(await existing(id)) } };
    },
  );

  api.route(
    {
      method: 'POST',
      url: '/_sso/api/oidc-clients/:clientId/secret',
      tag: 'clients',
      summary: "Rotate a confidential client's secret: the old one stops working at once",
      params: clientParams,
      responses: { 200: { description: 'the new secret, once', schema: oidcClientSecretAnswer } },
      errors: [404, 409],
    },
    async (call) => {
      const id = call.params.clientId;
      if ((await existing(id)).secretHash === null) {
        throw new SsogateError('oidc_client_public', `the OpenID client "${id}" is public`);
      }
      const secret = newSecret(gateway.random);
      if (!(await clients.replaceSecretHash(id, sha256Base64url(secret), gateway.clock()))) {
        await existing(id);
      }
      await recorded(call, { action: 'rotate_secret', clientId: id });
      return { body: { client: presentOidcClient(await existing(id)), secret } };
    },
  );

  api.route(
    {
      method: 'DELETE',
      url: '/_sso/api/oidc-clients/:clientId',
      tag: 'clients',
      summary: 'Delete an OpenID client: its codes and tokens stop working at once',
      params: clientParams,
      responses: { 204: { description: 'deleted' } },
      errors: [404],
    },
    async (call) => {
      const id = call.params.clientId;
      if (!(await clients.delete(id))) await existing(id);
      await recorded(call, { action: 'delete', clientId: id });
      return { status: 204 };
    },
  );
}
