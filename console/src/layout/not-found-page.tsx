import { Link } from '../link';
import { Page } from './page';

export function NotFoundPage() {
  return (
    <Page title="Not found">
      <p>The console has no page at this address.</p>
      <p>
        <Link to="/">Go to Single Sign-On</Link>
      </p>
    </Page>
  );
}
