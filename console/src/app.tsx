import { PasswordPage } from './account/password-page';
import { ApplicationPage } from './applications/application-page';
import { ApplicationsPage } from './applications/applications-page';
import { AuditPage } from './audit/audit-page';
import { EntriesPage } from './entries/entries-page';
import { EntryFormPage } from './entry-form/entry-form-page';
import { useI18n } from './i18n/language';
import { useVisit } from './navigation';
import { routeOf } from './route';
import type { Route } from './route';
import { NotFoundPage } from './layout/not-found-page';
import { SideNav } from './layout/side-nav';
import { TopBar } from './layout/top-bar';
import { TokensPage } from './tokens/tokens-page';
import { UsersPage } from './users/users-page';

/** The console: a top bar, the System Settings navigation, and the page of the path. */
export function App() {
  const { path, visit } = useVisit();
  const route = routeOf(path);
  const { t } = useI18n();
  return (
    <>
      <a className="skip-link" href="#main">
        {t.shell.skip}
      </a>
      <TopBar />
      <div className="layout">
        <SideNav route={route} />
        <main id="main" tabIndex={-1}>
          <PageFor key={visit} route={route} />
        </main>
      </div>
    </>
  );
}

function PageFor({ route }: { readonly route: Route }) {
  switch (route.page) {
    case 'entries':
      return <EntriesPage />;
    case 'new-entry':
      return <EntryFormPage />;
    case 'entry':
      return <EntryFormPage id={route.id} />;
    case 'applications':
      return <ApplicationsPage />;
    case 'new-application':
      return <ApplicationPage />;
    case 'application':
      return <ApplicationPage id={route.id} />;
    case 'users':
      return <UsersPage />;
    case 'audit':
      return <AuditPage />;
    case 'tokens':
      return <TokensPage />;
    case 'password':
      return <PasswordPage />;
    case 'unknown':
      return <NotFoundPage />;
  }
}
