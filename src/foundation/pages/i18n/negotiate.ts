import { DEFAULT_LANGUAGE, LANGUAGES, isLanguage } from './languages.js';
import type { Language } from './languages.js';

interface LanguageSignals {
  /** The language cookie's value: a choice the user made wins over everything. */
  readonly cookie?: string | undefined;
  /** The Accept-Language header (RFC 9110 §12.5.4). */
  readonly acceptLanguage?: string | undefined;
  /** The operator's SSOGATE_DEFAULT_LANGUAGE, for a browser that asks for neither. */
  readonly fallback?: Language | undefined;
}

/** Only so much of a header is read: a hostile one costs little. */
const MAX_HEADER_LENGTH = 1024;
const MAX_RANGES = 32;

/**
 * The language of a page: the cookie if it names one of ours, else the
 * browser's most preferred range that one of ours matches, else the
 * operator's default.
 */
export function negotiateLanguage(signals: LanguageSignals): Language {
  if (isLanguage(signals.cookie)) return signals.cookie;
  const fallback = signals.fallback ?? DEFAULT_LANGUAGE;
  const ranges = languageRanges(signals.acceptLanguage ?? '');
  for (const range of ranges) {
    const match = matchRange(range.tag, fallback);
    if (match !== undefined) return match;
  }
  return fallback;
}

interface WeightedRange {
  readonly tag: string;
  readonly q: number;
}

/**
 * The ranges of an Accept-Language header, most preferred first; a range
 * with q=0 is "not acceptable" and left out. Equal weights keep their order.
 */
export function languageRanges(header: string): WeightedRange[] {
  const ranges: (WeightedRange & { readonly at: number })[] = [];
  const parts = header.slice(0, MAX_HEADER_LENGTH).split(',').slice(0, MAX_RANGES);
  parts.forEach((part, at) => {
    const [rawTag = '', ...params] = part.split(';');
    const tag = rawTag.trim().toLowerCase();
    if (!/^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/.test(tag)) return;
    let q = 1;
    for (const param of params) {
      const [name = '', value = ''] = param.split('=').map((piece) => piece.trim());
      if (name.toLowerCase() !== 'q') continue;
      q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value) ? Number(value) : 0;
    }
    if (q > 0) ranges.push({ tag, q, at });
  });
  return ranges.sort((a, b) => b.q - a.q || a.at - b.at).map(({ tag, q }) => ({ tag, q }));
}

/**
 * Which of our languages a range asks for. Any Chinese range but the
 * traditional script and its regions (zh-TW, zh-HK, zh-MO, zh-Hant) reads
 * Simplified Chinese; any English range reads English; `*` takes the default.
 */
function matchRange(tag: string, fallback: Language): Language | undefined {
  if (tag === '*') return fallback;
  const [primary, ...subtags] = tag.split('-');
  if (primary === 'en') return 'en';
  if (primary === 'zh') {
    const traditional = subtags.some((subtag) => ['hant', 'tw', 'hk', 'mo'].includes(subtag));
    return traditional ? undefined : 'zh-CN';
  }
  return LANGUAGES.find((language) => language.toLowerCase() === tag);
}
