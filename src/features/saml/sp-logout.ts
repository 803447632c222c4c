import type { CompiledSamlEntry, LogoutRequest, RandomSource } from '../../core/index.js';
import type { FetchedDocuments } from '../../foundation/outbound/fetched-documents.js';
import type { UpstreamSessionRecord } from '../../foundation/storage/types.js';
import { identityProviderOf } from './idp-metadata.js';
import { logoutRequestXml } from './logout-messages.js';
import { redirectUrl } from './redirect-binding.js';
import { samlEndpoints } from './saml-endpoints.js';

/** How long the gateway waits for the LogoutResponse to its LogoutRequest. */
export const logoutAnswerWindowMs = 10 * 60 * 1000;

/**
 * The key a LogoutRequest the gateway sent is remembered by until its
 * LogoutResponse takes it (UpstreamSessionStore.useOnce, takeOnce): the
 * entry's, so another entry's identity provider cannot answer it.
 */
export function sentLogoutRequestKey(entryId: string, requestId: string): string {
  return `saml-logout-request:${entryId}:${requestId}`;
}

interface SpLogoutOptions {
  readonly documents: FetchedDocuments;
  readonly publicUrl: string;
  readonly random: RandomSource;
  readonly providerSession: UpstreamSessionRecord | undefined;
  readonly now: number;
  expectAnswer(key: string, until: number): Promise<void>;
}

/**
 * SP-initiated single logout (SAML Profiles §4.4.3.1), once the gateway's
 * session has ended: a LogoutRequest naming the NameID and SessionIndex the
 * sign-in kept (keep-provider-session.ts), sent by the HTTP-Redirect
 * binding to the identity provider's SingleLogoutService, signed with the
 * entry's key pair when it has one (SAML Bindings §3.4.4.1); unsigned
 * otherwise, which the binding allows, though an identity provider that
 * insists on a signature refuses it and keeps its session. Undefined, and nothing sent, when the
 * session kept no NameID or the metadata names no such service; the
 * request's ID is remembered for its answer (logout-route.ts).
 */
export async function spLogoutRequest(
  entry: CompiledSamlEntry,
  options: SpLogoutOptions,
): Promise<LogoutRequest | undefined> {
  const kept = options.providerSession;
  if (kept === undefined || kept.subjectQualifiers === null || kept.entryId !== entry.id) {
    return undefined;
  }
  const idp = await identityProviderOf(entry, options.documents).catch(() => undefined);
  if (idp?.logout === undefined) return undefined;
  const endpoints = samlEndpoints(options.publicUrl, entry);
  // xs:ID is an NCName: it must not start with a digit (SAML Core §1.3.4).
  const id = `_${Buffer.from(options.random(20)).toString('hex')}`;
  await options.expectAnswer(
    sentLogoutRequestKey(entry.id, id),
    options.now + logoutAnswerWindowMs,
  );
  const xml = logoutRequestXml(
    {
      id,
      issueInstant: options.now,
      destination: idp.logout.url,
      issuer: endpoints.spEntityId,
    },
    {
      nameId: kept.subject,
      qualifiers: kept.subjectQualifiers,
      sessionIndex: kept.providerSid ?? undefined,
    },
  );
  return {
    channel: 'front',
    url: await redirectUrl(
      idp.logout.url,
      'SAMLRequest',
      xml,
      undefined,
      entry.saml.decryption?.privateKey,
    ),
  };
}

/** The origin the sign-out form's redirect may reach: the SingleLogoutService's, if any. */
export async function spLogoutDestination(
  entry: CompiledSamlEntry,
  documents: FetchedDocuments,
): Promise<string | undefined> {
  const idp = await identityProviderOf(entry, documents).catch(() => undefined);
  return idp?.logout?.url;
}
