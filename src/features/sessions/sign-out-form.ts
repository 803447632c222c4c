import type { FastifyReply } from 'fastify';
import type { Gateway } from '../../foundation/http/gateway.js';
import type { SignedInUser } from '../../foundation/pages/index.js';
import type { UserRecord } from '../../foundation/storage/types.js';
import { securityHeaders } from '../../foundation/web/index.js';

/** The user as a page with the sign-out form names them. */
export function shownUser(user: UserRecord): SignedInUser {
  return {
    userId: user.userId,
    ...(user.userName === null ? {} : { userName: user.userName }),
    ...(user.email === null ? {} : { email: user.email }),
  };
}

/**
 * Browsers apply CSP form-action to the redirects that follow a form post, so
 * the sign-out form may post to the gateway only if the third-party origin it
 * redirects to is allowed too (the entry's logout URL, or its OpenID
 * Provider's end_session_endpoint: provider-logout.ts), and the public URL's
 * origin, where that server sends the browser back (the signed-out page of
 * the auth host): on an application host it is not 'self', and the browser
 * would stay on the form although every session had ended.
 */
export async function allowSignOutRedirect(
  gateway: Gateway,
  reply: FastifyReply,
  entryId: string | null,
): Promise<void> {
  const entry = entryId === null ? undefined : await gateway.entries.get(entryId);
  // The entry's logout URL (unless the gateway calls it itself, holding the
  // app secret), its OpenID Provider's end_session_endpoint, or its SAML
  // identity provider's SingleLogoutService: its source says.
  const provider =
    entry === undefined
      ? undefined
      : await gateway.sources(entry).signOutDestination({ documents: gateway.documents });
  const origins = [new URL(gateway.config.publicUrl).origin];
  if (provider !== undefined) origins.unshift(new URL(provider).origin);
  const policy = securityHeaders({
    https: gateway.config.secureCookies,
    formActionOrigins: origins,
  })['Content-Security-Policy'];
  if (policy !== undefined) void reply.header('content-security-policy', policy);
}
