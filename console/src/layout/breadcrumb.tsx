import { useI18n } from '../i18n/language';
import { Link } from '../link';

interface BreadcrumbProps {
  readonly trail: readonly { readonly label: string; readonly to: string }[];
  readonly current: string;
}

/** Drawn between steps; screen readers announce the list's structure instead. */
function Separator() {
  return (
    <span className="separator" aria-hidden="true">
      ›
    </span>
  );
}

/** System Settings › Security › … */
export function Breadcrumb({ trail, current }: BreadcrumbProps) {
  const { t } = useI18n();
  return (
    <nav className="breadcrumb" aria-label={t.shell.breadcrumb}>
      <ol>
        <li>{t.shell.settings}</li>
        <li>
          <Separator />
          {t.shell.security}
        </li>
        {trail.map((step) => (
          <li key={step.to}>
            <Separator />
            <Link to={step.to}>{step.label}</Link>
          </li>
        ))}
        <li>
          <Separator />
          <span aria-current="page">{current}</span>
        </li>
      </ol>
    </nav>
  );
}
