import type { MouseEvent, ReactNode } from 'react';
import { navigate } from './navigation';
import { BASE } from './route';

interface LinkProps {
  /** A console path such as `/users`. */
  readonly to: string;
  readonly children: ReactNode;
  readonly className?: string;
  readonly current?: boolean;
}

/** A real link (it opens in a new tab, it is read as a link) that navigates in place. */
export function Link({ to, children, className, current = false }: LinkProps) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    navigate(to);
  };
  return (
    <a
      href={`${BASE}${to}`}
      onClick={onClick}
      className={className}
      aria-current={current ? 'page' : undefined}
    >
      {children}
    </a>
  );
}
