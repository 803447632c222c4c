import { Link } from '../link';

interface EmptyStateProps {
  readonly title: string;
  /** What the list will hold and how it fills. */
  readonly text: string;
  /** The next step, when the console has one. */
  readonly action?: { readonly to: string; readonly label: string };
}

/** A list with nothing in it yet says what to do next, rather than just "none". */
export function EmptyState({ title, text, action }: EmptyStateProps) {
  return (
    <section className="empty-state">
      <h2>{title}</h2>
      <p>{text}</p>
      {action === undefined ? null : (
        <Link to={action.to} className="button">
          {action.label}
        </Link>
      )}
    </section>
  );
}
