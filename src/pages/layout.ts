import { html } from './html.js';
import type { SafeHtml } from './html.js';
import { STYLESHEET_PATH } from './stylesheet.js';

/**
 * A whole HTML document around a page body. No script, no inline style and
 * nothing loaded from another origin (the CSP of web/security-headers.ts).
 */
export function renderDocument(title: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} – ssogate</title>
        <link rel="stylesheet" href="${STYLESHEET_PATH}" />
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html> `.toString();
}

/**
 * A link target the gateway itself chose must still be a same-origin path:
 * a javascript: or //host value, however it got here, falls back.
 */
export function localHref(href: string, fallback: string): string {
  const ok = href.startsWith('/') && !href.startsWith('//') && !/[\\\p{Cc}\s]/u.test(href);
  return ok ? href : fallback;
}
