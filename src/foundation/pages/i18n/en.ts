/**
 * The English text of the gateway's pages. The Chinese catalog (zh-CN.ts)
 * is typed by this one, so a key missing from either fails the build, and
 * i18n.test.ts walks both at run time as well.
 */
export const en = {
  languageSwitch: 'Language',
  organization: 'Organisation',
  chooser: {
    title: 'Sign in',
    none: 'No way to sign in is set up yet. Ask your administrator.',
    or: 'or',
    withPassword: 'With a username and password',
    username: 'Username',
    password: 'Password',
    submit: 'Sign in',
    wrongPassword: 'The username or password is not right.',
  },
  portal: {
    title: 'Signed in',
    email: 'E-mail:',
    administration: 'Administration',
    console: 'Admin console',
  },
  signOut: {
    title: 'Sign out',
    heading: 'Sign out?',
    stay: 'Stay signed in',
    signedInAs: 'Signed in as',
    here: 'Sign out here',
    hereMeans:
      'Ends your session on this site only. You stay signed in at the sign-in service, so signing in again may not ask for your password.',
    everywhere: 'Sign out everywhere',
    everywhereMeans:
      'Also signs you out at the sign-in service you used, where it allows it: the next sign-in asks for your password again.',
  },
  secondFactor: {
    title: 'Second factor',
    verifyHeading: 'Enter a code from your authenticator',
    verifyMeans: 'This page asks for a second factor besides your sign-in.',
    code: 'Six-digit code',
    verify: 'Continue',
    orRecovery: 'Lost your authenticator? Enter one of your recovery codes instead.',
    recoveryCode: 'Recovery code',
    useRecovery: 'Use recovery code',
    wrongCode: 'The code is not right, or was used already.',
    enrolHeading: 'Set up an authenticator',
    enrolMeans:
      'Add this key to an authenticator application (one-time codes, 30 seconds, 6 digits), then enter the code it shows.',
    uri: 'Key URI:',
    secret: 'Key:',
    factorName: 'Name of this authenticator',
    defaultName: 'Authenticator',
    enrol: 'Save',
    recoveryHeading: 'Your recovery codes',
    recoveryMeans:
      'Keep these codes somewhere safe. Each works once when your authenticator is not at hand. They are shown only now.',
    continue: 'Continue',
    listHeading: 'Your second factors',
    none: 'You have no second factor.',
    added: 'added',
    remove: 'Remove',
    add: 'Add an authenticator',
    removeLastNeedsRecent:
      'Removing your last second factor needs one given in the last 15 minutes: verify a code first.',
  },
  passkey: {
    title: 'Passkey',
    verifyHeading: 'Use your passkey or security key',
    verifyMeans:
      'This page asks for a second factor besides your sign-in: your browser asks your device for the passkey.',
    verify: 'Use passkey',
    orCode: 'Use a one-time code or a recovery code instead',
    enrolHeading: 'Add a passkey or security key',
    enrolMeans:
      'Your browser asks your device, or a security key, to make a passkey for this site, unlocked by its PIN or biometrics.',
    name: 'Name of this passkey',
    defaultName: 'Passkey',
    enrol: 'Make passkey',
    orCodeEnrol: 'Use an authenticator application instead',
    failed: 'The passkey was not given. Try again, or use another way.',
    add: 'Add a passkey or security key',
    kind: 'passkey',
  },
  formPost: {
    title: 'Signing in',
    heading: 'Back to the application…',
    continue: 'Continue',
  },
  consent: {
    title: 'Allow access',
    /** Followed by the application's name, in bold. */
    heading: 'Allow this application to know who you are?',
    application: 'Application:',
    receives: 'If you allow it, it receives:',
    identifier: 'an identifier for you, the same each time you sign in to it',
    name: 'your name:',
    email: 'your e-mail address:',
    groups: 'your groups:',
    noGroups: 'your groups (you are in none)',
    allow: 'Allow',
    deny: 'Deny',
    denyMeans: 'Deny sends you back to the application without signing you in.',
  },
  callbackRelay: {
    title: 'Signing in',
    continue: 'Continue',
  },
  trialSignIn: {
    title: 'Test sign-in finished',
    wouldSucceed: 'The sign-in would succeed.',
    wouldFail: 'The sign-in would fail with this error:',
    nothingChanged: 'Nobody was signed in and no user was created or changed.',
    seeConsole: 'The console shows each step. You can close this window.',
    passwordForm: 'A test sign-in: the directory checks the password, but nobody is signed in.',
  },
  signedOut: {
    title: 'Signed out',
    hereHeading: 'You are signed out here.',
    hereText:
      'You are still signed in at the server you signed in with, so signing in again may not ask for your password. To end that too, sign in again and choose Sign out everywhere.',
    everywhereHeading: 'You are signed out.',
    everywhereText: 'You can close this window, or sign in again.',
    again: 'Sign in again',
    continue: 'Continue',
  },
  errorPage: {
    unauthenticated: 'Sign-in needed',
    forbidden: 'Not allowed',
    notFound: 'Not found',
    tooMany: 'Too many attempts',
    serverError: 'Something went wrong',
    failed: 'Sign-in did not work',
    details: 'Details from the sign-in service:',
    code: 'Error code:',
    reference: 'Reference:',
    useAnother: 'To use another account, sign out first.',
    startPage: 'Go to the start page',
    chooseAnother: 'Choose another way to sign in',
    tryAgain: 'Try again',
    /** A call refused for the entry's own settings (a wrong client secret, say): retrying cannot help. */
    misconfigured:
      'This sign-in method is not set up correctly: the sign-in service refused the gateway’s own credentials or settings. An administrator must fix it; please give them the reference below.',
    /** For a code with no sentence of its own in this language. */
    other: 'The request could not be completed.',
  },
  /** One plain sentence per code that can end on a page (pages/error-page.ts). */
  errors: {
    provider_error:
      'The sign-in service reported a problem and did not sign you in. Please try again.',
    missing_code: 'The sign-in service sent an incomplete answer. Please start again.',
    code_invalid:
      'The sign-in service sent an answer the gateway cannot accept. Please start again.',
    state_invalid: 'This sign-in link has expired or was already used. Please start again.',
    callback_post_refused:
      'The sign-in service answered in a way this sign-in method is not set up for. Ask your administrator.',
    callback_body_invalid:
      'The sign-in service sent an answer the gateway cannot accept. Please start again.',
    oidc_consent_invalid:
      'This form has expired, was already used, or was opened in another browser. Please go back to the application and sign in again.',
    entry_unknown: 'This sign-in method does not exist. Please choose another one.',
    entry_disabled: 'This sign-in method is turned off. Please choose another one.',
    token_request_failed:
      'The sign-in service could not be reached or refused the request. Please try again later.',
    token_parse_failed:
      'The sign-in service sent an answer the gateway could not read. Ask your administrator.',
    userinfo_request_failed:
      'Your account details could not be fetched from the sign-in service. Please try again later.',
    userinfo_parse_failed:
      'Your account details from the sign-in service could not be read. Ask your administrator.',
    user_disabled: 'Your account is disabled. Ask your administrator.',
    signup_not_allowed:
      'You do not have an account here yet, and this sign-in method cannot create one. Ask your administrator.',
    account_conflict:
      'An account with this name already exists and cannot be signed in to this way. Ask your administrator.',
    user_id_reserved:
      'This sign-in method gave a name kept for the accounts of another sign-in method. Ask your administrator.',
    unauthenticated: 'You need to sign in to see this page.',
    forbidden: 'You are not allowed to do this.',
    access_denied: 'Your account may not open this page. Ask your administrator for access.',
    csrf_failed: 'This form has expired. Please go back, reload the page and try again.',
    local_sign_in_failed: 'The username or password is wrong.',
    rate_limited: 'Too many attempts. Please wait a few minutes and try again.',
    second_factor_not_recent:
      'Removing your last second factor needs one given in the last 15 minutes: verify a code first.',
    request_invalid: 'The request was not understood. Please start again.',
    not_found: 'There is nothing at this address.',
    service_unavailable: 'The sign-in gateway is temporarily unavailable. Please try again later.',
    internal_error:
      'Something went wrong on our side. Please try again; if it keeps failing, tell your administrator the reference below.',
    upstream_unavailable:
      'The application behind the sign-in gateway is not answering. Please try again later.',
    upstream_timeout:
      'The application behind the sign-in gateway took too long to answer. Please try again later.',
    console_not_built:
      'The admin console has not been built on this server (npm run build:console).',
    extension_unavailable: 'The sign-in service could not be reached. Please try again later.',
    extension_timeout: 'The sign-in service took too long to answer. Please try again later.',
    extension_bad_signature:
      'The sign-in service sent an answer the gateway could not trust. Ask your administrator.',
    extension_bad_answer:
      'The sign-in service sent an answer the gateway could not read. Ask your administrator.',
    extension_error: 'The sign-in service reported a problem and did not sign you in.',
  },
} as const;

/** Every catalog's shape: the English keys, any text. */
export type PageMessages = Widen<typeof en>;

type Widen<T> = { readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
