import type { CompiledOidc, CompiledRevalidation } from './compiled-entry.js';
import type { ProblemList } from './compile-fields.js';
import type { EntryInput } from './entry-input.js';

const defaultGraceMinutes = 60;

/**
 * When an entry re-checks its sessions (docs/entries.md#re-validation): the
 * `oidc` block's minutes (a refresh token, else the access token), or the
 * entry's own `revalidateMinutes` (the access token). One place only, so an
 * entry never says two things; and not for an entry whose user-info call
 * reads the sign-in's code, as no token is left to call it with afterwards.
 */
export function compileRevalidation(
  entry: EntryInput,
  oidc: CompiledOidc | undefined,
  codeInUserInfo: boolean,
  problems: ProblemList,
): CompiledRevalidation | undefined {
  const own = entry.revalidateMinutes !== undefined || entry.revalidateGraceMinutes !== undefined;
  if (own && entry.oidc !== undefined) {
    problems.field(
      'revalidateMinutes',
      'an OpenID Connect entry sets oidc.revalidateMinutes and oidc.revalidateGraceMinutes instead',
    );
    return undefined;
  }
  if (oidc !== undefined) {
    return oidc.revalidateMs === undefined
      ? undefined
      : { intervalMs: oidc.revalidateMs, graceMs: oidc.revalidateGraceMs };
  }
  if (entry.revalidateMinutes === undefined) {
    if (entry.revalidateGraceMinutes !== undefined) {
      problems.field('revalidateGraceMinutes', 'needs revalidateMinutes');
    }
    return undefined;
  }
  if (codeInUserInfo) {
    problems.field(
      'revalidateMinutes',
      'cannot be set when the user-info call reads the code (codeInUserInfo): no token is left to re-check with',
    );
    return undefined;
  }
  return {
    intervalMs: entry.revalidateMinutes * 60_000,
    graceMs: (entry.revalidateGraceMinutes ?? defaultGraceMinutes) * 60_000,
  };
}
