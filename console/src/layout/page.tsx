import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/language';
import { hasNavigated } from '../navigation';
import { Breadcrumb } from './breadcrumb';

interface PageProps {
  /** The last breadcrumb step and the heading. */
  readonly title: string;
  /** Steps after System Settings › Security, before the title. */
  readonly trail?: readonly { readonly label: string; readonly to: string }[];
  readonly actions?: ReactNode;
  readonly children: ReactNode;
}

/**
 * One console page: breadcrumb, heading, content. After a move within the
 * console the heading takes the focus, so a screen reader announces where a
 * link led (a client-side navigation has no page load to announce).
 */
export function Page({ title, trail = [], actions, children }: PageProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const suffix = useI18n().t.shell.titleSuffix;
  useEffect(() => {
    document.title = `${title} – ${suffix}`;
  }, [title, suffix]);
  useEffect(() => {
    if (hasNavigated()) heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <>
      <Breadcrumb trail={trail} current={title} />
      <div className="page-head">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions === undefined ? null : <div className="page-actions">{actions}</div>}
      </div>
      {children}
    </>
  );
}
