import { useSyncExternalStore } from 'react';
import { BASE } from './route.js';

const changeEvent = 'console:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(changeEvent, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(changeEvent, onChange);
  };
}

/** Counts moves; a move to the page already shown still counts (it reloads it). */
let visit = 0;

function snapshot(): string {
  return `${visit} ${window.location.pathname}`;
}

export interface Visit {
  readonly path: string;
  /** Changes at every move, so a page opened again loads its data again. */
  readonly visit: number;
}

/** The path of the page shown now; re-renders on navigation and Back. */
export function useVisit(): Visit {
  const current = useSyncExternalStore(subscribe, snapshot);
  const space = current.indexOf(' ');
  return { visit: Number(current.slice(0, space)), path: current.slice(space + 1) };
}

let navigated = false;
let leaveGuard: (() => boolean) | undefined;
/** The address of the page shown, to return to when the reader stays after Back. */
let shown = window.location.href;

/**
 * Back and Forward are moves within the console too, and a page with unsaved
 * work asks first. By popstate the browser has already changed the address:
 * staying puts the page's own address back (the entry Back left becomes the
 * next Forward again), and this listener, registered before any page
 * subscribes, keeps the others from seeing the move at all.
 */
window.addEventListener('popstate', (event) => {
  if (leaveGuard !== undefined && !leaveGuard()) {
    event.stopImmediatePropagation();
    window.history.pushState(null, '', shown);
    return;
  }
  leaveGuard = undefined;
  shown = window.location.href;
  navigated = true;
  visit += 1;
});

/**
 * Whether the reader has moved within the console since it loaded. On the
 * first page the focus stays where the browser puts it (the skip link comes
 * first); after a move, each page's heading takes it (layout/page.tsx).
 */
export function hasNavigated(): boolean {
  return navigated;
}

/**
 * A page with unsaved work asks before the reader leaves it through the
 * console's own links or the browser's Back and Forward (the browser's
 * beforeunload covers reloads and tabs).
 */
export function setLeaveGuard(guard: (() => boolean) | undefined): void {
  leaveGuard = guard;
}

/** Goes to a console path (relative to BASE) without reloading the page. */
export function navigate(path: string): void {
  if (leaveGuard !== undefined && !leaveGuard()) return;
  leaveGuard = undefined;
  navigated = true;
  visit += 1;
  window.history.pushState(null, '', `${BASE}${path}`);
  shown = window.location.href;
  window.dispatchEvent(new Event(changeEvent));
  window.scrollTo(0, 0);
}
