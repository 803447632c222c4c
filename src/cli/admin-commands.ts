import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { hashPassword } from '../features/local-accounts/password-hash.js';
import { recordCliChange } from './cli-audit.js';
import type { CommandContext } from './token-commands.js';

/** The shortest password `reset-password --password-file` accepts. */
const MIN_PASSWORD_LENGTH = 12;

interface ResetPasswordOptions {
  /** The local account; default the first administrator, `admin`. */
  readonly username: string;
  /** A file holding the new password (one line); without it one is generated and printed. */
  readonly passwordFile: string | undefined;
}

/**
 * The way back in for whoever runs the server: sets a local account's
 * password (given in a file, so it stays out of the shell's history and the
 * process list, or generated), makes it usable (enabled), ends the account's
 * sessions and records the change in the audit trail with `cli` as the actor.
 */
export async function resetPassword(
  context: CommandContext,
  options: ResetPasswordOptions,
): Promise<void> {
  const { users, sessions } = context.storage;
  const user = await users.findByUserId(options.username);
  if (user === undefined) {
    throw new Error(`no local account "${options.username}"`);
  }
  if (user.sourceEntryId !== null) {
    throw new Error(
      `"${options.username}" signs in through entry ${user.sourceEntryId}, not with a password`,
    );
  }
  const given =
    options.passwordFile === undefined ? undefined : await readPasswordFile(options.passwordFile);
  const password = given ?? randomBytes(18).toString('base64url');
  const now = context.clock();
  await users.setPasswordHash(user.id, await hashPassword(password), now);
  if (!user.enabled) await users.setEnabled(user.id, true, now);
  // No gateway runs here, so no sign-in's end is raised: this process holds
  // nothing of one. The running gateways hear the revocation, and the
  // provider's grants end at their next use or sweep (docs/design.md#when-a-sign-in-ends).
  const sessionsEnded = await sessions.deleteForUser(user.id);
  await recordCliChange(
    context,
    now,
    'user_change',
    null,
    { action: 'reset_password', sessionsEnded, generated: given === undefined },
    user.userId,
  );
  if (given === undefined) {
    context.out(password);
    // On stderr, so `PASSWORD=$(ssogate admin reset-password)` captures the password alone.
    context.note(
      `Set a new password for "${user.userId}"; keep it now: it is not shown again. Sessions ended: ${sessionsEnded}.`,
    );
  } else {
    context.out(
      `Set the password of "${user.userId}" from ${options.passwordFile}. Sessions ended: ${sessionsEnded}.`,
    );
  }
}

async function readPasswordFile(file: string): Promise<string> {
  // One line: the newline an editor or `echo` adds is not part of the password.
  const password = (await readFile(file, 'utf8')).replace(/\r?\n$/, '');
  if (password.includes('\n')) throw new Error(`${file} holds more than one line`);
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new Error(
      `the password in ${file} is shorter than ${String(MIN_PASSWORD_LENGTH)} characters`,
    );
  }
  return password;
}
