import { escapeHtml } from '../../foundation/pages/index.js';
import type { Language } from '../../foundation/pages/index.js';
import { securityHeaders } from '../../foundation/web/index.js';

/** What the app reads from `<meta>` tags as it starts (console/src/api.ts). */
interface ConsoleBootData {
  /** The session's CSRF token, sent as X-CSRF-Token on every change (docs/admin-api.md). */
  readonly csrfToken: string;
  /**
   * The configured public URL: the callback URL the form shows is built from
   * it, not from the address the administrator happened to open the console
   * at, which may be an internal one (RFC 6749 §3.1.2: the server compares
   * the redirect URI with the registered one).
   */
  readonly publicUrl: string;
}

/**
 * The console's index.html with its boot data as `<meta>` tags. Undefined
 * when the file has no `<head>`, i.e. it is not the console's build.
 */
export function withBootData(indexHtml: string, boot: ConsoleBootData): string | undefined {
  const head = /<head(?:\s[^>]*)?>/i.exec(indexHtml);
  if (head === null) return undefined;
  const at = head.index + head[0].length;
  const metas =
    `<meta name="csrf-token" content="${escapeHtml(boot.csrfToken)}" />` +
    `<meta name="public-url" content="${escapeHtml(boot.publicUrl)}" />`;
  return `${indexHtml.slice(0, at)}${metas}${indexHtml.slice(at)}`;
}

/**
 * The console's index.html in the page's language: the app starts in the
 * language of `<html lang>` (console/src/i18n/language.tsx), which the
 * gateway picks as for its own pages (src/foundation/http/page-context.ts).
 */
export function withLanguage(indexHtml: string, language: Language): string {
  return indexHtml.replace(/<html(\s[^>]*)?>/i, `<html lang="${language}">`);
}

/**
 * The gateway's policy (src/foundation/web/security-headers.ts) plus what a script
 * application needs and nothing more: its own bundled scripts
 * (`script-src 'self'`, still no inline script) and calls to the gateway's
 * own API (`connect-src 'self'`). The gateway's other pages keep the policy
 * without scripts.
 */
export function consoleContentSecurityPolicy(https: boolean): string {
  const base = securityHeaders({ https })['Content-Security-Policy'] ?? "default-src 'none'";
  return `${base}; script-src 'self'; connect-src 'self'`;
}
