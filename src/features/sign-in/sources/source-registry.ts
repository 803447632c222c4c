import type { CompiledEntry, CompiledOAuth2Entry } from '../../../core/index.js';
import type { SessionRecord } from '../../../foundation/storage/types.js';
import type { RevalidationDeps } from '../../sessions/revalidate-session.js';
import { extensionKind, extensionSource } from './extension-source.js';
import { ldapKind, ldapSource } from './ldap-source.js';
import { oauth2Kind, oauth2TemplateSource } from './oauth2-template-source.js';
import type { OpenIdConnectEntry } from './openid-connect-source.js';
import { openIdConnectKind, openIdConnectSource } from './openid-connect-source.js';
import { samlKind, samlSource } from './saml-source.js';
import type { SignInSource, SourceKind } from './sign-in-source.js';

/**
 * The one place that tells the kinds of sign-in source apart: the source
 * of a compiled entry, by its type and, for oauth2, its `oidc` block
 * (docs/adding-a-source.md). Everything else asks the source.
 */
export function sourceOf(entry: CompiledEntry): SignInSource {
  switch (entry.type) {
    case 'extension':
      return extensionSource(entry);
    case 'oauth2':
      return isOpenIdConnect(entry) ? openIdConnectSource(entry) : oauth2TemplateSource(entry);
    case 'ldap':
      return ldapSource(entry);
    case 'saml':
      return samlSource(entry);
  }
}

function isOpenIdConnect(entry: CompiledOAuth2Entry): entry is OpenIdConnectEntry {
  return entry.oidc !== undefined;
}

/**
 * Every kind of sign-in source, as the console's entry form shows it
 * (`GET /_sso/api/entry-model`): a kind added to `sourceOf` is added here.
 */
export const sourceKinds: readonly SourceKind[] = [
  oauth2Kind,
  openIdConnectKind,
  extensionKind,
  ldapKind,
  samlKind,
];

/**
 * Every field a source's callback carries its correlation back in
 * (`callback.correlationField`): `state`, and a SAML source's `RelayState`.
 * A test sign-in's callback is looked for under these
 * (src/features/trial-sign-in/trial-callback.ts).
 */
export const correlationFields: readonly string[] = ['state', 'RelayState'];

/**
 * A session re-checked by its entry's source when due (`SessionDeps.revalidate`,
 * made in app/create-gateway.ts); a session of no entry, or of one gone, is
 * left to the session checks that refuse it.
 */
export async function revalidateBySource(
  deps: RevalidationDeps,
  session: SessionRecord,
): Promise<boolean> {
  if (session.entryId === null) return true;
  const entry = await deps.entries.get(session.entryId);
  return entry === undefined ? true : sourceOf(entry).revalidate(deps, session);
}
