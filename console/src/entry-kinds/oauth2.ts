import { callBody, numberOrText, withoutUndefined } from '../entry-form/body-parts.js';
import type { EntryDraft, Row } from '../entry-form/entry-draft.js';
import { shapesBody } from '../entry-form/shapes-draft.js';
import type { EntryBody } from '../types.js';
import type { CommonBody, EntryKind, FailedStep, TrialCredential } from './entry-kind.js';

/**
 * An OAuth2 entry (docs/entries.md): the gateway makes every call itself,
 * from the entry's templates. An OpenID Connect entry is one of these with
 * an `oidc` block (docs/entries.md#openid-connect), so it shares the form,
 * with its issuer in a section of its own.
 */
export const oauth2Kind: EntryKind = {
  id: 'oauth2',
  label: (words) => words.entryForm.general.oauth2,
  badge: () => undefined,
  sections: ['oidcIssuer', 'oauth2Flow'],
  samplesTest: true,
  trialSignIn: true,
  trialCredentials,
  blamedField,
  body,
};

/**
 * The App id and secret, each when the entry uses it: a `${appid}` or
 * `${app_secret}` placeholder, or HTTP Basic, which sends both. A public
 * client without a secret needs none.
 */
function trialCredentials(
  draft: { readonly clientAuthentication: 'none' | 'basic' },
  templates: string,
): TrialCredential[] {
  const basic = draft.clientAuthentication === 'basic';
  return [
    ...(basic || templates.includes('${appid}') ? ['appid' as const] : []),
    ...(basic || templates.includes('${app_secret}') ? ['appsecret' as const] : []),
  ];
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

function failedReading(error: FailedStep['error']): boolean {
  if (error === undefined) return false;
  return parsingFailures.some(
    (code) => error.code === code || error.message.startsWith(`${code}:`),
  );
}

/**
 * The template that makes the step's call, or the expression that read its
 * answer; the step names are the trace's (src/features/trial-sign-in/).
 */
function blamedField(step: FailedStep, label: string): string | undefined {
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
    default:
      // `app token` and `call NAME`: both are written in the calls' JSON.
      return step.name === 'app token' || step.name.startsWith('call ')
        ? 'shapes.calls'
        : undefined;
  }
}

function body(draft: EntryDraft, common: CommonBody): EntryBody {
  const optional = (value: string) => (value.trim() === '' ? undefined : value);
  const rows = (list: readonly Row[]) => list.filter((row) => row.name !== '' || row.value !== '');
  const tokenValues = rows(draft.tokenValues).map(({ name, value }) => ({
    name,
    expression: value,
  }));
  const mappingRows = rows(draft.mappingRows).map(({ name, value, required }) => ({
    attribute: name,
    expression: value,
    ...(required === true ? { required } : {}),
  }));
  return withoutUndefined<EntryBody>({
    ...common,
    authorizeUrl: draft.authorizeUrl,
    pkce: draft.pkce ? true : undefined,
    tokenUrl: draft.tokenUrl,
    tokenRequest: callBody(
      draft.tokenCall,
      draft.tokenUrl,
      draft.clientAuthentication === 'basic' ? { clientAuthentication: 'basic' } : {},
    ),
    tokenParse: draft.tokenParse,
    tokenValues: tokenValues.length === 0 ? undefined : tokenValues,
    userInfoUrl: draft.userInfoUrl,
    userInfoRequest: callBody(draft.userInfoCall, draft.userInfoUrl),
    userInfoParse:
      draft.mappingMode === 'text'
        ? optional(draft.mappingText)
        : mappingRows.length === 0
          ? undefined
          : mappingRows,
    logoutUrl: optional(draft.logoutUrl),
    oidc:
      draft.oidcIssuer.trim() === ''
        ? undefined
        : { ...draft.oidcOptions, issuer: draft.oidcIssuer.trim() },
    // A number when it is one; otherwise the text, so the core says what is wrong with it.
    timeoutMs: numberOrText(draft.timeoutMs),
    revalidateMinutes: numberOrText(draft.revalidateMinutes),
    revalidateGraceMinutes: numberOrText(draft.revalidateGraceMinutes),
    ...shapesBody(draft.shapes),
  });
}
