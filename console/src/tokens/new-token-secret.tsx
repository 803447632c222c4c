import { useEffect, useRef, useState } from 'react';

interface NewTokenSecretProps {
  readonly name: string;
  readonly secret: string;
  readonly onDone: () => void;
}

/** A new token's secret, this once: selectable, copyable, and gone when dismissed. */
export function NewTokenSecret({ name, secret, onDone }: NewTokenSecretProps) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
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
      <h2 id="secret-once-heading">Copy the secret of {name} now</h2>
      <p>It is shown only this once; the gateway keeps only its hash.</p>
      <label htmlFor="new-token-secret" className="visually-hidden">
        Secret of {name}
      </label>
      <input id="new-token-secret" ref={field} className="code-input" value={secret} readOnly />
      <div className="inline-actions">
        <button type="button" className="button secondary small" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="button small" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </section>
  );
}
