/**
 * The form field a failed step of a test blames, so the trace can link to
 * it: the template that makes the call, or the expression that read its
 * answer. Plain code (tested under Node.js): the step names are the trace's
 * (src/features/trial-sign-in/trace.ts) and the sample test's
 * (POST /_sso/api/entry-test), the fields the entry's API field names.
 */

interface BlamedStep {
  readonly name: string;
  readonly outcome: 'ok' | 'failed';
  readonly results: readonly { readonly label: string; readonly outcome: string }[];
  readonly error?: { readonly code: string; readonly message: string };
}

/**
 * The user-info step's failures of reading the answer, not of the call: the
 * parsing blames them (docs/errors.md). A step's error reads `CODE: cause`
 * when it wraps another (src/features/sign-in/oauth2-steps.ts).
 */
const parsingFailures = [
  'userinfo_parse_failed',
  'userinfo_no_user_object',
  'user_attribute_invalid',
];

function failedReading(error: BlamedStep['error']): boolean {
  if (error === undefined) return false;
  return parsingFailures.some(
    (code) => error.code === code || error.message.startsWith(`${code}:`),
  );
}

/** The field a test sign-in's step blames, or undefined when the step went well. */
export function blamedByTraceStep(step: BlamedStep): string | undefined {
  const failedResult = step.results.find((result) => result.outcome === 'failed');
  if (step.outcome === 'ok' && failedResult === undefined) return undefined;
  const label = failedResult?.label ?? '';
  switch (step.name) {
    case 'callback':
      return 'authorizeUrl';
    case 'token':
      if (label.startsWith('successCondition')) return 'tokenRequest.successCondition';
      if (label.startsWith('tokenParse')) return 'tokenParse';
      if (label.startsWith('tokenValues.')) return 'tokenValues';
      // The id_token's issuer, keys and audience come from the issuer's discovery and appid.
      if (label.startsWith('id_token checks')) return 'oidc.issuer';
      return 'tokenUrl';
    case 'user info':
      if (label.startsWith('successCondition')) return 'userInfoRequest.successCondition';
      // A failed line of the parsing reads `attribute = expression`.
      return label.includes(' = ') || failedReading(step.error) ? 'userInfoParse' : 'userInfoUrl';
    case 'extension':
      return 'extensionUrl';
    default:
      // `provisioning` fails as account_conflict, which links its own two settings.
      // `app token` and `call NAME`: both are written in the calls' JSON.
      return step.name === 'app token' || step.name.startsWith('call ')
        ? 'shapes.calls'
        : undefined;
  }
}

/** The field a failed sample test blames: the one its error names, else the step's reader. */
export function blamedBySampleStep(
  step: 'entry' | 'app_token' | 'token' | 'userinfo' | 'userinfo_call',
  errorField: string | undefined,
): string | undefined {
  if (errorField !== undefined && errorField !== '') return errorField;
  switch (step) {
    case 'token':
      return 'tokenParse';
    case 'userinfo':
      return 'userInfoParse';
    case 'app_token':
    case 'userinfo_call':
      return 'shapes.calls';
    case 'entry':
      return undefined;
  }
}
