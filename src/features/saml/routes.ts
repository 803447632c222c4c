import type { FastifyInstance } from 'fastify';
import { SsogateError, samlOf } from '../../core/index.js';
import { featureScope } from '../../foundation/http/feature-scope.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import { samlLogoutRoute } from './logout-route.js';
import { samlEndpoints } from './saml-endpoints.js';
import { loadNodeSaml } from './saml-modules.js';

/**
 * GET /_sso/saml/{id}/metadata: the service provider's metadata of a SAML
 * entry (SAML Metadata §2.4.4), for the identity provider's administrator:
 * its entityID and its AssertionConsumerService, the entry's callback, by
 * the HTTP-POST binding, and its SingleLogoutService by the HTTP-Redirect
 * binding (logout-route.ts); with the entry's key pair (saml.spCertificate),
 * that certificate in a KeyDescriptor use="encryption" (§2.4.1.1), for the
 * identity provider to encrypt assertions to, and in one use="signing", by
 * which it checks the gateway's signed messages, with
 * AuthnRequestsSigned="true" (§2.4.4). Public, as metadata is meant
 * to be: it holds no secret. Any other entry, or none, is entry_unknown.
 */
export async function samlRoutes(app: FastifyInstance, gateway: Gateway): Promise<void> {
  await featureScope(app, (scope) => {
    metadataRoute(scope, gateway);
    samlLogoutRoute(scope, gateway);
  });
}

function metadataRoute(app: FastifyInstance, gateway: Gateway): void {
  app.get<{ Params: { readonly id: string } }>(
    '/_sso/saml/:id/metadata',
    async (request, reply) => {
      const found = await gateway.entries.get(request.params.id);
      const entry = found === undefined ? undefined : samlOf(found);
      if (entry === undefined) {
        sendFailure(
          gateway,
          request,
          reply,
          new SsogateError('entry_unknown', `no SAML entry ${request.params.id}`),
          { as: 'json' },
        );
        return reply;
      }
      const endpoints = samlEndpoints(gateway.config.publicUrl, entry);
      const { generateServiceProviderMetadata } = await loadNodeSaml();
      const { decryption } = entry.saml;
      const metadata = withRedirectLogout(
        generateServiceProviderMetadata({
          issuer: endpoints.spEntityId,
          callbackUrl: endpoints.acsUrl,
          logoutCallbackUrl: endpoints.sloUrl,
          identifierFormat: null,
          wantAssertionsSigned: true,
          // node-saml publishes decryptionCert and publicCerts only when given a
          // key (and then AuthnRequestsSigned="true"); the key itself is not written.
          ...(decryption === undefined
            ? {}
            : {
                decryptionPvk: decryption.privateKey,
                decryptionCert: decryption.certificate,
                privateKey: decryption.privateKey,
                publicCerts: decryption.certificate,
              }),
        }),
        endpoints.sloUrl,
      );
      return reply
        .type('application/samlmetadata+xml; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(metadata);
    },
  );
}

/**
 * node-saml writes the SingleLogoutService in its place in the
 * SPSSODescriptor (SAML Metadata §2.4.2) but always with the HTTP-POST
 * binding; the gateway's takes HTTP-Redirect (logout-route.ts).
 */
function withRedirectLogout(metadata: string, sloUrl: string): string {
  const escaped = sloUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return metadata.replace(
    `Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${escaped}"`,
    `Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${escaped}"`,
  );
}
