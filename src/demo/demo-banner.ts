import { verifyPassword } from '../features/local-accounts/password-hash.js';
import type { UserStore } from '../foundation/storage/types.js';

/** What the demo's banner tells, read once the gateway has started. */
interface DemoBannerFacts {
  readonly publicUrl: string;
  /** The data folder as the environment names it, for the command that resets the password. */
  readonly dataDir: string;
  readonly exampleUrl: string;
  readonly exampleUser: { readonly username: string; readonly password: string };
  /** The administrator's password when it is still the one the demo set; undefined once changed. */
  readonly adminPassword: string | undefined;
  readonly extension:
    | {
        readonly extensionUrl: string;
        readonly acmeUrl: string;
        readonly entryId: string;
        readonly user: { readonly username: string; readonly password: string };
      }
    | undefined;
}

/**
 * The administrator's password if `admin` still has the one the demo set:
 * after `ssogate admin reset-password` the banner must not offer a
 * password that the sign-in form refuses.
 */
export async function unchangedAdminPassword(
  users: UserStore,
  demoPassword: string | undefined,
): Promise<string | undefined> {
  if (demoPassword === undefined) return undefined;
  const admin = await users.findByUserId('admin');
  if (admin?.passwordHash === undefined || admin.passwordHash === null) return undefined;
  return (await verifyPassword(demoPassword, admin.passwordHash)) ? demoPassword : undefined;
}

/** The lines printed once the demo listens: where to sign in, as whom. */
export function demoBanner(facts: DemoBannerFacts): string[] {
  const chooser = `${facts.publicUrl}/_sso/login`;
  const { exampleUser: user, extension } = facts;
  return [
    '',
    `  Example OAuth2 server: ${facts.exampleUrl}`,
    `  Open ${facts.publicUrl}/ and sign in at the example server as ${user.username} / ${user.password}.`,
    facts.adminPassword === undefined
      ? `  Local administrator: admin, its password changed since the demo set it (chooser: ${chooser}); \`SSOGATE_DATA_DIR=${facts.dataDir} npm run ssogate -- admin reset-password\` prints a new one.`
      : `  Local administrator: admin / ${facts.adminPassword} (chooser: ${chooser}).`,
    ...(extension === undefined
      ? []
      : [
          `  Example extension: ${extension.extensionUrl}, in front of the emulated Acme server ${extension.acmeUrl}.`,
          `  Sign in through it at ${chooser}/${extension.entryId} as ${extension.user.username} / ${extension.user.password}: Acme's users are users of their own, ${extension.entryId}:${extension.user.username} here.`,
        ]),
    '',
  ];
}
