import { useEffect, useState } from 'react';
import { csrfToken } from '../api';
import { LANGUAGES, LANGUAGE_NAMES } from '../i18n/catalogs';
import { useI18n } from '../i18n/language';
import type { Me } from '../types';
import { shownName } from '../users/shown-name';

/** The product's mark, served by the gateway (src/foundation/pages/brand.ts). */
const MARK = '/_sso/assets/mark.svg';

/** Product mark and name, the language switch, who is signed in, and a sign-out form (POST with the CSRF token). */
export function TopBar() {
  const { t, language, setLanguage } = useI18n();
  const [me, setMe] = useState<Me | undefined>();
  useEffect(() => {
    const controller = new AbortController();
    fetchMe(controller.signal).then(setMe, () => undefined);
    return () => {
      controller.abort();
    };
  }, []);
  return (
    <header className="top-bar">
      <span className="brand">
        <img src={MARK} alt="" width={28} height={28} />
        ssogate <span className="brand-sub">{t.shell.product}</span>
      </span>
      <div className="top-bar-user">
        <select
          className="language-switch"
          aria-label={t.shell.language}
          value={language}
          onChange={(event) => {
            const next = LANGUAGES.find((each) => each === event.target.value);
            if (next !== undefined) setLanguage(next);
          }}
        >
          {LANGUAGES.map((each) => (
            <option key={each} value={each} lang={each}>
              {LANGUAGE_NAMES[each]}
            </option>
          ))}
        </select>
        {me === undefined ? null : (
          <span className="signed-in-as">
            {t.shell.signedInAs}{' '}
            <strong>{shownName(me, t.shell.administrator) ?? me.userId}</strong>
          </span>
        )}
        <form method="post" action="/_sso/logout">
          <input type="hidden" name="csrf" value={csrfToken()} />
          <button type="submit" className="button secondary small">
            {t.shell.signOut}
          </button>
        </form>
      </div>
    </header>
  );
}

async function fetchMe(signal: AbortSignal): Promise<Me> {
  const response = await fetch('/_sso/me', { headers: { accept: 'application/json' }, signal });
  if (!response.ok) throw new Error(`/_sso/me answered ${response.status}`);
  return (await response.json()) as Me;
}
