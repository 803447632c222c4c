import type { FastifyInstance } from 'fastify';
import { SsogateError, samlOf } from '../../core/index.js';
import { featureScope } from '../../foundation/http/feature-scope.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { sendFailure } from '../../foundation/http/respond.js';
import { samlEndpoints } from './saml-endpoints.js';
import { loadNodeSaml } from './saml-modules.js';

/**
 * GET /_sso/saml/{id}/metadata: the service provider's metadata of a SAML
 * entry (SAML Metadata §2.4.4), for the identity provider's administrator:
 * its entityID and its AssertionConsumerService, the entry's callback, by
 * the HTTP-POST binding; with the entry's key pair (saml.spCertificate), a
 * KeyDescriptor use="encryption" with that certificate (§2.4.1.1), for the
 * identity provider to encrypt assertions to. Public, as metadata is meant
 * to be: it holds no secret. Any other entry, or none, is entry_unknown.
 */
export async function samlRoutes(app: FastifyInstance, gateway: Gateway): Promise<void> {
  await featureScope(app, (scope) => {
    metadataRoute(scope, gateway);
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
      const metadata = generateServiceProviderMetadata({
        issuer: endpoints.spEntityId,
        callbackUrl: endpoints.acsUrl,
        identifierFormat: null,
        wantAssertionsSigned: true,
        // node-saml publishes decryptionCert only when given a key; the key itself is not written.
        ...(decryption === undefined
          ? {}
          : { decryptionPvk: decryption.privateKey, decryptionCert: decryption.certificate }),
      });
      return reply
        .type('application/samlmetadata+xml; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(metadata);
    },
  );
}
