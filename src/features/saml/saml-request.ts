import type { AuthorizationRequest, CompiledSamlEntry, RandomSource } from '../../core/index.js';
import { randomToken } from '../../core/index.js';
import type { FetchedDocuments } from '../../foundation/outbound/fetched-documents.js';
import { identityProviderOf } from './idp-metadata.js';
import { signedRedirectUrl } from './redirect-binding.js';
import { samlEndpoints } from './saml-endpoints.js';
import { loadNodeSaml } from './saml-modules.js';

/**
 * Flow step 2 of an entry of type saml: an AuthnRequest (SAML Core §3.4.1)
 * sent by the HTTP-Redirect binding (SAML Bindings §3.4), with the
 * sign-in's state as its RelayState; signed with the entry's key pair when
 * it has one (§3.4.4.1, as the metadata's AuthnRequestsSigned says),
 * unsigned otherwise. The request's ID is kept with the
 * pending sign-in (as its nonce): the response must answer it (InResponseTo).
 */
export async function samlAuthnRequest(
  entry: CompiledSamlEntry,
  options: {
    readonly publicUrl: string;
    readonly random: RandomSource;
    readonly stateBytes?: number;
    /** Where an identity provider's metadata fetched from its URL is kept. */
    readonly documents: FetchedDocuments;
  },
): Promise<AuthorizationRequest> {
  const state = randomToken(options.random, options.stateBytes);
  // xs:ID is an NCName: it must not start with a digit (SAML Core §1.3.4).
  const requestId = `_${Buffer.from(options.random(20)).toString('hex')}`;
  const endpoints = samlEndpoints(options.publicUrl, entry);
  const idp = await identityProviderOf(entry, options.documents);
  const { SAML } = await loadNodeSaml();
  const saml = new SAML({
    idpCert: [...idp.certificates],
    issuer: endpoints.spEntityId,
    callbackUrl: endpoints.acsUrl,
    entryPoint: idp.ssoUrl,
    generateUniqueId: () => requestId,
    // Any NameID format the identity provider has for the user.
    identifierFormat: null,
    disableRequestedAuthnContext: true,
  });
  // node-saml signs RSA keys only; the signature over the query is the gateway's own.
  const unsigned = await saml.getAuthorizeUrlAsync(state, undefined, {});
  const signingKey = entry.saml.decryption?.privateKey;
  const url = signingKey === undefined ? unsigned : signedRedirectUrl(unsigned, signingKey);
  return { url, state, redirectUri: endpoints.acsUrl, codeVerifier: undefined, nonce: requestId };
}
