import { randomBytes } from 'node:crypto';
import type { UserStore } from '../../foundation/storage/types.js';
import { hashPassword } from './password-hash.js';

interface BootstrapResult {
  readonly created: boolean;
  /** Set only when the password was generated: to be printed once. */
  readonly generatedPassword: string | undefined;
}

/**
 * On first start with no administrator, create the local `admin`
 * with SSOGATE_ADMIN_PASSWORD or a generated password, printed once by the
 * caller and never stored in clear.
 */
export async function bootstrapAdmin(
  users: UserStore,
  configuredPassword: string | undefined,
  now: number,
): Promise<BootstrapResult> {
  if ((await users.countAdmins()) > 0) return { created: false, generatedPassword: undefined };
  const generatedPassword =
    configuredPassword === undefined ? randomBytes(18).toString('base64url') : undefined;
  const passwordHash = await hashPassword(configuredPassword ?? generatedPassword ?? '');
  const { user, created } = await users.insertIfAbsent(
    {
      userId: 'admin',
      sourceEntryId: null,
      userName: 'Administrator',
      isAdmin: true,
      passwordHash,
    },
    now,
  );
  if (!created) {
    // A third-party server's user named `admin` is never given local powers.
    if (user.sourceEntryId !== null) {
      throw new Error(
        `a user 'admin' exists from entry ${user.sourceEntryId}; grant an administrator with the API instead`,
      );
    }
    await users.setAdmin(user.id, true, now);
    await users.setPasswordHash(user.id, passwordHash, now);
  }
  return { created: true, generatedPassword };
}
