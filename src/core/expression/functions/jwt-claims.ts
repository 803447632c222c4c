/**
 * JWT_CLAIMS_UNVERIFIED(token): the claims (payload) of a compact JWT, such
 * as an OpenID Connect id_token, WITHOUT checking its signature.
 *
 * Why that is acceptable here, and only here: the token is read from the
 * token endpoint's response, which the gateway fetched itself over TLS from
 * the configured server, authenticated with the client secret; that channel
 * is what vouches for it (OpenID Connect Core 3.1.3.7 allows this). It must
 * never be used on a token that came through the browser. The name says
 * "unverified" so that nobody mistakes it for validation.
 */
import { SsogateError } from '../../errors/ssogate-error.js';
import { isSsogateError } from '../../errors/ssogate-error.js';
import type { FunctionDefinition } from '../function-types.js';
import type { JsonValue } from '../json-value.js';
import { describeType, isJsonObject } from '../json-value.js';

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function malformed(message: string, cause?: unknown): SsogateError {
  return new SsogateError('jwt_malformed', message, cause === undefined ? {} : { cause });
}

function decodePayload(segment: string): string {
  const bare = segment.replace(/=+$/, '');
  if (bare === '' || !BASE64URL.test(segment) || bare.length % 4 === 1) {
    throw malformed('the JWT payload is not base64url');
  }
  try {
    return utf8.decode(Buffer.from(bare, 'base64url'));
  } catch (error: unknown) {
    throw malformed('the JWT payload is not UTF-8 text', error);
  }
}

/** The one argument of the JWT functions: a token, as text. */
function tokenArgument(name: string, token: JsonValue): string {
  if (typeof token !== 'string') {
    throw new SsogateError('value_type', `${name} needs text, got ${describeType(token)}`);
  }
  return token;
}

export const jwtClaimsUnverified: FunctionDefinition = {
  name: 'JWT_CLAIMS_UNVERIFIED',
  aliases: [],
  params: 'token',
  minArgs: 1,
  maxArgs: 1,
  call(args, context) {
    const token = tokenArgument('JWT_CLAIMS_UNVERIFIED', args.get(0));
    // The token itself is a credential: no message below quotes it.
    const parts = token.trim().split('.');
    if (parts.length !== 3) {
      const hint = parts.length === 5 ? ' (an encrypted JWT cannot be read)' : '';
      throw malformed(`a JWT has 3 parts separated by '.', this value has ${parts.length}${hint}`);
    }
    const json = decodePayload(parts[1] ?? '');
    let claims: JsonValue;
    try {
      claims = context.parseJson(json);
    } catch (error: unknown) {
      if (isSsogateError(error) && error.code === 'response_not_json') {
        throw malformed('the JWT payload is not JSON', error);
      }
      throw error;
    }
    if (!isJsonObject(claims)) {
      throw malformed(`the JWT payload is ${describeType(claims)}, not a JSON object`);
    }
    return claims;
  },
};

/**
 * JWT_CLAIMS(token): the claims of a token the gateway verified before the
 * expression ran: an OpenID Connect entry's id_token, whose signature,
 * issuer, audience, expiry and nonce were checked (docs/entries.md#openid-connect).
 * Any other value is refused, never decoded: this name promises verification.
 */
export const jwtClaims: FunctionDefinition = {
  name: 'JWT_CLAIMS',
  aliases: [],
  params: 'token',
  minArgs: 1,
  maxArgs: 1,
  call(args, context) {
    const token = tokenArgument('JWT_CLAIMS', args.get(0));
    const claims = context.verifiedTokens.get(token.trim());
    if (claims === undefined) {
      throw new SsogateError(
        'id_token_unverified',
        "JWT_CLAIMS reads only the sign-in's verified id_token (an OpenID Connect entry's); this value is not it",
      );
    }
    return claims;
  },
};
