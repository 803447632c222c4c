/**
 * The one rule for writing a write-only secret (an entry's appsecret and
 * extensionSecret, docs/design.md#the-entry), wherever the write comes from:
 * the admin API's PUT, live validation and the test panel, the extension
 * connection check, `ssogate entries import`. Absent or blank keeps the
 * stored secret (a form sends "" for a field it never showed, since the
 * secret is never sent out); null clears it; any other value sets it, and
 * validation judges that value.
 */
export type SecretChange = 'set' | 'keep' | 'clear';

/** What a sent value does to the stored secret. */
export function secretChange(sent: unknown): SecretChange {
  if (sent === null) return 'clear';
  return sent === undefined || sent === '' ? 'keep' : 'set';
}

/** The secret the entry holds after the write: the stored one kept, none cleared, or the sent one. */
export function secretAfter(sent: unknown, stored: string | undefined): unknown {
  switch (secretChange(sent)) {
    case 'keep':
      return stored;
    case 'clear':
      return undefined;
    case 'set':
      return sent;
  }
}

/**
 * `fields` (an entry as sent) with the secret `name` as the write leaves it,
 * absent when the entry ends without one: what validation must see, so that
 * an entry using ${app_secret} stays valid without the secret being resent.
 */
export function withSecretAfter(
  fields: Readonly<Record<string, unknown>>,
  name: 'appsecret' | 'extensionSecret',
  stored: string | undefined,
): Record<string, unknown> {
  const { [name]: sent, ...rest } = fields;
  const after = secretAfter(sent, stored);
  return after === undefined ? rest : { ...rest, [name]: after };
}
