import type { CompiledSamlEntry, MappedUser } from '../../core/index.js';
import { SignInError, coerceAttribute, excerpt, isSsogateError } from '../../core/index.js';
import type { ErrorCode } from '../../core/index.js';
import type { FetchedDocuments } from '../../foundation/outbound/fetched-documents.js';
import type { PendingSignIn, SubjectQualifiers } from '../../foundation/storage/types.js';
import type { SamlIdentityProvider } from './idp-metadata.js';
import { identityProviderOf } from './idp-metadata.js';
import type { SamlEndpoints } from './saml-endpoints.js';
import { loadNodeSaml, loadXmlDom } from './saml-modules.js';
import { childrenOf, xmlRootOf } from './xml-children.js';

const protocolNs = 'urn:oasis:names:tc:SAML:2.0:protocol';
const assertionNs = 'urn:oasis:names:tc:SAML:2.0:assertion';
const success = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const bearer = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** What reading a SAML response needs beyond the entry. */
interface SamlAnswerContext {
  readonly endpoints: SamlEndpoints;
  readonly clock: () => number;
  /** Where an identity provider's metadata fetched from its URL is kept. */
  readonly documents: FetchedDocuments;
  /**
   * Told of each check as it passes, and of each value read into the user:
   * an administrator's test sign-in records them (src/features/trial-sign-in/).
   */
  readonly checked?: (label: string, value: string) => void;
}

/**
 * What a SAML sign-in keeps for its logout (SAML Profiles §4.4): the
 * signed assertion's NameID, whole, and its AuthnStatement's SessionIndex,
 * which a LogoutRequest either way names (SAML Core §3.7.1).
 */
export interface SamlSignIn {
  readonly nameId: string;
  readonly qualifiers: SubjectQualifiers;
  readonly sessionIndex: string | undefined;
}

/** The user of a checked Response (readSamlSignIn), for callers that need no more. */
export async function readSamlAnswer(
  entry: CompiledSamlEntry,
  fields: Readonly<Record<string, unknown>>,
  pending: PendingSignIn,
  context: SamlAnswerContext,
): Promise<MappedUser> {
  return (await readSamlSignIn(entry, fields, pending, context)).user;
}

/**
 * Flow steps 10 to 14 of an entry of type saml: the Response posted to the
 * AssertionConsumerService (SAML Bindings §3.5, HTTP-POST) checked as the
 * Web Browser SSO profile asks of a service provider (SAML Profiles
 * §4.1.4.3), then its subject and attributes read into the user.
 *
 * The signature is node-saml's (over xml-crypto): over the whole Response
 * or over its one Assertion, with the entry's certificate only, and what is
 * read afterwards is only what that signature covers, so a second,
 * unsigned assertion wrapped around or beside the signed one is never read
 * (XML signature wrapping). The Response's own Status, Destination,
 * Issuer and InResponseTo are checked first, each refusal with its own
 * code (they may be unsigned when only the assertion is); then the signed
 * assertion's Issuer, its time conditions against the gateway's clock, its
 * audience, and its bearer confirmation's Recipient and InResponseTo, which
 * tie it to this callback and to this sign-in's AuthnRequest.
 */
export async function readSamlSignIn(
  entry: CompiledSamlEntry,
  fields: Readonly<Record<string, unknown>>,
  pending: PendingSignIn,
  context: SamlAnswerContext,
): Promise<{ readonly user: MappedUser; readonly signIn: SamlSignIn | undefined }> {
  const refuse = (code: ErrorCode, message: string) =>
    new SignInError(code, message, { entryId: entry.id });
  const { endpoints } = context;
  const checked = context.checked ?? (() => undefined);
  const idp = await identityProviderOf(entry, context.documents);
  const encoded = fields.SAMLResponse;
  if (typeof encoded !== 'string' || encoded === '') {
    throw refuse('saml_response_invalid', 'the callback carries no single SAMLResponse');
  }
  const { DOMParser } = await loadXmlDom();
  const xml = Buffer.from(encoded, 'base64').toString('utf8');
  const response = xmlRootOf(DOMParser, xml);
  if (response?.namespaceURI !== protocolNs || response.localName !== 'Response') {
    throw refuse('saml_response_invalid', 'the SAMLResponse is not a SAML 2.0 Response');
  }

  // The protocol message itself (SAML Core §3.2.2). Its Status first: an
  // identity provider's refusal is often unsigned, and says the most.
  const statusCode = firstChild(
    firstChild(response, protocolNs, 'Status'),
    protocolNs,
    'StatusCode',
  );
  const status = statusCode?.getAttribute('Value') ?? '';
  if (status !== success) {
    const message = firstChild(
      firstChild(response, protocolNs, 'Status'),
      protocolNs,
      'StatusMessage',
    );
    const inner = firstChild(statusCode, protocolNs, 'StatusCode')?.getAttribute('Value');
    const said = [status, inner, message?.textContent]
      .filter((part): part is string => part !== undefined && part !== null && part !== '')
      .join(' ');
    throw new SignInError('saml_status', `the identity provider answered ${excerpt(said, 300)}`, {
      entryId: entry.id,
      publicDetail: excerpt(said, 300),
    });
  }
  checked('Status', status);
  // SAML Bindings §3.5.5.2: a Destination must be the URL the message was delivered to.
  const destination = response.getAttribute('Destination');
  if (destination !== null && destination !== '' && destination !== endpoints.acsUrl) {
    throw refuse('saml_destination_mismatch', `the Response is for ${excerpt(destination, 200)}`);
  }
  checked(
    'Response Destination',
    destination === null || destination === '' ? '(none)' : destination,
  );
  const responseIssuer = firstChild(response, assertionNs, 'Issuer')?.textContent;
  if (responseIssuer !== undefined && responseIssuer.trim() !== idp.entityId) {
    throw refuse(
      'saml_issuer_mismatch',
      `the Response was issued by ${excerpt(responseIssuer, 200)}`,
    );
  }
  checked('Response Issuer', responseIssuer?.trim() ?? '(none)');
  const requestId = pending.nonce ?? '';
  if (requestId === '' || response.getAttribute('InResponseTo') !== requestId) {
    throw refuse(
      'saml_in_response_to_mismatch',
      'the Response answers another AuthnRequest, or none',
    );
  }
  checked('Response InResponseTo', requestId);
  // SAML Core §2.3.4: an assertion encrypted to the key of saml.spCertificate.
  const encrypted = firstChild(response, assertionNs, 'EncryptedAssertion') !== undefined;
  if (encrypted && entry.saml.decryption === undefined) {
    throw refuse(
      'saml_decryption_failed',
      'the assertion is encrypted, and the entry holds no service provider key (saml.spCertificate and its appsecret) to read it',
    );
  }

  if (encrypted) {
    const weak = weakEncryption(firstChild(response, assertionNs, 'EncryptedAssertion'));
    if (weak !== undefined) {
      throw refuse(
        'saml_decryption_failed',
        `the assertion is encrypted by ${weak}, which the gateway does not decrypt; have the identity provider use RSA-OAEP and AES`,
      );
    }
  }

  const signed = await signedAssertion(entry, idp, encoded, encrypted, refuse);
  if (encrypted) checked('EncryptedAssertion', "decrypted with the entry's key");
  const assertion = xmlRootOf(DOMParser, signed);
  if (assertion?.namespaceURI !== assertionNs || assertion.localName !== 'Assertion') {
    throw refuse('saml_signature_invalid', 'the signed content holds no assertion');
  }
  checked('signature', "holds, by the identity provider's certificate, over the assertion read");
  checkAssertion(entry, idp, assertion, requestId, context, refuse, checked);
  const user = userOf(entry, assertion, refuse);
  const names = entry.saml.attributes;
  checked(`userId ← ${names.userId ?? 'NameID'}`, user.userId);
  if (user.userName !== undefined) checked(`name ← ${names.name ?? ''}`, user.userName);
  if (user.email !== undefined) checked(`email ← ${names.email ?? ''}`, user.email);
  if (user.groups !== undefined) checked(`groups ← ${names.groups ?? ''}`, user.groups.join(', '));
  return { user, signIn: signInOf(assertion) };
}

/** The signed assertion's NameID and SessionIndex; undefined without a NameID to name. */
function signInOf(assertion: Element): SamlSignIn | undefined {
  const nameId = firstChild(firstChild(assertion, assertionNs, 'Subject'), assertionNs, 'NameID');
  const value = nameId?.textContent.trim() ?? '';
  if (nameId === undefined || value === '') return undefined;
  const attribute = (name: string) => {
    const given = nameId.getAttribute(name);
    return given === null || given === '' ? undefined : given;
  };
  const format = attribute('Format');
  const nameQualifier = attribute('NameQualifier');
  const spNameQualifier = attribute('SPNameQualifier');
  const sessionIndex = firstChild(assertion, assertionNs, 'AuthnStatement')?.getAttribute(
    'SessionIndex',
  );
  return {
    nameId: value,
    qualifiers: {
      ...(format === undefined ? {} : { format }),
      ...(nameQualifier === undefined ? {} : { nameQualifier }),
      ...(spNameQualifier === undefined ? {} : { spNameQualifier }),
    },
    sessionIndex: sessionIndex === null || sessionIndex === '' ? undefined : sessionIndex,
  };
}

/** The assertion's XML exactly as the signature covers it, or saml_signature_invalid. */
async function signedAssertion(
  entry: CompiledSamlEntry,
  idp: SamlIdentityProvider,
  encoded: string,
  encrypted: boolean,
  refuse: (code: ErrorCode, message: string) => SignInError,
): Promise<string> {
  const { SAML, ValidateInResponseTo } = await loadNodeSaml();
  const { decryption } = entry.saml;
  const saml = new SAML({
    idpCert: [...idp.certificates],
    // The EncryptedAssertion is decrypted first; its signature is then checked as any assertion's.
    ...(decryption === undefined ? {} : { decryptionPvk: decryption.privateKey }),
    issuer: 'unused: no request is made here',
    callbackUrl: 'unused: no request is made here',
    // An assertion is read only when a valid signature of the certificate
    // covers it: its own, or (wantAssertionsSigned false) the Response's.
    // A signed assertion inside an unsigned Response is always enough.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: entry.saml.wantAssertionsSigned,
    // Checked below on the signed assertion, each with its own code and the gateway's clock.
    audience: false,
    acceptedClockSkewMs: -1,
    validateInResponseTo: ValidateInResponseTo.never,
  });
  let xml: string | undefined;
  try {
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: encoded });
    xml = profile?.getAssertionXml?.();
  } catch (error) {
    // node-saml decrypts before it checks the assertion's signature: any
    // failure of its own that is no signature's is the decryption's (a key
    // the identity provider did not encrypt to, an unknown algorithm).
    if (encrypted && !isSignatureFailure(error)) {
      throw new SignInError(
        'saml_decryption_failed',
        "the encrypted assertion could not be decrypted with the entry's key: the identity provider encrypted it to another key, or by an algorithm not supported",
        { entryId: entry.id, cause: error },
      );
    }
    throw new SignInError(
      'saml_signature_invalid',
      `the Response's signature does not hold: ${error instanceof Error ? excerpt(error.message, 200) : 'unreadable'}`,
      { entryId: entry.id, cause: error },
    );
  }
  if (xml === undefined)
    throw refuse('saml_signature_invalid', 'the Response holds no signed assertion');
  return xml;
}

/**
 * Algorithms refused before any decryption (XML Encryption 1.1 §5.4.1 and
 * §5.5.1 warn of both): RSA PKCS#1 v1.5 key transport, whose errors are a
 * padding oracle, and triple DES. The library under node-saml would
 * decrypt them, only warning.
 */
const weakAlgorithms = new Map([
  ['http://www.w3.org/2001/04/xmlenc#rsa-1_5', 'rsa-1_5'],
  ['http://www.w3.org/2001/04/xmlenc#tripledes-cbc', 'tripledes-cbc'],
]);

/** The name of a refused algorithm the EncryptedAssertion names anywhere in it, if any. */
function weakEncryption(encrypted: Element | undefined): string | undefined {
  const methods = Array.from(
    encrypted?.getElementsByTagNameNS('http://www.w3.org/2001/04/xmlenc#', 'EncryptionMethod') ??
      [],
  );
  for (const method of methods) {
    const name = weakAlgorithms.get(method.getAttribute('Algorithm') ?? '');
    if (name !== undefined) return name;
  }
  return undefined;
}

/** Whether node-saml's error is one of its signature checks (saml.js validatePostResponseAsync). */
function isSignatureFailure(error: unknown): boolean {
  return error instanceof Error && /signature/i.test(error.message);
}

/** SAML Core §2.3.3 to §2.5 and Profiles §4.1.4.3, on the signed assertion. */
function checkAssertion(
  entry: CompiledSamlEntry,
  idp: SamlIdentityProvider,
  assertion: Element,
  requestId: string,
  { endpoints, clock }: SamlAnswerContext,
  refuse: (code: ErrorCode, message: string) => SignInError,
  checked: (label: string, value: string) => void,
): void {
  const issuer = firstChild(assertion, assertionNs, 'Issuer')?.textContent.trim();
  if (issuer !== idp.entityId) {
    throw refuse(
      'saml_issuer_mismatch',
      `the assertion was issued by ${excerpt(issuer ?? 'no one', 200)}`,
    );
  }
  checked('assertion Issuer', issuer);
  const now = clock();
  const skewMs = entry.saml.clockSkewSeconds * 1000;
  const conditions = childrenOf(assertion, assertionNs, 'Conditions');
  if (conditions.length !== 1) {
    throw refuse('saml_response_invalid', 'the assertion must have exactly one Conditions');
  }
  const [condition] = conditions as [Element];
  checkTimes(condition, now, skewMs, 'Conditions', refuse);
  checked('Conditions times', timesOf(condition, skewMs));
  // SAML Core §2.5.1.4: every AudienceRestriction must name this service provider.
  const restrictions = childrenOf(condition, assertionNs, 'AudienceRestriction');
  if (restrictions.length === 0) {
    throw refuse('saml_audience_mismatch', 'the assertion names no audience');
  }
  for (const restriction of restrictions) {
    const audiences = childrenOf(restriction, assertionNs, 'Audience').map((one) =>
      one.textContent.trim(),
    );
    if (!audiences.includes(endpoints.spEntityId)) {
      throw refuse(
        'saml_audience_mismatch',
        `the assertion is for ${excerpt(audiences.join(', '), 200)}, not ${endpoints.spEntityId}`,
      );
    }
  }
  checked('Audience', endpoints.spEntityId);
  // Profiles §4.1.4.2: a bearer confirmation for this ACS, answering this request, still valid.
  const subject = firstChild(assertion, assertionNs, 'Subject');
  const confirmations = childrenOf(subject, assertionNs, 'SubjectConfirmation')
    .filter((confirmation) => confirmation.getAttribute('Method') === bearer)
    .map((confirmation) => firstChild(confirmation, assertionNs, 'SubjectConfirmationData'));
  if (confirmations.length === 0) {
    throw refuse('saml_response_invalid', 'the assertion has no bearer SubjectConfirmation');
  }
  const data = confirmations.find((one) => one?.getAttribute('Recipient') === endpoints.acsUrl);
  if (data === undefined) {
    throw refuse(
      'saml_destination_mismatch',
      `no bearer confirmation names ${endpoints.acsUrl} as Recipient`,
    );
  }
  checked('SubjectConfirmationData Recipient', endpoints.acsUrl);
  if (data.getAttribute('InResponseTo') !== requestId) {
    throw refuse(
      'saml_in_response_to_mismatch',
      'the assertion answers another AuthnRequest, or none',
    );
  }
  checked('SubjectConfirmationData InResponseTo', requestId);
  if (!data.hasAttribute('NotOnOrAfter')) {
    throw refuse('saml_response_invalid', 'the bearer confirmation has no NotOnOrAfter');
  }
  checkTimes(data, now, skewMs, 'SubjectConfirmationData', refuse);
  checked('SubjectConfirmationData times', timesOf(data, skewMs));
}

/** An element's validity window as the trace shows it, once checked. */
function timesOf(element: Element, skewMs: number): string {
  const notBefore = element.getAttribute('NotBefore');
  const notOnOrAfter = element.getAttribute('NotOnOrAfter');
  return [
    `NotBefore ${notBefore === null || notBefore === '' ? '(none)' : notBefore}`,
    `NotOnOrAfter ${notOnOrAfter === null || notOnOrAfter === '' ? '(none)' : notOnOrAfter}`,
    `${skewMs / 1000} s of clock skew allowed`,
  ].join(', ');
}

/** NotBefore and NotOnOrAfter (SAML Core §2.5.1.2), each given `skewMs` of grace. */
function checkTimes(
  element: Element,
  now: number,
  skewMs: number,
  name: string,
  refuse: (code: ErrorCode, message: string) => SignInError,
): void {
  const time = (attribute: string): number | undefined => {
    const value = element.getAttribute(attribute);
    if (value === null || value === '') return undefined;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw refuse('saml_response_invalid', `${name}/@${attribute} is no time`);
    return ms;
  };
  const notBefore = time('NotBefore');
  const notOnOrAfter = time('NotOnOrAfter');
  if (notBefore !== undefined && now + skewMs < notBefore) {
    throw refuse(
      'saml_assertion_expired',
      `${name} is not valid before ${new Date(notBefore).toISOString()}`,
    );
  }
  if (notOnOrAfter !== undefined && now - skewMs >= notOnOrAfter) {
    throw refuse(
      'saml_assertion_expired',
      `${name} expired at ${new Date(notOnOrAfter).toISOString()}`,
    );
  }
}

/** The NameID or the named attribute as userId; name, email and groups from their attributes. */
function userOf(
  entry: CompiledSamlEntry,
  assertion: Element,
  refuse: (code: ErrorCode, message: string) => SignInError,
): MappedUser {
  const names = entry.saml.attributes;
  const values = attributeValues(assertion);
  const nameId = firstChild(
    firstChild(assertion, assertionNs, 'Subject'),
    assertionNs,
    'NameID',
  )?.textContent.trim();
  const rawUserId = names.userId === undefined ? nameId : values.get(names.userId)?.[0];
  if (rawUserId === undefined || rawUserId === '') {
    throw refuse(
      'user_id_missing',
      names.userId === undefined
        ? 'the assertion has no NameID'
        : `the assertion has no attribute ${names.userId}`,
    );
  }
  const one = (attribute: 'userName' | 'email', name: string | undefined) => {
    const value = name === undefined ? undefined : values.get(name)?.[0];
    return value === undefined ? {} : { [attribute]: coerceAttribute(attribute, value) as string };
  };
  try {
    const userId = coerceAttribute('userId', rawUserId) as string;
    const groups =
      names.groups === undefined ? undefined : [...new Set(values.get(names.groups) ?? [])];
    return {
      userId,
      ...one('userName', names.name),
      ...one('email', names.email),
      extra: {},
      ...(groups === undefined ? {} : { groups }),
    };
  } catch (error) {
    if (!isSsogateError(error)) throw error;
    throw new SignInError(error.code, error.message, { entryId: entry.id, cause: error });
  }
}

/** Each attribute's text values by its Name (SAML Core §2.7.3.1). */
function attributeValues(assertion: Element): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const statement of childrenOf(assertion, assertionNs, 'AttributeStatement')) {
    for (const attribute of childrenOf(statement, assertionNs, 'Attribute')) {
      const name = attribute.getAttribute('Name') ?? '';
      const texts = childrenOf(attribute, assertionNs, 'AttributeValue')
        .map((value) => value.textContent.trim())
        .filter((text) => text !== '');
      values.set(name, [...(values.get(name) ?? []), ...texts]);
    }
  }
  return values;
}

function firstChild(parent: Element | undefined, ns: string, name: string): Element | undefined {
  return childrenOf(parent, ns, name)[0];
}
