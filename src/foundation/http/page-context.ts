import type { IncomingHttpHeaders } from 'node:http';
import { LANGUAGE_COOKIE, negotiateLanguage } from '../pages/index.js';
import type { Language, PageContext } from '../pages/index.js';
import { parseCookieHeader } from '../web/index.js';
import type { Gateway } from './gateway.js';

/** Where the gateway serves the logo of SSOGATE_ORGANIZATION_LOGO_FILE. */
export const ORGANIZATION_LOGO_PATH = '/_sso/assets/logo';

const CHOOSER = '/_sso/login';

export interface PageRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: IncomingHttpHeaders;
}

/** The language of a request's page: its cookie, its Accept-Language, the operator's default. */
export function requestLanguage(gateway: Gateway, request: PageRequest): Language {
  return negotiateLanguage({
    cookie: parseCookieHeader(request.headers.cookie).get(LANGUAGE_COOKIE),
    acceptLanguage: request.headers['accept-language'],
    fallback: gateway.config.defaultLanguage,
  });
}

/**
 * What a page of this request needs besides its content: its language, the
 * organisation, and where the language switch comes back to.
 */
export function pageContext(gateway: Gateway, request: PageRequest): PageContext {
  const { name, logo } = gateway.config.organization;
  return {
    language: requestLanguage(gateway, request),
    returnPath: switchReturnPath(request),
    organization: {
      ...(name === undefined ? {} : { name }),
      ...(logo === undefined ? {} : { logoHref: ORGANIZATION_LOGO_PATH }),
    },
  };
}

/**
 * The page itself when loading it again is harmless: a GET, but not a
 * callback, whose code and state are spent once used; anything else comes
 * back to the chooser.
 */
function switchReturnPath(request: PageRequest): string {
  const url = request.url ?? CHOOSER;
  const safe = request.method === 'GET' || request.method === 'HEAD';
  return safe && !url.startsWith('/_sso/callback/') ? url : CHOOSER;
}
