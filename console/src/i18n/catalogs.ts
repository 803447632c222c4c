import { en } from './en.js';
import type { ConsoleMessages } from './en.js';
import { zhCN } from './zh-CN.js';

export { en, zhCN };
export type { ConsoleMessages };

/**
 * The console's languages, the same as the gateway's pages
 * (src/foundation/pages/i18n/languages.ts): the gateway picks one for the console's
 * page and writes it as `<html lang>`; the switch stores the choice in the
 * cookie the pages read too.
 */
export const LANGUAGES = ['en', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_COOKIE = 'ssogate_language';

export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  'zh-CN': '简体中文',
};

const catalogs: Readonly<Record<Language, ConsoleMessages>> = { en, 'zh-CN': zhCN };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function messagesFor(language: Language): ConsoleMessages {
  return catalogs[language];
}

let active: Language = 'en';

/**
 * The language on screen, for the plain functions that say something
 * (describeFailure, formatTime) without a React context in hand.
 */
export function activeLanguage(): Language {
  return active;
}

export function setActiveLanguage(language: Language): void {
  active = language;
}

/** `2024-05-01T12:00:00.000Z` as a local date and time, written the language's way. */
export function formatTime(iso: string | null | undefined, language: Language = active): string {
  if (iso === null || iso === undefined) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A count with the language's grouping (1,234). */
export function formatNumber(value: number, language: Language = active): string {
  return new Intl.NumberFormat(language).format(value);
}

/** The Set-Cookie-free way a script stores the choice: a year, the whole site, Lax. */
export function languageCookie(language: Language, secure: boolean): string {
  return `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? '; Secure' : ''}`;
}
