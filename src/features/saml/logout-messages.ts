import { SsogateError } from '../../core/index.js';
import type { SubjectQualifiers } from '../../foundation/storage/types.js';
import { loadXmlDom } from './saml-modules.js';
import { childrenOf, xmlRootOf } from './xml-children.js';

const protocolNs = 'urn:oasis:names:tc:SAML:2.0:protocol';
const assertionNs = 'urn:oasis:names:tc:SAML:2.0:assertion';
export const statusSuccess = 'urn:oasis:names:tc:SAML:2.0:status:Success';

/** The header every message of the gateway's carries (SAML Core §3.2.1). */
interface MessageHeader {
  readonly id: string;
  readonly issueInstant: number;
  readonly destination: string;
  readonly issuer: string;
}

/** A LogoutRequest (SAML Core §3.7.1) naming one user and, when known, one session. */
export function logoutRequestXml(
  header: MessageHeader,
  subject: {
    readonly nameId: string;
    readonly qualifiers: SubjectQualifiers;
    readonly sessionIndex: string | undefined;
  },
): string {
  const { format, nameQualifier, spNameQualifier } = subject.qualifiers;
  const nameIdAttributes = [
    nameQualifier === undefined ? '' : ` NameQualifier="${escapeXml(nameQualifier)}"`,
    spNameQualifier === undefined ? '' : ` SPNameQualifier="${escapeXml(spNameQualifier)}"`,
    format === undefined ? '' : ` Format="${escapeXml(format)}"`,
  ].join('');
  return [
    `<samlp:LogoutRequest xmlns:samlp="${protocolNs}" xmlns:saml="${assertionNs}"`,
    `${headerAttributes(header)}>`,
    `<saml:Issuer>${escapeXml(header.issuer)}</saml:Issuer>`,
    `<saml:NameID${nameIdAttributes}>${escapeXml(subject.nameId)}</saml:NameID>`,
    subject.sessionIndex === undefined
      ? ''
      : `<samlp:SessionIndex>${escapeXml(subject.sessionIndex)}</samlp:SessionIndex>`,
    '</samlp:LogoutRequest>',
  ].join('');
}

/** A LogoutResponse (SAML Core §3.7.2) answering one LogoutRequest. */
export function logoutResponseXml(
  header: MessageHeader,
  answer: { readonly inResponseTo: string; readonly status: string },
): string {
  return [
    `<samlp:LogoutResponse xmlns:samlp="${protocolNs}" xmlns:saml="${assertionNs}"`,
    `${headerAttributes(header)} InResponseTo="${escapeXml(answer.inResponseTo)}">`,
    `<saml:Issuer>${escapeXml(header.issuer)}</saml:Issuer>`,
    `<samlp:Status><samlp:StatusCode Value="${escapeXml(answer.status)}"/></samlp:Status>`,
    '</samlp:LogoutResponse>',
  ].join('');
}

/** What the gateway reads of a LogoutRequest or a LogoutResponse it receives. */
export interface LogoutMessage {
  readonly kind: 'LogoutRequest' | 'LogoutResponse';
  readonly id: string;
  /** Milliseconds, or undefined when it is not an xs:dateTime. */
  readonly issueInstant: number | undefined;
  readonly destination: string | undefined;
  readonly issuer: string | undefined;
  readonly inResponseTo: string | undefined;
  /** A LogoutRequest's NotOnOrAfter (SAML Core §3.7.1), milliseconds. */
  readonly notOnOrAfter: number | undefined;
  /** A LogoutRequest's NameID value (an EncryptedID is not read). */
  readonly nameId: string | undefined;
  readonly sessionIndexes: readonly string[];
  /** A LogoutResponse's top-level StatusCode. */
  readonly status: string | undefined;
}

/**
 * Reads a logout message's XML, refusing anything else, and any document
 * type declaration (the way to XML's expansion attacks), as
 * `saml_logout_invalid`.
 */
export async function readLogoutMessage(xml: string): Promise<LogoutMessage> {
  const invalid = (message: string) => new SsogateError('saml_logout_invalid', message);
  if (/<!DOCTYPE/i.test(xml)) throw invalid('the message has a document type declaration');
  const { DOMParser } = await loadXmlDom();
  const root = logoutRoot(DOMParser, xml);
  if (root === undefined) {
    throw invalid('the message is not a SAML 2.0 LogoutRequest or LogoutResponse');
  }
  const kind = root.localName as 'LogoutRequest' | 'LogoutResponse';
  const attribute = (element: Element | undefined, name: string) => {
    const value = element?.getAttribute(name);
    return value === null || value === undefined || value === '' ? undefined : value;
  };
  const time = (name: string) => {
    const value = attribute(root, name);
    const ms = value === undefined ? Number.NaN : Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  };
  const id = attribute(root, 'ID');
  if (id === undefined) throw invalid(`the ${kind} has no ID`);
  const [issuer] = childrenOf(root, assertionNs, 'Issuer');
  const [nameId] = childrenOf(root, assertionNs, 'NameID');
  const [status] = childrenOf(root, protocolNs, 'Status');
  const [statusCode] = childrenOf(status, protocolNs, 'StatusCode');
  return {
    kind,
    id,
    issueInstant: time('IssueInstant'),
    destination: attribute(root, 'Destination'),
    issuer: issuer?.textContent.trim(),
    inResponseTo: attribute(root, 'InResponseTo'),
    notOnOrAfter: time('NotOnOrAfter'),
    nameId: nameId?.textContent.trim(),
    sessionIndexes: childrenOf(root, protocolNs, 'SessionIndex')
      .map((one) => one.textContent.trim())
      .filter((one) => one !== ''),
    status: attribute(statusCode, 'Value'),
  };
}

/**
 * The document's root when it is well-formed XML and a LogoutRequest or
 * LogoutResponse of SAML 2.0's protocol; anything else (an empty text, no
 * root, a parser that throws) is undefined.
 */
function logoutRoot(
  DOMParser: (typeof import('@xmldom/xmldom'))['DOMParser'],
  xml: string,
): Element | undefined {
  const root = xmlRootOf(DOMParser, xml);
  const kind = root?.localName;
  return root?.namespaceURI === protocolNs &&
    (kind === 'LogoutRequest' || kind === 'LogoutResponse')
    ? root
    : undefined;
}

function headerAttributes({ id, issueInstant, destination }: MessageHeader): string {
  return ` ID="${escapeXml(id)}" Version="2.0" IssueInstant="${new Date(issueInstant).toISOString()}" Destination="${escapeXml(destination)}"`;
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
