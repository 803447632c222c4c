import type { CompiledSamlEntry } from '../../core/index.js';
import { SignInError, readCertificate } from '../../core/index.js';
import type { FetchedDocuments } from '../../foundation/outbound/fetched-documents.js';
import { fetchedMetadata } from './idp-metadata-url.js';
import { loadXmlDom } from './saml-modules.js';
import { childrenOf, xmlRootOf } from './xml-children.js';

const metadataNs = 'urn:oasis:names:tc:SAML:2.0:metadata';
const signatureNs = 'http://www.w3.org/2000/09/xmldsig#';
const redirectBinding = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const samlProtocol = 'urn:oasis:names:tc:SAML:2.0:protocol';

/** What the gateway needs of an identity provider, from the entry or its metadata. */
export interface SamlIdentityProvider {
  readonly ssoUrl: string;
  readonly entityId: string;
  /** Each certificate it may sign with, PEM: metadata may list two while a key rolls over. */
  readonly certificates: readonly string[];
  /**
   * Its SingleLogoutService for the HTTP-Redirect binding (SAML Metadata
   * §2.2.2, Profiles §4.4), read from its metadata only: where a
   * LogoutRequest goes, and (ResponseLocation, else Location) a LogoutResponse.
   */
  readonly logout?: { readonly url: string; readonly responseUrl: string };
}

/** Parsed once per metadata text: compiled entries are rebuilt on any change. */
const parsed = new Map<string, Partial<SamlIdentityProvider>>();

/**
 * The identity provider of an entry of type saml: its ssoUrl, idpEntityId
 * and idpCertificate where given, the rest read from its idpMetadataXml,
 * or from the document at its idpMetadataUrl as `documents` holds it
 * (idp-metadata-url.ts) (SAML Metadata §2.3.2 EntityDescriptor, §2.4.3
 * IDPSSODescriptor), and its SingleLogoutService, if any, from the metadata
 * alone. A
 * metadata document that does not say what is missing is the entry's
 * fault, reported as `saml_metadata_invalid`.
 */
export async function identityProviderOf(
  entry: CompiledSamlEntry,
  documents: FetchedDocuments,
): Promise<SamlIdentityProvider> {
  const { saml } = entry;
  if (saml.idpMetadataUrl !== undefined) {
    // A fetched copy is kept only when complete: a refresh that lacks a part keeps the last good one.
    const fetched = await fetchedMetadata(entry, saml.idpMetadataUrl, documents, async (xml) => {
      const said = await metadataOf(xml, saml.idpEntityId);
      completed(entry, said);
      return said;
    });
    return completed(entry, fetched);
  }
  const fromMetadata =
    saml.idpMetadataXml === undefined
      ? {}
      : await readMetadata(saml.idpMetadataXml, saml.idpEntityId);
  return completed(entry, fromMetadata);
}

/** The entry's own fields over what the metadata says, or saml_metadata_invalid when a part is missing. */
function completed(
  entry: CompiledSamlEntry,
  fromMetadata: Partial<SamlIdentityProvider>,
): SamlIdentityProvider {
  const { saml } = entry;
  const ssoUrl = saml.ssoUrl ?? fromMetadata.ssoUrl;
  const entityId = saml.idpEntityId ?? fromMetadata.entityId;
  const certificates =
    saml.idpCertificate === undefined ? (fromMetadata.certificates ?? []) : [saml.idpCertificate];
  if (ssoUrl === undefined || entityId === undefined || certificates.length === 0) {
    const missing = [
      ssoUrl === undefined ? 'an HTTP-Redirect SingleSignOnService' : undefined,
      entityId === undefined ? 'an entityID' : undefined,
      certificates.length === 0 ? 'a signing certificate' : undefined,
    ].filter((part) => part !== undefined);
    throw new SignInError(
      'saml_metadata_invalid',
      `the identity provider's metadata gives no ${missing.join(', ')}`,
      { entryId: entry.id },
    );
  }
  return {
    ssoUrl,
    entityId,
    certificates,
    ...(fromMetadata.logout === undefined ? {} : { logout: fromMetadata.logout }),
  };
}

async function readMetadata(
  xml: string,
  wantedEntityId: string | undefined,
): Promise<Partial<SamlIdentityProvider>> {
  const key = `${wantedEntityId ?? ''}\n${xml}`;
  const known = parsed.get(key);
  if (known !== undefined) return known;
  const result = await metadataOf(xml, wantedEntityId);
  parsed.set(key, result);
  return result;
}

/** What a metadata document says of the identity provider; {} when it is no such document. */
async function metadataOf(
  xml: string,
  wantedEntityId: string | undefined,
): Promise<Partial<SamlIdentityProvider>> {
  const { DOMParser } = await loadXmlDom();
  const root = xmlRootOf(DOMParser, xml);
  // An EntityDescriptor, or an EntitiesDescriptor (a federation's) holding it.
  const candidates =
    root === undefined
      ? []
      : root.namespaceURI === metadataNs && root.localName === 'EntityDescriptor'
        ? [root]
        : Array.from(root.getElementsByTagNameNS(metadataNs, 'EntityDescriptor'));
  const idps = candidates.filter(
    (one) =>
      idpDescriptorOf(one) !== undefined &&
      (wantedEntityId === undefined || one.getAttribute('entityID') === wantedEntityId),
  );
  const result: Partial<SamlIdentityProvider> = {};
  // Several identity providers and no idpEntityId to choose: none is guessed.
  if (idps.length === 1) {
    const [entity] = idps as [Element];
    const descriptor = idpDescriptorOf(entity);
    const sso = childrenOf(descriptor, metadataNs, 'SingleSignOnService').find(
      (service) => service.getAttribute('Binding') === redirectBinding,
    );
    const location = sso?.getAttribute('Location') ?? '';
    const certificates = childrenOf(descriptor, metadataNs, 'KeyDescriptor')
      // SAML Metadata §2.4.1.1: no `use` means both signing and encryption.
      .filter((key) => (key.getAttribute('use') ?? 'signing') !== 'encryption')
      .flatMap((key) => Array.from(key.getElementsByTagNameNS(signatureNs, 'X509Certificate')))
      .map((certificate) => readCertificate(certificate.textContent))
      .filter((pem): pem is string => pem !== undefined);
    const slo = childrenOf(descriptor, metadataNs, 'SingleLogoutService').find(
      (service) => service.getAttribute('Binding') === redirectBinding,
    );
    const sloUrl = slo?.getAttribute('Location') ?? '';
    const sloResponseUrl = slo?.getAttribute('ResponseLocation') ?? '';
    Object.assign(result, {
      ...(entity.getAttribute('entityID') ? { entityId: entity.getAttribute('entityID') } : {}),
      ...(/^https?:\/\//.test(location) ? { ssoUrl: location } : {}),
      ...(certificates.length > 0 ? { certificates: [...new Set(certificates)] } : {}),
      ...(/^https?:\/\//.test(sloUrl)
        ? {
            logout: {
              url: sloUrl,
              responseUrl: /^https?:\/\//.test(sloResponseUrl) ? sloResponseUrl : sloUrl,
            },
          }
        : {}),
    });
  }
  return result;
}

function idpDescriptorOf(entity: Element | undefined): Element | undefined {
  return childrenOf(entity, metadataNs, 'IDPSSODescriptor').find((descriptor) =>
    (descriptor.getAttribute('protocolSupportEnumeration') ?? '')
      .split(/\s+/)
      .includes(samlProtocol),
  );
}
