/** A request target read once, for the rules and for the application alike. */
interface NormalisedTarget {
  /** Decoded, dot segments resolved, repeated slashes folded: what rules match. */
  readonly path: string;
  /** The same path escaped again where a path segment needs it (RFC 3986 section 3.3): what the upstream gets. */
  readonly wirePath: string;
  /** The query, `?` included, or empty. */
  readonly search: string;
}

/** Why a target is refused: a sentence for the coded 400. */
export interface RefusedTarget {
  readonly refused: string;
}

const HEX_ESCAPE = /%[0-9A-Fa-f]{2}/;
/**
 * A path the steps below would give back unchanged: segments of letters,
 * digits, `_`, `~` and `-`, with dots only between them (never a segment of
 * dots, never one ending in a dot), no empty segment but a final slash.
 */
const ALREADY_NORMAL = /^(?:\/[\w~-]+(?:\.+[\w~-]+)*)*\/?$/;
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Reads an origin-form request target the one way both the access rules and
 * the application behind the gateway will read it, or refuses it. Servers
 * disagree about the odd spellings of a path (a second decoding, `;`
 * parameters, backslashes, trailing dots and spaces that Windows drops), so
 * whatever one of them could read as another path is refused rather than
 * guessed at:
 * - percent-escapes are decoded once; an escape of `/` or `\` (`%2F`,
 *   `%5C`), of a control character, or of `%` that leaves another escape
 *   (`%2561`, which a second decoding would turn into `a`) is refused, and
 *   so are malformed escapes and bytes that are not UTF-8;
 * - a raw backslash, control character, space or byte outside ASCII, and any
 *   `;` (path parameters, raw or escaped), are refused;
 * - a segment ending in a dot or a space (`/admin.`, `/admin%20`) is
 *   refused: some servers drop them and serve `/admin`;
 * - dot segments (`.`, `..`, escaped too) are resolved as RFC 3986
 *   section 5.2.4 says, never above the root, and empty segments (`//`)
 *   are dropped, a final slash kept.
 * Letter case is kept: rules compare paths case-insensitively.
 */
export function normaliseTarget(target: string): NormalisedTarget | RefusedTarget {
  if (!target.startsWith('/')) return { refused: 'the request target is not a path' };
  const end = target.search(/[?#]/);
  const rawPath = end === -1 ? target : target.slice(0, end);
  if (ALREADY_NORMAL.test(rawPath)) {
    // Nothing to decode, resolve, fold or escape: every request to an
    // application pays for this function, and nearly all look like this.
    const search = end === -1 ? '' : (targetUrl(target)?.search ?? '');
    return { path: rawPath, wirePath: rawPath, search };
  }
  if (rawPath.includes('\\')) return { refused: 'the path holds a backslash' };
  if (!/^[\x21-\x7e]*$/.test(rawPath))
    return { refused: 'the path holds a space, a control character or a byte outside ASCII' };
  const output: string[] = [];
  const segments = rawPath.slice(1).split('/');
  let endsInDirectory = false;
  for (const [index, raw] of segments.entries()) {
    const segment = decodeSegment(raw);
    if (typeof segment !== 'string') return segment;
    const last = index === segments.length - 1;
    endsInDirectory = last && (segment === '' || segment === '.' || segment === '..');
    if (segment === '..') output.pop();
    else if (segment !== '.' && segment !== '') output.push(segment);
  }
  const joined = output.join('/');
  const tail = endsInDirectory && output.length > 0 ? '/' : '';
  const url = end === -1 ? undefined : targetUrl(target);
  return {
    path: `/${joined}${tail}`,
    wirePath: `/${output.map(escapeSegment).join('/')}${tail}`,
    search: url?.search ?? '',
  };
}

function decodeSegment(raw: string): string | RefusedTarget {
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    return { refused: 'the path holds a malformed percent-escape or bytes that are not UTF-8' };
  }
  if (segment.includes('/') || segment.includes('\\'))
    return { refused: 'the path holds an escaped slash or backslash (%2F, %5C)' };
  if (CONTROL.test(segment)) return { refused: 'the path holds an escaped control character' };
  if (HEX_ESCAPE.test(segment))
    return { refused: 'the path is escaped twice (%25 before hexadecimal digits)' };
  if (segment.includes(';')) return { refused: 'the path holds a ; parameter' };
  if (segment !== '.' && segment !== '..' && /[. ]$/.test(segment))
    return { refused: 'a path segment ends in a dot or a space' };
  return segment;
}

function escapeSegment(segment: string): string {
  // encodeURIComponent escapes these too, though a segment may hold them.
  return encodeURIComponent(segment).replace(/%(?:24|26|2B|2C|3A|3D|40)/g, decodeURIComponent);
}

/**
 * An origin-form request target (`/path?query`) as a URL, for its query
 * (resolving it against a base would read `//x` as a host).
 */
function targetUrl(target: string): URL | undefined {
  try {
    return new URL(`http://gateway.invalid${target}`);
  } catch {
    return undefined;
  }
}
