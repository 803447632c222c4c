import type { FastifyInstance, FastifyReply } from 'fastify';
import { SsogateError } from '../../core/index.js';
import { setLanguageCookie } from '../../foundation/http/browser-cookies.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { ORGANIZATION_LOGO_PATH } from '../../foundation/http/page-context.js';
import { sendFailure } from '../../foundation/http/respond.js';
import {
  LANGUAGE_SWITCH_PATH,
  MARK_PATH,
  isLanguage,
  localHref,
  markSvg,
} from '../../foundation/pages/index.js';

/**
 * An image of the gateway's own may hold no script, whatever a browser
 * does with it: an SVG opened as a document would otherwise run one.
 */
const IMAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The product's mark (also the favicon), the organisation's logo, and the
 * language switch of every page (docs/configuration.md#language-and-organisation).
 */
export function brandRoutes(app: FastifyInstance, gateway: Gateway): void {
  app.get(MARK_PATH, async (_request, reply) => sendMark(reply));

  app.get(ORGANIZATION_LOGO_PATH, async (request, reply) => {
    const logo = gateway.config.organization.logo;
    if (logo === undefined) {
      sendFailure(gateway, request, reply, new SsogateError('not_found', 'no organisation logo'));
      return reply;
    }
    return reply
      .type(logo.type)
      .header('cache-control', 'public, max-age=3600')
      .header('content-security-policy', IMAGE_POLICY)
      .send(logo.body);
  });

  // A plain link, as the pages carry no script: it sets the cookie and goes
  // back. Only a preference changes, so a GET is fit for it, and the way
  // back is a same-origin path or the chooser, never another site.
  app.get<{ Params: { language: string }; Querystring: { return_to?: unknown } }>(
    `${LANGUAGE_SWITCH_PATH}/:language`,
    async (request, reply) => {
      const { language } = request.params;
      if (!isLanguage(language)) {
        sendFailure(
          gateway,
          request,
          reply,
          new SsogateError('not_found', `no language ${language.slice(0, 20)}`),
        );
        return reply;
      }
      setLanguageCookie(gateway, reply, language);
      const back = request.query.return_to;
      return reply.redirect(localHref(typeof back === 'string' ? back : '', '/_sso/login'), 303);
    },
  );
}

/** The mark, for /_sso/assets/mark.svg and a browser's /favicon.ico. */
export function sendMark(reply: FastifyReply): FastifyReply {
  return reply
    .type('image/svg+xml')
    .header('cache-control', 'public, max-age=86400')
    .header('content-security-policy', IMAGE_POLICY)
    .send(markSvg);
}

/**
 * Browsers ask for /favicon.ico on their own. Without a session, or
 * without an application behind the gateway to ask, the answer is the
 * mark rather than a 401 or a sign-in redirect.
 */
export function isFaviconRequest(request: {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
}): boolean {
  const url = request.url ?? '';
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    (url === '/favicon.ico' || url.startsWith('/favicon.ico?'))
  );
}
