import type { CompiledSamlEntry, ErrorCode } from '../../core/index.js';
import { SignInError, excerpt } from '../../core/index.js';
import type { FetchedDocuments } from '../../foundation/outbound/fetched-documents.js';
import { loadXmlDom } from './saml-modules.js';
import { xmlRootOf } from './xml-children.js';

const metadataNs = 'urn:oasis:names:tc:SAML:2.0:metadata';

/**
 * How long a fetched metadata document is used before it is fetched again,
 * unless it asks for less (its cacheDuration, its validUntil). An hour: a
 * certificate the identity provider rolls over is taken up within it.
 */
const metadataRefreshMs = 60 * 60 * 1000;
/** One identity provider's metadata is a few kilobytes; a federation's list, more. */
const maxMetadataBytes = 1024 * 1024;

/**
 * The identity provider's metadata document fetched from the entry's
 * `saml.idpMetadataUrl` (SAML Metadata §4.1, publication by a well-known
 * location), through the gateway's outbound client and kept by `documents`
 * (src/foundation/outbound/fetched-documents.ts), read by `read`. The
 * document is refused (`saml_metadata_invalid`) when it is not well-formed
 * XML, has a document type declaration (the way to entity expansion and
 * external fetches), is no EntityDescriptor or EntitiesDescriptor, or is
 * past its validUntil (§2.2.1); its cacheDuration and validUntil bring its
 * next fetch forward. A fetch that fails with no earlier copy is
 * `saml_metadata_unavailable`.
 */
export async function fetchedMetadata<T>(
  entry: CompiledSamlEntry,
  url: string,
  documents: FetchedDocuments,
  read: (xml: string) => Promise<T>,
): Promise<T> {
  const refuse = (code: ErrorCode, message: string, cause?: unknown) =>
    new SignInError(code, message, { entryId: entry.id, cause });
  // Named by host and path: a query could hold an access token.
  const where = nameOf(url);
  return documents.get({
    key: `saml-metadata\n${url}\n${entry.saml.idpEntityId ?? ''}`,
    url,
    accept: 'application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.8',
    timeoutMs: entry.timeoutMs,
    maxBytes: maxMetadataBytes,
    refreshMs: metadataRefreshMs,
    unavailable: (reason, cause) =>
      refuse(
        'saml_metadata_unavailable',
        `the identity provider's metadata at ${where} could not be fetched: ${excerpt(reason, 300)}`,
        cause,
      ),
    read: async (xml, now) => {
      const root = await rootOf(xml);
      if (typeof root === 'string') {
        throw refuse('saml_metadata_invalid', `the metadata at ${where} ${root}`);
      }
      const validUntil = timeOf(root.getAttribute('validUntil'));
      if (validUntil !== undefined && validUntil <= now) {
        throw refuse(
          'saml_metadata_invalid',
          `the metadata at ${where} expired at ${new Date(validUntil).toISOString()} (validUntil)`,
        );
      }
      const cacheMs = durationMs(root.getAttribute('cacheDuration'));
      const refreshBy = Math.min(
        cacheMs === undefined ? Number.POSITIVE_INFINITY : now + cacheMs,
        validUntil ?? Number.POSITIVE_INFINITY,
      );
      return {
        value: await read(xml),
        ...(Number.isFinite(refreshBy) ? { refreshBy } : {}),
        ...(validUntil === undefined ? {} : { expiresAt: validUntil }),
      };
    },
  });
}

/** The document's root element, or what is wrong with it. */
async function rootOf(xml: string): Promise<Element | string> {
  if (/<!DOCTYPE/i.test(xml)) return 'has a document type declaration, which metadata never needs';
  const { DOMParser } = await loadXmlDom();
  const root = xmlRootOf(DOMParser, xml);
  if (root === undefined) return 'is not well-formed XML';
  if (
    root.namespaceURI !== metadataNs ||
    (root.localName !== 'EntityDescriptor' && root.localName !== 'EntitiesDescriptor')
  ) {
    return 'is not a SAML metadata document (an EntityDescriptor or EntitiesDescriptor)';
  }
  return root;
}

function timeOf(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * An xs:duration (XML Schema Part 2 §3.2.6), as cacheDuration carries it:
 * PnYnMnDTnHnMnS, a year taken as 365 days and a month as 30. Undefined
 * when it is none, or negative.
 */
function durationMs(value: string | null): number | undefined {
  const text = value?.trim() ?? '';
  const match =
    /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
      text,
    );
  // "P" alone, or a "T" with no time after it, is no duration.
  if (match === null || text === 'P' || text.endsWith('T')) return undefined;
  const [years = 0, months = 0, days = 0, hours = 0, minutes = 0, seconds = 0] = match
    .slice(1)
    // A group that did not match is undefined at run time, whatever its type says.
    .map((part) => Number((part as string | undefined) ?? 0));
  const day = 24 * 60 * 60;
  return (
    (years * 365 * day + months * 30 * day + days * day + hours * 3600 + minutes * 60 + seconds) *
    1000
  );
}

function nameOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}
