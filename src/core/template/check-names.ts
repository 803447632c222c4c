import { nearestName } from '../errors/nearest-name.js';
import type { SsogateError } from '../errors/ssogate-error.js';
import type { PlaceholderAdjustments, TemplateKind } from './placeholders.js';
import { allowedPlaceholders, builtInPlaceholders, isBuiltInPlaceholder } from './placeholders.js';
import { problemAt } from './problem.js';
import type { TemplatePart } from './types.js';

function list(names: readonly string[]): string {
  return names.map((name) => `\${${name}}`).join(', ');
}

/**
 * Checks every placeholder name against the placeholder matrix for `kind`. Names
 * are case-sensitive; a near miss (in case, or up to two letters off) gets a
 * hint, since `${State}` or `${redirct_uri}` is a likely typo, not a new value.
 * A refusal names `place`, the field the text was typed in: a header of the
 * token call (`tokenRequest.headers[0]`) takes tokenUrl's placeholders but
 * is named as itself.
 */
export function checkPlaceholderNames(
  parts: readonly TemplatePart[],
  kind: TemplateKind,
  extra: readonly string[],
  field: string | undefined,
  adjustments: PlaceholderAdjustments = {},
  place: string = kind,
): SsogateError[] {
  const allowed = allowedPlaceholders(kind, extra, adjustments);
  const later = adjustments.later ?? [];
  const known = [
    ...builtInPlaceholders,
    ...[...extra, ...later].filter((name) => !isBuiltInPlaceholder(name)),
  ];
  const problems: SsogateError[] = [];
  for (const part of parts) {
    if (part.type !== 'placeholder' || allowed.includes(part.name)) continue;
    const { name, column } = part;
    if (!known.includes(name)) {
      const near = nearestName(name, known);
      const hint = near === undefined ? '' : ` Did you mean \${${near}}?`;
      problems.push(
        problemAt(
          'template_unknown_placeholder',
          `Unknown placeholder \${${name}}.${hint} Known placeholders: ${list(known)}.`,
          column,
          field,
          {
            placeholder: `\${${name}}`,
            known: list(known),
            ...(near === undefined ? {} : { suggestion: `\${${near}}` }),
          },
        ),
      );
    } else {
      problems.push(
        problemAt(
          'template_placeholder_not_allowed',
          notAllowed(name, kind, allowed, adjustments, place),
          column,
          field,
          { placeholder: `\${${name}}`, place, allowed: list(allowed) },
        ),
      );
    }
  }
  return problems;
}

function notAllowed(
  name: string,
  kind: TemplateKind,
  allowed: readonly string[],
  adjustments: PlaceholderAdjustments,
  place: string,
): string {
  const allowedText = `Allowed in ${place}: ${list(allowed)}.`;
  if (adjustments.later?.includes(name) === true) {
    return `\${${name}} is read from an answer that arrives after this call. ${allowedText}`;
  }
  if (name === 'app_token') {
    return `\${app_token} exists only on an entry with an appToken call, and only in tokenUrl, userInfoUrl and userInfoCalls. ${allowedText}`;
  }
  if (name === 'code' && kind === 'userInfoUrl') {
    return `\${code} is allowed in userInfoUrl only with codeInUserInfo: true. ${allowedText}`;
  }
  if (name === 'access_token' && adjustments.withhold?.includes('access_token') === true) {
    return `\${access_token} does not exist: the entry has no token exchange (no tokenUrl). ${allowedText}`;
  }
  if (name === 'app_secret' && kind === 'authorizeUrl') {
    // Always refused in the authorization URL; RFC 6749 §10.1, the secret must stay server-side.
    return `\${app_secret} is not allowed in authorizeUrl: the authorization URL is sent to the browser, so a secret there would leak. ${allowedText}`;
  }
  if (!isBuiltInPlaceholder(name)) {
    return `\${${name}} comes from the token response, so it can only be used in userInfoUrl and userInfoCalls. ${allowedText}`;
  }
  return `\${${name}} is not allowed in ${place}. ${allowedText}`;
}
