/**
 * Percent-encoding for substituted values (RFC 3986 §2.1, §2.3).
 *
 * Everything except the unreserved set `A-Z a-z 0-9 - . _ ~` is encoded from
 * its UTF-8 bytes, with uppercase hex (§2.1 "should use uppercase"). This is
 * stricter than encodeURIComponent, which leaves `! ' ( ) *` alone and throws
 * on lone surrogates: a value must never be able to add structure (a `/`, `&`,
 * `=`, `#`, `?`) to the URL it is placed in, wherever it stands.
 *
 * Lone surrogates (possible in a JSON string such as "\ud800") have no UTF-8
 * form; they are encoded as U+FFFD (%EF%BF%BD), exactly as the WHATWG URL and
 * URLSearchParams serializers and TextEncoder do, so encoding never throws.
 */

const allUnreserved = /^[A-Za-z0-9\-._~]*$/;

// encodeURIComponent leaves these sub-delimiters alone; RFC 3986 does not.
const subDelimitersLeftAlone = /[!'()*]/g;

function encodeSubDelimiter(character: string): string {
  return `%${character.charCodeAt(0).toString(16).toUpperCase()}`;
}

export function percentEncode(value: string): string {
  if (allUnreserved.test(value)) return value;
  // The native encoder does the UTF-8 work; toWellFormed() first turns lone
  // surrogates into U+FFFD, on which encodeURIComponent would throw.
  return encodeURIComponent(value.toWellFormed()).replace(
    subDelimitersLeftAlone,
    encodeSubDelimiter,
  );
}
