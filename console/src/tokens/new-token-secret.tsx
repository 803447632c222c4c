import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../i18n/language';

interface NewTokenSecretProps {
  readonly name: string;
  readonly secret: string;
  readonly onDone: () => void;
}

/** A new token's secret, this once: selectable, copyable, and gone when dismissed. */
export function NewTokenSecret({ name, secret, onDone }: NewTokenSecretProps) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const words = useI18n().t.tokens;
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  return (
    <section className="secret-once" aria-labelledby="secret-once-heading">
      <h2 id="secret-once-heading">{words.copyHeading(name)}</h2>
      <p>{words.copyText}</p>
      <label htmlFor="new-token-secret" className="visually-hidden">
        {words.secretOf(name)}
      </label>
      <input id="new-token-secret" ref={field} className="code-input" value={secret} readOnly />
      <div className="inline-actions">
        <button type="button" className="button secondary small" onClick={() => void copy()}>
          {copied ? words.copied : words.copy}
        </button>
        <button type="button" className="button small" onClick={onDone}>
          {words.stored}
        </button>
      </div>
    </section>
  );
}
