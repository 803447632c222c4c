import type { OidcDiscovery } from '../oidc/discovery.js';
import { standInDiscovery } from '../oidc/discovery.js';
import { withDiscoveredTemplates } from '../oidc/discovered-templates.js';
import type { CompiledOidc } from './compiled-entry.js';
import type { ProblemList } from './compile-fields.js';
import { asRecord } from './compile-fields.js';

const defaultClockSkewSeconds = 60;
const defaultGraceMinutes = 60;

/**
 * The `oidc` block of an entry read for validation: the compiled settings,
 * and the entry with the templates discovery writes for the fields left
 * empty (discovered-templates.ts). Undefined for a plain OAuth2 entry. The
 * block's shape itself is checked by the schema (oidc-input.ts).
 */
export function readOidc(
  raw: Readonly<Record<string, unknown>>,
  discovery: OidcDiscovery | undefined,
  problems: ProblemList,
): { readonly filled: Record<string, unknown>; readonly compiled: CompiledOidc } | undefined {
  if (raw.oidc === undefined) return undefined;
  const block = asRecord(raw.oidc);
  const issuer = typeof block.issuer === 'string' ? block.issuer : '';
  if (!isIssuer(issuer)) {
    problems.field(
      'oidc.issuer',
      'must be an https URL without query or fragment (OpenID Connect Discovery 1.0 §2); http only to a loopback address',
    );
    return undefined;
  }
  const userInfo =
    block.userInfo === 'claims' || block.userInfo === 'both' ? block.userInfo : 'userinfo';
  const scope = typeof block.scope === 'string' && block.scope !== '' ? block.scope : undefined;
  const used = discovery ?? standInDiscovery(issuer);
  const minutes = (value: unknown): number | undefined =>
    typeof value === 'number' ? value * 60_000 : undefined;
  return {
    filled: withDiscoveredTemplates(raw, used, { scope, userInfo }),
    compiled: {
      issuer,
      discovery: used,
      userInfo,
      clockSkewSeconds:
        typeof block.clockSkewSeconds === 'number'
          ? block.clockSkewSeconds
          : defaultClockSkewSeconds,
      revalidateMs: minutes(block.revalidateMinutes),
      revalidateGraceMs: minutes(block.revalidateGraceMinutes) ?? defaultGraceMinutes * 60_000,
    },
  };
}

function isIssuer(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/.test(url.hostname);
}
