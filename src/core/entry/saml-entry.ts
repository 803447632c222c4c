import { X509Certificate, createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import type { CompiledEntry, CompiledSaml, CompiledSamlEntry } from './compiled-entry.js';
import type { ProblemList } from './compile-fields.js';
import { asRecord, textField } from './compile-fields.js';

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/** A SAML attribute's name: a URI (urn:oid:..., http://...) or a short name. */
const attributeName = text(1024).min(1, 'must not be empty');

/**
 * An entry of type saml (docs/entries.md#saml-20-identity-providers): the
 * identity provider the gateway is a service provider of, in the SAML 2.0
 * Web Browser SSO profile (SAML Profiles §4.1), and which of its
 * attributes become the user.
 */
export const samlInput = z.strictObject({
  // The three are required; compileSaml says so with each field's name.
  /** The identity provider's SingleSignOnService for the HTTP-Redirect binding. */
  ssoUrl: text(2048).optional(),
  /** The identity provider's entityID: the Issuer of its responses and assertions. */
  idpEntityId: text(1024).optional(),
  /** The certificate the identity provider signs with (PEM, or its base64 DER). */
  idpCertificate: text(16 * 1024).optional(),
  /**
   * The identity provider's metadata document (SAML Metadata §2.3), pasted:
   * ssoUrl, idpEntityId and the signing certificates are read from it
   * (src/features/saml/idp-metadata.ts) where the entry does not give them.
   */
  idpMetadataXml: text(256 * 1024).optional(),
  /**
   * Where the identity provider publishes that document, instead of pasting
   * it: the gateway fetches it through its outbound client and refreshes it
   * (src/features/saml/idp-metadata.ts).
   */
  idpMetadataUrl: text(2048).optional(),
  /**
   * The certificate of the gateway's own key for this entry, published as
   * the encryption key of its metadata; the key itself is the entry's
   * write-only appsecret. With both, encrypted assertions are read.
   */
  spCertificate: text(16 * 1024).optional(),
  /** The gateway's own entityID for this entry; default its metadata URL. */
  spEntityId: text(1024).optional(),
  /** How far the two clocks may be apart when the assertion's times are checked. */
  clockSkewSeconds: z.number().int().min(0).max(300).optional(),
  /**
   * Whether the assertion itself must carry the identity provider's
   * signature (default true); false also takes an unsigned assertion inside
   * a signed Response.
   */
  wantAssertionsSigned: z.boolean().optional(),
  /** Which attributes hold the user's fields; the userId is the NameID unless named. */
  attributes: z
    .strictObject({
      userId: attributeName.optional(),
      name: attributeName.optional(),
      email: attributeName.optional(),
      groups: attributeName.optional(),
    })
    .optional(),
});

/** Assertions are refused once their times are further off than this (SAML Core §2.5.1.2). */
const defaultSamlClockSkewSeconds = 60;

/**
 * Whether an entry's appsecret leaves the gateway: sent to the token URL,
 * or signing what goes to the server. A SAML entry's appsecret is its own
 * private key (decrypting assertions, signing its messages), never sent.
 */
export function sendsAppsecret(entry: { readonly type?: string | undefined }): boolean {
  return entry.type !== 'saml';
}

/** The `saml` block of an entry of type saml, or undefined for any other type. */
export function samlOf(entry: CompiledEntry): CompiledSamlEntry | undefined {
  return entry.type === 'saml' ? entry : undefined;
}

/**
 * Checks the `saml` block (the shape is zod's; what the values mean is
 * checked here) and returns it compiled, or undefined with problems added.
 */
export function compileSaml(
  raw: Readonly<Record<string, unknown>>,
  problems: ProblemList,
): CompiledSaml | undefined {
  const before = problems.items.length;
  if (raw.saml === undefined) {
    problems.field('saml', 'is required for an entry of type saml');
    return undefined;
  }
  const given = asRecord(raw.saml);
  const idpMetadataXml = textField(given, 'idpMetadataXml');
  if (idpMetadataXml !== undefined && !/<(\w+:)?EntityDescriptor[\s>]/.test(idpMetadataXml)) {
    problems.field('saml.idpMetadataXml', 'must be a SAML metadata document (an EntityDescriptor)');
  }
  const idpMetadataUrl = textField(given, 'idpMetadataUrl');
  if (idpMetadataUrl !== undefined && !isHttpUrl(idpMetadataUrl)) {
    problems.field(
      'saml.idpMetadataUrl',
      'must be an absolute http(s) URL without a fragment, such as https://idp.corp/saml2/idp/metadata.php',
    );
  }
  if (idpMetadataUrl !== undefined && idpMetadataXml !== undefined) {
    problems.field(
      'saml.idpMetadataUrl',
      'cannot be given with idpMetadataXml: give one of the two',
    );
  }
  // With metadata, the three fields only override what it says.
  const fromMetadata = idpMetadataXml !== undefined || idpMetadataUrl !== undefined;
  const ssoUrl = textField(given, 'ssoUrl');
  if (ssoUrl === undefined) {
    if (!fromMetadata)
      problems.field(
        'saml.ssoUrl',
        "is required: the identity provider's SingleSignOnService URL, or its idpMetadataXml or idpMetadataUrl",
      );
  } else if (!isHttpUrl(ssoUrl)) {
    problems.field(
      'saml.ssoUrl',
      'must be an absolute http(s) URL without a fragment, such as https://idp.corp/saml2/idp/SSOService.php',
    );
  }
  const idpEntityId = textField(given, 'idpEntityId');
  if (idpEntityId === undefined && !fromMetadata) {
    problems.field(
      'saml.idpEntityId',
      "is required: the identity provider's entityID, or its idpMetadataXml or idpMetadataUrl",
    );
  }
  const spEntityId = textField(given, 'spEntityId');
  const certificateText = textField(given, 'idpCertificate');
  let certificate: string | undefined;
  if (certificateText === undefined) {
    if (!fromMetadata)
      problems.field(
        'saml.idpCertificate',
        'is required: the certificate the identity provider signs with',
      );
  } else {
    certificate = readCertificate(certificateText);
    if (certificate === undefined) {
      problems.field(
        'saml.idpCertificate',
        'must be one X.509 certificate, PEM (-----BEGIN CERTIFICATE-----) or its base64 DER',
      );
    }
  }
  const decryption = compileDecryption(textField(given, 'spCertificate'), raw.appsecret, problems);
  const attributes = asRecord(given.attributes);
  const named = (key: string) => textField(attributes, key);
  if (problems.items.length > before) return undefined;
  return {
    ssoUrl,
    idpEntityId,
    idpCertificate: certificate,
    idpMetadataXml,
    idpMetadataUrl,
    spEntityId,
    decryption,
    clockSkewSeconds:
      typeof given.clockSkewSeconds === 'number'
        ? given.clockSkewSeconds
        : defaultSamlClockSkewSeconds,
    wantAssertionsSigned: given.wantAssertionsSigned !== false,
    attributes: {
      userId: named('userId'),
      name: named('name'),
      email: named('email'),
      groups: named('groups'),
    },
  };
}

/**
 * The gateway's own key pair for encrypted assertions (SAML Core §2.3.4,
 * EncryptedAssertion) and for signing its own messages: the certificate in `saml.spCertificate`, the private
 * key (PEM) in the entry's write-only `appsecret`, sealed at rest like any
 * (docs/design.md#the-entry). Either alone, or a key the certificate does
 * not certify, is refused: the identity provider would encrypt to a key
 * the gateway cannot use.
 */
function compileDecryption(
  certificateText: string | undefined,
  secret: unknown,
  problems: ProblemList,
): CompiledSaml['decryption'] {
  const keyText = typeof secret === 'string' && secret !== '' ? secret : undefined;
  if (certificateText === undefined && keyText === undefined) return undefined;
  if (certificateText === undefined) {
    problems.field(
      'saml.spCertificate',
      'is required with an appsecret: the certificate of that private key, which the metadata publishes',
    );
    return undefined;
  }
  const certificate = readCertificate(certificateText);
  if (certificate === undefined) {
    problems.field(
      'saml.spCertificate',
      'must be one X.509 certificate, PEM (-----BEGIN CERTIFICATE-----) or its base64 DER',
    );
    return undefined;
  }
  if (keyText === undefined) {
    problems.field(
      'appsecret',
      "is required with saml.spCertificate: that certificate's private key, PEM",
    );
    return undefined;
  }
  let matches: boolean;
  let keyType: string | undefined;
  try {
    const key = createPrivateKey(keyText);
    keyType = key.asymmetricKeyType;
    matches = new X509Certificate(certificate).checkPrivateKey(key);
  } catch {
    // The key's text is never quoted: it is a secret.
    problems.field(
      'appsecret',
      'must be a private key, PEM (-----BEGIN PRIVATE KEY-----), unencrypted',
    );
    return undefined;
  }
  if (!matches) {
    problems.field('appsecret', 'is not the private key of saml.spCertificate');
    return undefined;
  }
  // The gateway signs its own messages with the key too (RSA-SHA256 or
  // ECDSA-SHA256, src/features/saml/redirect-binding.ts), which no other type can.
  if (keyType !== 'rsa' && keyType !== 'ec') {
    problems.field('appsecret', 'must be an RSA or EC key');
    return undefined;
  }
  return { certificate, privateKey: keyText };
}

function isHttpUrl(source: string): boolean {
  if (!URL.canParse(source)) return false;
  const url = new URL(source);
  return /^https?:$/.test(url.protocol) && url.hash === '' && url.username === '';
}

/**
 * The certificate as PEM, read once: a PEM block, or the bare base64 of its
 * DER as metadata documents carry it (SAML Metadata §2.4.1.1, ds:X509Certificate).
 */
export function readCertificate(source: string): string | undefined {
  const trimmed = source.trim();
  const blocks = trimmed.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;
  if (blocks > 1) return undefined;
  const body = trimmed
    .replace(/-----BEGIN CERTIFICATE-----/, '')
    .replace(/-----END CERTIFICATE-----/, '')
    .replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return undefined;
  const lines = body.match(/.{1,64}/g) ?? [];
  const pem = `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return undefined;
  }
}
