import { z } from 'zod';
import { SsogateError, entryIdPattern, pairwiseSector } from '../../../core/index.js';
import { sha256Base64url } from '../../../foundation/crypto/hash.js';
import type { Storage } from '../../../foundation/storage/types.js';
import type { ProviderStores } from '../storage/provider-stores.js';
import type { OidcClientRecord, OidcClientSettings } from '../storage/types.js';
import { invalidField } from '../../admin-api/api-failure.js';

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

/** A client's settings, as the admin API's PUT takes them and the command line's `client update` checks them. */
export const oidcClientSettings = z.strictObject({
  name: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  redirectUris: z.array(clientUri).min(1, 'must list at least one URI').max(20),
  postLogoutRedirectUris: z.array(clientUri).max(20).default([]),
  backchannelLogoutUri: clientUri.nullable().default(null),
  frontchannelLogoutUri: clientUri
    .nullable()
    .default(null)
    .describe('loaded in a hidden frame of the signed-out page when a sign-in it had ends'),
  frontchannelLogoutSessionRequired: z
    .boolean()
    .default(false)
    .describe('true: that page is loaded with the iss and sid of the sign-in that ended'),
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
export const oidcClientId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, clientIdRule);

/** A new client, as the admin API's POST takes it and `ssogate client create` checks it. */
export const oidcClientCreateBody = z.strictObject({
  ...oidcClientSettings.shape,
  clientId: oidcClientId,
  public: z
    .boolean()
    .default(false)
    .describe(
      'true: no secret, PKCE required (a browser or native app); false: a secret is issued',
    ),
});

/** What a change to the clients works with: the gateway, or the command line's context. */
interface ClientChangeContext {
  readonly storage: Pick<Storage & ProviderStores, 'providerClients' | 'entries'>;
  readonly clock: () => number;
  readonly random: (size: number) => Uint8Array;
}

/** A change made: the client after it, the new secret if one was made, the audit's detail. */
export interface ClientChange {
  readonly client: OidcClientRecord;
  readonly secret: string | null;
  /** What the `client_change` audit event records (never a secret). */
  readonly detail: Record<string, string | boolean>;
}

/** 256 random bits, with a prefix secret scanners can match on. */
function newSecret(random: (size: number) => Uint8Array): string {
  return `ssgc_${Buffer.from(random(32)).toString('base64url')}`;
}

/** The client, or oidc_client_unknown. */
export async function existingOidcClient(
  context: ClientChangeContext,
  id: string,
): Promise<OidcClientRecord> {
  const client = await context.storage.providerClients.get(id);
  if (client === undefined) {
    throw new SsogateError('oidc_client_unknown', `no OpenID client has the id "${id}"`);
  }
  return client;
}

/**
 * The entries named must exist when the client is saved; one deleted later
 * simply matches no sign-in. A pairwise client's redirect URIs must share
 * one host, its sector (OpenID Connect Core §8.1): no sector_identifier_uri
 * is fetched to join several.
 */
async function checkSettings(
  context: ClientChangeContext,
  settings: OidcClientSettings,
): Promise<void> {
  if (settings.subjectType === 'pairwise' && pairwiseSector(settings.redirectUris) === undefined) {
    throw new SsogateError(
      'oidc_client_sector_ambiguous',
      'a pairwise client needs redirect URIs that all share one host',
      { field: 'body.redirectUris' },
    );
  }
  for (const [index, entryId] of settings.allowedEntries.entries()) {
    if ((await context.storage.entries.get(entryId)) === undefined) {
      throw invalidField(`body.allowedEntries[${index}]`, `no entry has the id "${entryId}"`);
    }
  }
}

/** Registers a client: a confidential one gets its secret, returned here once and stored hashed. */
export async function createOidcClient(
  context: ClientChangeContext,
  body: z.output<typeof oidcClientCreateBody>,
): Promise<ClientChange> {
  const { clientId: id, public: isPublic, ...settings } = body;
  await checkSettings(context, settings);
  const secret = isPublic ? null : newSecret(context.random);
  const now = context.clock();
  const client: OidcClientRecord = {
    clientId: id,
    secretHash: secret === null ? null : sha256Base64url(secret),
    ...settings,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await context.storage.providerClients.create(client))) {
    throw new SsogateError('oidc_client_exists', `an OpenID client has the id "${id}" already`);
  }
  const detail = { action: 'create', clientId: id, name: settings.name, public: isPublic };
  return { client, secret, detail };
}

/** Replaces a client's settings; its secret, or having none, stays. */
export async function updateOidcClient(
  context: ClientChangeContext,
  id: string,
  settings: OidcClientSettings,
): Promise<ClientChange> {
  await checkSettings(context, settings);
  if (!(await context.storage.providerClients.update(id, settings, context.clock()))) {
    await existingOidcClient(context, id);
  }
  const client = await existingOidcClient(context, id);
  return { client, secret: null, detail: { action: 'update', clientId: id, name: settings.name } };
}

/** A confidential client's new secret: the old one stops working at once. */
export async function rotateOidcClientSecret(
  context: ClientChangeContext,
  id: string,
): Promise<ClientChange> {
  if ((await existingOidcClient(context, id)).secretHash === null) {
    throw new SsogateError('oidc_client_public', `the OpenID client "${id}" is public`);
  }
  const secret = newSecret(context.random);
  const clients = context.storage.providerClients;
  if (!(await clients.replaceSecretHash(id, sha256Base64url(secret), context.clock()))) {
    await existingOidcClient(context, id);
  }
  const client = await existingOidcClient(context, id);
  return { client, secret, detail: { action: 'rotate_secret', clientId: id } };
}

/** Deletes a client: its grants, codes and tokens stop working at once (storage/client-store.ts). */
export async function deleteOidcClient(
  context: ClientChangeContext,
  id: string,
): Promise<Omit<ClientChange, 'client' | 'secret'>> {
  if (!(await context.storage.providerClients.delete(id))) await existingOidcClient(context, id);
  return { detail: { action: 'delete', clientId: id } };
}
