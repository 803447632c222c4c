/**
 * Masking of secrets in text that is about to be logged or shown: error
 * messages with a response excerpt, audit details, server logs. Two layers:
 * the exact secrets the caller knows (an entry's appsecret, the code and the
 * access token of the current sign-in), and any value stored under a key that
 * names a credential, whatever its value (see sensitive-key.ts).
 *
 * Every pattern here is linear (no nested quantifiers over the same
 * characters), because the text may be a 1 MiB body chosen by a third party.
 */
import { isSensitiveKey } from './sensitive-key.js';

export const MASK = '***';

/** Secrets shorter than this are not masked: "a" would shred any text. */
const MIN_SECRET_LENGTH = 4;

// "key" : "value" (also unterminated, as in a cut excerpt) or a bare scalar.
const JSON_DOUBLE = /"((?:[^"\\]|\\[\s\S])*)"(\s*:\s*)("(?:[^"\\]|\\[\s\S])*"?|[^\s,{}[\]"]+)/g;
// The same with single quotes, as in Python reprs and some log formats.
const JSON_SINGLE = /'((?:[^'\\]|\\[\s\S])*)'(\s*:\s*)('(?:[^'\\]|\\[\s\S])*'?|[^\s,{}[\]']+)/g;
// key=value in form bodies, query strings and "k=v k2=v2" log lines.
const FORM = /(^|[^\w.\-[\]%])([\w.\-[\]%]+)=([^&;,\s#"'<>]*)/g;
// Authorization header values.
const AUTH_SCHEME = /\b(Bearer|Basic|Digest|Negotiate)(\s+)[\w\-.~+/]+=*/gi;
// Anything shaped like a compact JWT (header.payload.signature).
const JWT = /\beyJ[\w-]{2,}\.[\w-]{2,}\.[\w-]*/g;

function safeDecode(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

function maskExactSecrets(text: string, secrets: readonly string[]): string {
  // Longest first, so a secret that contains another is masked whole.
  const candidates = new Set<string>();
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) {
      candidates.add(secret);
      // Secrets often travel percent-encoded inside URLs and form bodies.
      const encoded = encodeURIComponentSafe(secret);
      if (encoded !== undefined && encoded !== secret) {
        candidates.add(encoded);
      }
    }
  }
  let out = text;
  for (const secret of [...candidates].sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(MASK);
  }
  return out;
}

function encodeURIComponentSafe(value: string): string | undefined {
  try {
    return encodeURIComponent(value);
  } catch {
    return undefined; // a lone surrogate cannot be encoded
  }
}

function maskQuotedValue(quote: string) {
  return (match: string, key: string, colon: string, value: string): string => {
    if (!isSensitiveKey(key) || value === 'null') {
      return match;
    }
    const masked = value.startsWith(quote) ? `${quote}${MASK}${quote}` : MASK;
    return `${quote}${key}${quote}${colon}${masked}`;
  };
}

const MAX_MASK_DEPTH = 64;

/**
 * A whole JSON document, re-serialised with every sensitive key's value
 * masked; undefined when the text is not one (an excerpt, a form body). The
 * regular expressions below cannot tell a key from a string that merely looks
 * like one (`{"":[":"]}` throws them off), so whole documents are walked.
 */
function maskJsonDocument(text: string): string | undefined {
  const start = text.trimStart().charAt(0);
  if (start !== '{' && start !== '[') return undefined;
  try {
    return JSON.stringify(maskJsonValue(JSON.parse(text) as unknown, 0));
  } catch {
    return undefined; // not JSON, or nested too deeply to walk: the patterns take over
  }
}

function maskJsonValue(value: unknown, depth: number): unknown {
  if (depth > MAX_MASK_DEPTH) throw new RangeError('nested too deeply');
  if (Array.isArray(value)) return value.map((item: unknown) => maskJsonValue(item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  // A null prototype: a key such as __proto__ stays a plain key.
  const masked = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) {
    masked[key] = isSensitiveKey(key) && item !== null ? MASK : maskJsonValue(item, depth + 1);
  }
  return masked;
}

/**
 * `text` with every occurrence of each secret (at least 4 characters long)
 * and every value of a sensitive key replaced by `***`.
 */
export function maskSecrets(text: string, secrets: readonly string[] = []): string {
  let out = maskExactSecrets(text, secrets);
  const document = maskJsonDocument(out);
  // Each pattern runs only where it could match: a query string or a form
  // body (every request's log line) has no quote, and rarely a JWT.
  if (document !== undefined) {
    out = document;
  } else {
    if (out.includes('"')) out = out.replace(JSON_DOUBLE, maskQuotedValue('"'));
    if (out.includes("'")) out = out.replace(JSON_SINGLE, maskQuotedValue("'"));
  }
  if (out.includes('=')) {
    out = out.replace(FORM, (match: string, lead: string, key: string, value: string) =>
      value !== '' && isSensitiveKey(safeDecode(key)) ? `${lead}${key}=${MASK}` : match,
    );
  }
  out = out.replace(AUTH_SCHEME, `$1$2${MASK}`);
  return out.includes('eyJ') ? out.replace(JWT, MASK) : out;
}
