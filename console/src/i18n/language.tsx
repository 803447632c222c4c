import { createContext, useContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { isLanguage, languageCookie, messagesFor, setActiveLanguage } from './catalogs';
import type { ConsoleMessages, Language } from './catalogs';

interface LanguageState {
  readonly language: Language;
  readonly t: ConsoleMessages;
  readonly setLanguage: (language: Language) => void;
}

const LanguageContext = createContext<LanguageState | undefined>(undefined);

/** The language the gateway chose for this page (cookie, Accept-Language, default). */
function pageLanguage(): Language {
  const lang = document.documentElement.lang;
  return isLanguage(lang) ? lang : 'en';
}

/** Holds the console's language; a change is remembered in the cookie the pages read too. */
export function LanguageProvider({ children }: { readonly children: ReactNode }) {
  const [language, setState] = useState<Language>(() => {
    const initial = pageLanguage();
    setActiveLanguage(initial);
    return initial;
  });
  const value = useMemo<LanguageState>(
    () => ({
      language,
      t: messagesFor(language),
      setLanguage: (next) => {
        document.cookie = languageCookie(next, window.location.protocol === 'https:');
        document.documentElement.lang = next;
        setActiveLanguage(next);
        setState(next);
      },
    }),
    [language],
  );
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export function useI18n(): LanguageState {
  const state = useContext(LanguageContext);
  if (state === undefined) throw new Error('useI18n outside LanguageProvider');
  return state;
}
