import { useEffect } from 'react';
import { setLeaveGuard } from './navigation';

/**
 * While a form holds unsaved changes, leaving asks `question` first: a
 * reload or a closed tab through the browser's beforeunload, a link within
 * the console and Back or Forward through the leave guard (they load no
 * page to warn about). A form that saves calls setLeaveGuard(undefined)
 * before it moves on: saved, leaving is no longer a loss.
 */
export function useUnsavedGuard(dirty: boolean, question: string): void {
  useEffect(() => {
    if (!dirty) return undefined;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    setLeaveGuard(() => window.confirm(question));
    return () => {
      window.removeEventListener('beforeunload', warn);
      setLeaveGuard(undefined);
    };
  }, [dirty, question]);
}
