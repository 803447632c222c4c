import type { Migration } from 'kysely';
import { oidcClientsMigration } from './0017-oidc-clients.js';
import { oidcSigningKeysMigration } from './0018-oidc-signing-keys.js';
import { oidcGrantsMigration } from './0019-oidc-grants.js';
import { oidcRefreshTokensMigration } from './0020-oidc-refresh-tokens.js';
import { oidcGrantSignInsMigration } from './0021-oidc-grant-sign-ins.js';
import { oidcGrantRevocationMigration } from './0026-oidc-grant-revocation.js';
import { oidcGrantAcrMigration } from './0031-oidc-grant-acr.js';

/**
 * The OpenID Provider's migrations, numbered in the gateway's one sequence
 * and named as every database has recorded them: the storage kernel runs
 * them in that order among its own (foundation/storage/migrations/index.ts).
 * Never rename or edit a released one: add the next number of the sequence.
 */
export const providerMigrations: Readonly<Record<string, Migration>> = {
  '0017_oidc_clients': oidcClientsMigration,
  '0018_oidc_signing_keys': oidcSigningKeysMigration,
  '0019_oidc_grants': oidcGrantsMigration,
  '0020_oidc_refresh_tokens': oidcRefreshTokensMigration,
  '0021_oidc_grant_sign_ins': oidcGrantSignInsMigration,
  '0026_oidc_grant_revocation': oidcGrantRevocationMigration,
  '0031_oidc_grant_acr': oidcGrantAcrMigration,
};
