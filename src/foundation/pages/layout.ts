import { MARK_PATH, PRODUCT_NAME } from './brand.js';
import { html } from './html.js';
import type { SafeHtml } from './html.js';
import { LANGUAGES, LANGUAGE_NAMES, pageMessages } from './i18n/index.js';
import type { Language, PageMessages } from './i18n/index.js';
import { STYLESHEET_PATH } from './stylesheet.js';

/** The organisation an operator names on the sign-in pages (docs/configuration.md). */
interface Organization {
  readonly name?: string;
  /** A same-origin path of the logo the gateway serves. */
  readonly logoHref?: string;
}

/** What every page needs besides its own content. */
export interface PageContext {
  readonly language: Language;
  /**
   * Where the language switch brings the user back to: the page itself
   * where showing it again is harmless, a same-origin path.
   */
  readonly returnPath: string;
  readonly organization?: Organization;
}

export const LANGUAGE_SWITCH_PATH = '/_sso/language';
const CHOOSER = '/_sso/login';

/** A page rendered without a request in hand (tests, examples): English, back to the chooser. */
const DEFAULT_PAGE: PageContext = { language: 'en', returnPath: CHOOSER };

export function messagesOf(context: PageContext | undefined): PageMessages {
  return pageMessages((context ?? DEFAULT_PAGE).language);
}

/**
 * A whole HTML document around a page body: the product's mark, the
 * language switch, the organisation, then the page. No script, no inline
 * style and nothing loaded from another origin (the CSP of
 * web/security-headers.ts).
 */
export function renderDocument(
  context: PageContext | undefined,
  title: string,
  body: SafeHtml,
): string {
  const page = context ?? DEFAULT_PAGE;
  const t = messagesOf(page);
  return html`<!doctype html>
    <html lang="${page.language}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>${title} – ${PRODUCT_NAME}</title>
        <link rel="icon" href="${MARK_PATH}" type="image/svg+xml" />
        <link rel="stylesheet" href="${STYLESHEET_PATH}" />
      </head>
      <body>
        <header class="top">
          <span class="product"
            ><img src="${MARK_PATH}" alt="" width="28" height="28" />${PRODUCT_NAME}</span
          >
          ${languageSwitch(page, t)}
        </header>
        <main>${organizationHtml(page.organization, t)}${body}</main>
      </body>
    </html> `.toString();
}

/**
 * Plain links, as the pages carry no script: each sets the language cookie
 * and comes back (portal/language-routes.ts).
 */
function languageSwitch(page: PageContext, t: PageMessages): SafeHtml {
  const back = localHref(page.returnPath, CHOOSER);
  const links = LANGUAGES.map((language) =>
    language === page.language
      ? html`<li>
          <span aria-current="true" lang="${language}">${LANGUAGE_NAMES[language]}</span>
        </li>`
      : html`<li>
          <a
            href="${LANGUAGE_SWITCH_PATH}/${language}?return_to=${encodeURIComponent(back)}"
            lang="${language}"
            hreflang="${language}"
            >${LANGUAGE_NAMES[language]}</a
          >
        </li>`,
  );
  return html`<nav class="languages" aria-label="${t.languageSwitch}">
    <ul>
      ${links}
    </ul>
  </nav>`;
}

function organizationHtml(
  organization: Organization | undefined,
  t: PageMessages,
): SafeHtml | undefined {
  if (organization === undefined) return undefined;
  const { name, logoHref } = organization;
  if (name === undefined && logoHref === undefined) return undefined;
  const logo =
    logoHref === undefined
      ? undefined
      : html`<img
          src="${localHref(logoHref, '')}"
          alt="${name === undefined ? t.organization : ''}"
        />`;
  return html`<div class="organization">
    ${logo}${name === undefined ? undefined : html`<span>${name}</span>`}
  </div>`;
}

/**
 * A link target the gateway itself chose must still be a same-origin path:
 * a javascript: or //host value, however it got here, falls back.
 */
export function localHref(href: string, fallback: string): string {
  const ok = href.startsWith('/') && !href.startsWith('//') && !/[\\\p{Cc}\s]/u.test(href);
  return ok ? href : fallback;
}
