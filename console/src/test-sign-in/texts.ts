/**
 * Every English string the test sign-in panel shows, in one place, so that
 * the translation catalogs can take them over whole.
 */
export const testSignInTexts = {
  heading: 'Test sign-in',
  hint: 'Opens the provider in a new window and runs every call of the entry as you see it above, with a real account. Nobody is signed in and no user is written; the trace appears here.',
  start: 'Test sign-in',
  starting: 'Starting…',
  popupBlocked: (url: string) =>
    `The browser blocked the new window. Open this address yourself: ${url}`,
  waiting: 'Waiting for the provider: sign in in the new window.',
  running: 'The provider called back; the calls are running…',
  success: 'The sign-in would succeed.',
  failure: (code: string, message: string) => `The sign-in would fail: ${code}: ${message}`,
  copy: 'Copy as text',
  copied: 'Copied.',
  step: (index: number, name: string, outcome: string) => `${index}. ${name}: ${outcome}`,
  noAnswer: 'no answer',
  status: (status: number, ms: number) => `status ${status} in ${ms} ms`,
  missing: '(missing)',
  mappedUser: 'Mapped user',
  provisioning: (action: string, message: string) => `Provisioning would: ${action} — ${message}`,
  auditKind: 'Test sign-in',
} as const;

/** Every English string of the preset chooser on a new entry's form. */
export const presetTexts = {
  heading: 'Start from',
  blank: 'A blank entry',
  hint: 'A preset fills every field but the credentials. Fill in the application id and secret the provider gives you, and the parameters below.',
  parameter: (name: string, description: string) => `${name}: ${description}`,
  register: 'Register at the provider',
  setup: (name: string) => `How to register an application at ${name}`,
  callback: 'Callback URL (authorization callback, redirect URI)',
  callbackNeedsId: 'Choose the entry id first: it is part of the callback URL.',
  copy: 'Copy',
  copied: 'Copied.',
  scopes: 'Scopes',
  noScopes: 'none named in the authorization URL',
  credentials: 'Then fill in: Application id (appid) and secret (appsecret).',
} as const;
