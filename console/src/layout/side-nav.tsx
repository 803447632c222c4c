import { Link } from '../link';
import type { Route } from '../route';

const links = [
  { to: '/', label: 'Single Sign-On', pages: ['entries', 'new-entry', 'entry'] },
  { to: '/users', label: 'Users', pages: ['users'] },
  { to: '/audit', label: 'Audit', pages: ['audit'] },
  { to: '/tokens', label: 'API tokens', pages: ['tokens'] },
  { to: '/password', label: 'Your password', pages: ['password'] },
] as const;

/** System Settings > Security, as the product's settings are organised. */
export function SideNav({ route }: { readonly route: Route }) {
  return (
    <nav className="side-nav" aria-label="System Settings">
      <p className="side-nav-heading">System Settings</p>
      <p className="side-nav-group">Security</p>
      <ul>
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} current={(link.pages as readonly string[]).includes(route.page)}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
