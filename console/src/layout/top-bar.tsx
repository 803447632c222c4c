import { useEffect, useState } from 'react';
import { csrfToken } from '../api';
import type { Me } from '../types';

/** Product name, who is signed in, and a sign-out form (POST with the CSRF token). */
export function TopBar() {
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
        ssogate <span className="brand-sub">admin console</span>
      </span>
      <div className="top-bar-user">
        {me === undefined ? null : (
          <span className="signed-in-as">
            Signed in as <strong>{me.userName ?? me.userId}</strong>
          </span>
        )}
        <form method="post" action="/_sso/logout">
          <input type="hidden" name="csrf" value={csrfToken()} />
          <button type="submit" className="button secondary small">
            Sign out
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
