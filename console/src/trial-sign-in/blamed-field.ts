import { entryKinds } from '../entry-kinds/registry.js';

/**
 * The form field a failed step of a test blames, so the trace can link to
 * it: the template that makes the call, or the expression that read its
 * answer. Plain code (tested under Node.js): the step names are the trace's
 * (src/features/trial-sign-in/trace-types.ts) and the sample test's
 * (POST /_sso/api/entry-test), the fields the entry's API field names.
 */

interface BlamedStep {
  readonly name: string;
  readonly outcome: 'ok' | 'failed';
  readonly results: readonly { readonly label: string; readonly outcome: string }[];
  readonly error?: { readonly code: string; readonly message: string };
}

/**
 * The field a test sign-in's step blames, or undefined when the step went
 * well. Each kind of entry names the fields of its own steps
 * (console/src/entry-kinds/); no two kinds share a step's name. `provisioning`
 * blames none: it fails as account_conflict, which links its own two
 * settings.
 */
export function blamedByTraceStep(step: BlamedStep): string | undefined {
  const failedResult = step.results.find((result) => result.outcome === 'failed');
  if (step.outcome === 'ok' && failedResult === undefined) return undefined;
  const label = failedResult?.label ?? '';
  for (const kind of entryKinds) {
    const field = kind.blamedField(step, label);
    if (field !== undefined) return field;
  }
  return undefined;
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
