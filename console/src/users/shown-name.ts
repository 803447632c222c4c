/**
 * The name the gateway gives the first administrator it creates
 * (src/features/local-accounts/bootstrap-admin.ts). It is a word of the
 * gateway's rather than a person's name, so the console says it in the
 * language on screen; a name anyone typed is shown as typed.
 */
const bootstrapName = 'Administrator';

/** A user's name as the console shows it: `administrator` for the gateway's own `admin`. */
export function shownName(
  user: { readonly userId: string; readonly userName: string | null },
  administrator: string,
): string | null {
  return user.userId === 'admin' && user.userName === bootstrapName ? administrator : user.userName;
}
