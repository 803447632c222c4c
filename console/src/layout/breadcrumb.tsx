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
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <ol>
        <li>System Settings</li>
        <li>
          <Separator />
          Security
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
