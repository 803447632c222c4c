import { Link } from '../link';

interface BreadcrumbProps {
  readonly trail: readonly { readonly label: string; readonly to: string }[];
  readonly current: string;
}

/** System Settings › Security › … (the separators are drawn by the stylesheet). */
export function Breadcrumb({ trail, current }: BreadcrumbProps) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <ol>
        <li>System Settings</li>
        <li>Security</li>
        {trail.map((step) => (
          <li key={step.to}>
            <Link to={step.to}>{step.label}</Link>
          </li>
        ))}
        <li aria-current="page">{current}</li>
      </ol>
    </nav>
  );
}
