import { useI18n } from '../i18n/language';
import { Link } from '../link';
import type { Route } from '../route';

const links = [
  { to: '/', label: 'entries', pages: ['entries', 'new-entry', 'entry'] },
  {
    to: '/applications',
    label: 'applications',
    pages: ['applications', 'new-application', 'application'],
  },
  { to: '/users', label: 'users', pages: ['users'] },
  { to: '/audit', label: 'audit', pages: ['audit'] },
  { to: '/tokens', label: 'tokens', pages: ['tokens'] },
  { to: '/password', label: 'password', pages: ['password'] },
] as const;

/** System Settings > Security, as the product's settings are organised. */
export function SideNav({ route }: { readonly route: Route }) {
  const { t } = useI18n();
  return (
    <nav className="side-nav" aria-label={t.shell.settings}>
      <p className="side-nav-heading">{t.shell.settings}</p>
      <p className="side-nav-group">{t.shell.security}</p>
      <ul>
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} current={(link.pages as readonly string[]).includes(route.page)}>
              {t.nav[link.label]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
