import type { CompiledExtension } from './compiled-entry.js';
import type { SsogateError } from '../errors/ssogate-error.js';
import { ProblemList, textField } from './compile-fields.js';

/**
 * Below this an HMAC key is guessable offline from one signed request; 16
 * characters of a random secret (`openssl rand -base64 24` gives 32) is the floor.
 */
const minExtensionSecretLength = 16;

/**
 * Checks the extension fields of an entry of type extension (docs/extension.md#the-entry) and
 * returns where and how to call its service, or undefined with problems
 * added. The service URL is a base: routes such as /authorize-url are
 * appended to its path, so it has no query, fragment or credentials.
 */
export function compileExtension(
  raw: Readonly<Record<string, unknown>>,
  settings: Readonly<Record<string, string>> | undefined,
  problems: ProblemList,
): CompiledExtension | undefined {
  const before = problems.items.length;
  const source = textField(raw, 'extensionUrl');
  let url: URL | undefined;
  if (source === undefined) {
    if (raw.extensionUrl === undefined || raw.extensionUrl === '') {
      problems.field('extensionUrl', 'is required for an entry of type extension');
    }
  } else {
    url = URL.canParse(source) ? new URL(source) : undefined;
    if (url === undefined || !/^https?:$/.test(url.protocol)) {
      problems.field('extensionUrl', 'must be an absolute http(s) URL, such as https://ext.corp/');
    } else if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
      problems.field(
        'extensionUrl',
        'must be a base URL without credentials, query or fragment (#...)',
      );
    }
  }
  const secret = textField(raw, 'extensionSecret');
  if (secret === undefined) {
    if (raw.extensionSecret === undefined || raw.extensionSecret === '') {
      problems.field(
        'extensionSecret',
        'is required for an entry of type extension (the secret shared with the extension)',
      );
    }
  } else if (secret.length < minExtensionSecretLength) {
    problems.field(
      'extensionSecret',
      `must be at least ${minExtensionSecretLength} characters: it signs every call (openssl rand -base64 32)`,
    );
  }
  if (problems.items.length > before || url === undefined || secret === undefined) return undefined;
  return {
    url: url.href.replace(/\/+$/, ''),
    secret,
    settings: Object.freeze({ ...settings }),
  };
}

type ExtensionTargetCheck =
  | { readonly ok: true; readonly extension: CompiledExtension }
  | { readonly ok: false; readonly problems: readonly SsogateError[] };

/**
 * The URL and secret alone, as "test connection" sends them before the
 * entry is saved: the same rules as in a whole entry, every problem at once.
 */
export function validateExtensionTarget(input: {
  readonly extensionUrl: unknown;
  readonly extensionSecret: unknown;
}): ExtensionTargetCheck {
  const problems = new ProblemList();
  // In a whole entry the schema reports a value of the wrong type; here, this does.
  for (const field of ['extensionUrl', 'extensionSecret'] as const) {
    if (input[field] !== undefined && typeof input[field] !== 'string') {
      problems.field(field, 'must be text');
    }
  }
  const extension = compileExtension(input, undefined, problems);
  return extension === undefined
    ? { ok: false, problems: problems.items }
    : { ok: true, extension };
}
