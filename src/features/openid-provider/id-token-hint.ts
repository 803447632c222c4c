import type { Gateway } from './provider-gateway.js';
import { loadJose } from '../../foundation/oidc/jose.js';
import type { ActiveSession } from '../sessions/session-service.js';
import { issuerOf } from './endpoints.js';
import { publishedKeySet } from './signing-keys.js';
import { subjectFor } from './subjects.js';

/** What an id_token_hint names: the subject its client was given, and that client. */
interface IdTokenHint {
  readonly subject: string;
  readonly clientId: string;
}

/**
 * The subject and client of an id_token this provider signed, with a key it
 * still publishes; expired ones too (a hint, not a credential: OpenID Connect
 * Core §3.1.2.1). Undefined for anything else.
 */
export async function hintedBy(
  gateway: Gateway,
  idTokenHint: unknown,
): Promise<IdTokenHint | undefined> {
  if (typeof idTokenHint !== 'string') return undefined;
  try {
    const { compactVerify, createLocalJWKSet, decodeJwt } = await loadJose();
    const keys = createLocalJWKSet(await publishedKeySet(gateway.storage, gateway.clock()));
    await compactVerify(idTokenHint, keys, { algorithms: ['RS256'] });
    const claims = decodeJwt(idTokenHint);
    if (claims.iss !== issuerOf(gateway) || typeof claims.sub !== 'string') return undefined;
    if (typeof claims.aud !== 'string') return undefined;
    return { subject: claims.sub, clientId: claims.aud };
  } catch {
    return undefined;
  }
}

/**
 * Whether the hint names the user of this session: its sub is the one its
 * client was given (subjects.ts), pairwise or not; a client deleted since
 * gave out public subjects as far as anyone can tell.
 */
export async function hintNames(
  gateway: Gateway,
  hint: IdTokenHint,
  active: ActiveSession,
): Promise<boolean> {
  const client = await gateway.storage.providerClients.get(hint.clientId);
  const subject =
    client === undefined ? active.user.userId : subjectFor(gateway, client, active.user);
  return subject === hint.subject;
}
