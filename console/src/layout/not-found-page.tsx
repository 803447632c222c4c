import { useI18n } from '../i18n/language';
import { Link } from '../link';
import { Page } from './page';

export function NotFoundPage() {
  const { t } = useI18n();
  return (
    <Page title={t.shell.notFoundTitle}>
      <p>{t.shell.notFoundText}</p>
      <p>
        <Link to="/">{t.shell.notFoundLink}</Link>
      </p>
    </Page>
  );
}
