import { useSyncExternalStore } from 'react';

/** The console's own pages live under this path; the gateway serves index.html for all. */
export const BASE = '/_sso/admin';

export type Route =
  | { readonly page: 'entries' }
  | { readonly page: 'new-entry' }
  | { readonly page: 'entry'; readonly id: string }
  | { readonly page: 'users' }
  | { readonly page: 'audit' }
  | { readonly page: 'tokens' }
  | { readonly page: 'unknown' };

const changeEvent = 'console:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(changeEvent, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(changeEvent, onChange);
  };
}

function currentPath(): string {
  return window.location.pathname;
}

/** The path of the page shown now; re-renders on navigation and Back. */
export function usePath(): string {
  return useSyncExternalStore(subscribe, currentPath);
}

let navigated = false;
// Back and Forward are moves within the console too.
window.addEventListener('popstate', () => {
  navigated = true;
});

/**
 * Whether the reader has moved within the console since it loaded. On the
 * first page the focus stays where the browser puts it (the skip link comes
 * first); after a move, each page's heading takes it (layout/page.tsx).
 */
export function hasNavigated(): boolean {
  return navigated;
}

/** Goes to a console path (relative to BASE) without reloading the page. */
export function navigate(path: string): void {
  navigated = true;
  window.history.pushState(null, '', `${BASE}${path}`);
  window.dispatchEvent(new Event(changeEvent));
  window.scrollTo(0, 0);
}

export function routeOf(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split('/').filter((part) => part !== '');
  const [first, second] = parts;
  if (first === undefined || (first === 'entries' && second === undefined)) {
    return { page: 'entries' };
  }
  if (first === 'entries' && second === 'new' && parts.length === 2) return { page: 'new-entry' };
  if (first === 'entries' && second !== undefined && parts.length === 2) {
    return { page: 'entry', id: decodeURIComponent(second) };
  }
  if (parts.length === 1 && (first === 'users' || first === 'audit' || first === 'tokens')) {
    return { page: first };
  }
  return { page: 'unknown' };
}
