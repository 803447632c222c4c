import { X509Certificate, createPrivateKey, sign, verify } from 'node:crypto';
import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';
import { SsogateError } from '../../core/index.js';

const deflate = promisify(deflateRaw);

/** A SAML message's largest inflated size: logout messages are a few KiB. */
const maxInflatedBytes = 64 * 1024;

/**
 * The signature algorithms a redirect-bound message may be signed with
 * (XML Signature 1.1 §6.4, RFC 6931 §2.3), by the hash Node names. RSA
 * with SHA-1 is refused (RFC 6931 §2.3.1 warns of it); ECDSA's signature
 * value is r || s, as in XML Signature (RFC 4050 §3.3).
 */
const signatureAlgorithms: ReadonlyMap<string, { hash: string; ecdsa: boolean }> = new Map([
  ['http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', { hash: 'sha256', ecdsa: false }],
  ['http://www.w3.org/2001/04/xmldsig-more#rsa-sha384', { hash: 'sha384', ecdsa: false }],
  ['http://www.w3.org/2001/04/xmldsig-more#rsa-sha512', { hash: 'sha512', ecdsa: false }],
  ['http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256', { hash: 'sha256', ecdsa: true }],
  ['http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384', { hash: 'sha384', ecdsa: true }],
  ['http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512', { hash: 'sha512', ecdsa: true }],
]);

/** A message of the HTTP-Redirect binding as it arrived (SAML Bindings §3.4.4). */
export interface RedirectMessage {
  readonly kind: 'SAMLRequest' | 'SAMLResponse';
  /** The inflated XML, not yet parsed. */
  readonly xml: string;
  readonly relayState: string | undefined;
  /** Whether it came with a signature at all (Signature and SigAlg). */
  readonly signed: boolean;
  /** Whether that signature holds by one of these certificates; false when unsigned. */
  signedBy(certificates: readonly string[]): boolean;
}

/**
 * The message of a redirect-bound query, read from the query string exactly
 * as it arrived: the signature covers the URL-encoded values as sent
 * (SAML Bindings §3.4.4.1), which decoding and encoding again need not give
 * back. Each parameter at most once; the DEFLATE data inflated with a cap,
 * so a small query cannot become a large document. Refused as
 * `saml_logout_invalid`.
 */
export function readRedirectQuery(rawQuery: string): RedirectMessage {
  const invalid = (message: string) => new SsogateError('saml_logout_invalid', message);
  const raw = new Map<string, string>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = decodeComponent(at < 0 ? pair : pair.slice(0, at));
    if (name === undefined) throw invalid('the query is not URL-encoded text');
    if (raw.has(name)) throw invalid(`the query carries ${name} twice`);
    raw.set(name, at < 0 ? '' : pair.slice(at + 1));
  }
  const value = (name: string) => {
    const given = raw.get(name);
    return given === undefined ? undefined : decodeComponent(given);
  };
  const kind = raw.has('SAMLRequest') ? 'SAMLRequest' : 'SAMLResponse';
  if (raw.has('SAMLRequest') === raw.has('SAMLResponse')) {
    throw invalid('the query carries neither a SAMLRequest nor a SAMLResponse, or both');
  }
  const encoded = value(kind) ?? '';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw invalid(`the ${kind} is not base64`);
  let xml: string;
  try {
    xml = inflateRawSync(Buffer.from(encoded, 'base64'), {
      maxOutputLength: maxInflatedBytes,
    }).toString('utf8');
  } catch {
    throw invalid(`the ${kind} is not DEFLATE data of at most ${maxInflatedBytes} bytes`);
  }
  const relayState = value('RelayState');
  const sigAlg = value('SigAlg');
  const signature = value('Signature');
  const signed = sigAlg !== undefined || signature !== undefined;
  // SAML Bindings §3.4.4.1: the octets signed, in this order, as they were sent.
  const octets = [kind, 'RelayState', 'SigAlg']
    .filter((name) => raw.has(name))
    .map((name) => `${name}=${raw.get(name) ?? ''}`)
    .join('&');
  return {
    kind,
    xml,
    relayState,
    signed,
    signedBy(certificates) {
      const algorithm = sigAlg === undefined ? undefined : signatureAlgorithms.get(sigAlg);
      if (algorithm === undefined || signature === undefined) return false;
      const value = Buffer.from(signature, 'base64');
      return certificates.some((pem) => {
        try {
          return verify(
            algorithm.hash,
            Buffer.from(octets, 'utf8'),
            {
              key: new X509Certificate(pem).publicKey,
              ...(algorithm.ecdsa ? { dsaEncoding: 'ieee-p1363' as const } : {}),
            },
            value,
          );
        } catch {
          return false;
        }
      });
    },
  };
}

/**
 * The URL that sends a message by the HTTP-Redirect binding (SAML Bindings
 * §3.4.4): DEFLATE, base64, then URL-encoded, with its RelayState; signed
 * with `signingKey` when the entry has a key pair (signedRedirectUrl),
 * unsigned otherwise, as the binding allows.
 */
export async function redirectUrl(
  target: string,
  kind: 'SAMLRequest' | 'SAMLResponse',
  xml: string,
  relayState: string | undefined,
  signingKey?: string,
): Promise<string> {
  const url = new URL(target);
  url.searchParams.set(kind, (await deflate(Buffer.from(xml, 'utf8'))).toString('base64'));
  if (relayState !== undefined) url.searchParams.set('RelayState', relayState);
  return signingKey === undefined ? url.toString() : signedRedirectUrl(url.toString(), signingKey);
}

/**
 * The signature algorithm the gateway signs with, by its key's type: RSA
 * with SHA-256, or ECDSA with SHA-256 for an EC key (XML Signature 1.1
 * §6.4, RFC 6931 §2.3); the entry's key is one of the two
 * (core/entry/saml-entry.ts refuses any other).
 */
function signingAlgorithmOf(keyType: string | undefined): string {
  return keyType === 'ec'
    ? 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256'
    : 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
}

/**
 * A redirect-bound URL with its message signed (SAML Bindings §3.4.4.1):
 * SigAlg added, and a Signature over `SAMLRequest=…` (or `SAMLResponse=…`),
 * `&RelayState=…` when present, and `&SigAlg=…`, exactly as they stand
 * URL-encoded in the query, in that order; any other parameter of the
 * target's own is not signed. A signature over a query string, not XML, so
 * no canonicalisation is involved.
 */
export function signedRedirectUrl(unsigned: string, signingKey: string): string {
  const url = new URL(unsigned);
  const query = url.search.slice(1);
  const raw = new Map<string, string>();
  for (const pair of query.split('&')) {
    const at = pair.indexOf('=');
    if (at > 0) raw.set(pair.slice(0, at), pair);
  }
  const message = raw.get('SAMLRequest') ?? raw.get('SAMLResponse');
  if (message === undefined) throw new Error('a redirect URL without a SAML message');
  const key = createPrivateKey(signingKey);
  const sigAlg = `SigAlg=${encodeURIComponent(signingAlgorithmOf(key.asymmetricKeyType))}`;
  const octets = [message, raw.get('RelayState'), sigAlg]
    .filter((one) => one !== undefined)
    .join('&');
  const signature = sign('sha256', Buffer.from(octets, 'utf8'), {
    key,
    ...(key.asymmetricKeyType === 'ec' ? { dsaEncoding: 'ieee-p1363' as const } : {}),
  }).toString('base64');
  const base = url.href.slice(0, url.href.length - url.search.length - url.hash.length);
  return `${base}?${query}&${sigAlg}&Signature=${encodeURIComponent(signature)}${url.hash}`;
}

/** application/x-www-form-urlencoded decoding of one name or value, or undefined. */
function decodeComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
