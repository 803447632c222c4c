/**
 * The languages of the gateway's pages and console. A BCP 47 tag each
 * (RFC 5646), written as the `lang` attribute and the language cookie carry it.
 */
export const LANGUAGES = ['en', 'zh-CN'] as const;

export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

/** The cookie that remembers a choice made with the language switch. */
export const LANGUAGE_COOKIE = 'ssogate_language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Each language named in itself, as the switch shows it. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  'zh-CN': '简体中文',
};
