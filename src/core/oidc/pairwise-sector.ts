/**
 * The sector of a pairwise client (OpenID Connect Core §8.1): the host of
 * its redirect URIs, when they all share one; undefined when they span
 * several hosts, or one has no host. The gateway fetches no
 * `sector_identifier_uri` that could join several hosts in one sector: such
 * a client cannot be pairwise (openid-provider/admin/oidc-clients.ts refuses it).
 */
export function pairwiseSector(redirectUris: readonly string[]): string | undefined {
  const hosts = new Set(
    redirectUris.map((uri) => (URL.canParse(uri) ? new URL(uri).hostname : '')),
  );
  const [host] = hosts;
  return hosts.size === 1 && host !== undefined && host !== '' ? host : undefined;
}
