import { z } from 'zod';

/**
 * The `oidc` block of an entry (docs/entries.md#openid-connect): kept in a
 * field of its own so that an OpenID Connect entry is an OAuth2 entry plus
 * this block, and nothing else in the entry's shape changes meaning.
 */
const userInfoSources = ['userinfo', 'claims', 'both'] as const;
export type UserInfoSource = (typeof userInfoSources)[number];

/** Minutes between re-checks of a session with the provider (docs/entries.md#re-validation). */
export const revalidateMinutesInput = z
  .number()
  .int()
  .min(1)
  .max(24 * 60);
/** Minutes a session survives the provider being unreachable at a re-check; default 60. */
export const revalidateGraceMinutesInput = z
  .number()
  .int()
  .min(0)
  .max(7 * 24 * 60);

export const oidcInput = z.strictObject({
  /** The provider's issuer identifier; discovery reads `{issuer}/.well-known/openid-configuration`. */
  issuer: z.string().max(2048, 'must be at most 2048 characters'),
  /** Scopes asked for besides `openid`, space-separated; default `profile email`. */
  scope: z
    .string()
    .max(1024)
    .regex(
      /^[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*$/,
      'must be scope tokens separated by single spaces (RFC 6749 §3.3)',
    )
    .optional(),
  /**
   * Where the user's attributes come from: the user-info call (the default),
   * the verified id_token's claims, or both (the claims, then the user-info
   * answer over them).
   */
  userInfo: z.enum(userInfoSources).optional(),
  /** Clock skew allowed on `exp` and `iat`, in seconds; default 60. */
  clockSkewSeconds: z.number().int().min(0).max(600).optional(),
  /**
   * Re-check a signed-in session with the provider every so many minutes, at
   * its next use (docs/entries.md#re-validation); off when absent.
   */
  revalidateMinutes: revalidateMinutesInput.optional(),
  /** How long a session survives the provider being unreachable at a re-check; default 60. */
  revalidateGraceMinutes: revalidateGraceMinutesInput.optional(),
});
