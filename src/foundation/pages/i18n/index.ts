import { en } from './en.js';
import type { PageMessages } from './en.js';
import type { Language } from './languages.js';
import { zhCN } from './zh-CN.js';

export { en, zhCN };
export type { PageMessages };
export {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  LANGUAGE_COOKIE,
  LANGUAGE_NAMES,
  isLanguage,
} from './languages.js';
export type { Language } from './languages.js';
export { languageRanges, negotiateLanguage } from './negotiate.js';

const catalogs: Readonly<Record<Language, PageMessages>> = { en, 'zh-CN': zhCN };

/** The page text of a language. */
export function pageMessages(language: Language): PageMessages {
  return catalogs[language];
}
