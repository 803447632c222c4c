/**
 * Every error ssogate reports has a stable code from this one registry.
 * Code never branches on an error's message, only on its code; docs/errors.md
 * documents each code, and registry.test.ts compares the two both ways.
 *
 * `status` is the HTTP status an adapter uses when the error reaches a client
 * directly: 400 for a bad entry or expression an administrator submitted,
 * 502 for a third-party response the gateway could not use.
 */
export interface ErrorDefinition {
  readonly status: number;
  readonly summary: string;
}

export const errorRegistry = {
  // Entries and their fields (SPEC 2).
  entry_invalid: { status: 400, summary: 'The entry has one or more problems; each is listed.' },
  field_invalid: { status: 400, summary: 'A field is missing or has the wrong type or form.' },

  // URL templates (SPEC 3).
  template_syntax: {
    status: 400,
    summary: 'A `${` in a template is not closed, or a name is empty.',
  },
  template_unknown_placeholder: {
    status: 400,
    summary: 'A template names a placeholder that does not exist.',
  },
  template_placeholder_not_allowed: {
    status: 400,
    summary: 'A placeholder is not allowed in this template.',
  },
  template_method: {
    status: 400,
    summary: 'The method prefix is not `POST ` (the word POST and one space).',
  },
  template_url: { status: 400, summary: 'The template is not an absolute http(s) URL.' },
  template_repeated_parameter: {
    status: 400,
    summary: 'A `POST ` template repeats a query parameter.',
  },
  template_parameter_name: {
    status: 400,
    summary: 'A `POST ` template has a placeholder in a parameter name.',
  },
  template_value_missing: {
    status: 400,
    summary: 'A placeholder has no value to substitute (for example, no appsecret is set).',
  },
  header_invalid: {
    status: 400,
    summary: 'A request header has an invalid name, or its value contains a control character.',
  },

  // The expression language (SPEC 4), at save time.
  expression_syntax: { status: 400, summary: 'The expression does not parse.' },
  expression_unknown_function: {
    status: 400,
    summary: 'The expression calls a function that does not exist.',
  },
  expression_arity: {
    status: 400,
    summary: 'A function is called with the wrong number of arguments.',
  },
  expression_limit: { status: 400, summary: 'The expression is too long or nested too deeply.' },

  // The expression language, over a third-party response.
  response_not_json: { status: 502, summary: 'A value that had to be JSON is not.' },
  response_too_large: {
    status: 502,
    summary: 'A response body or value exceeds the size or nesting limit.',
  },
  key_not_found: { status: 502, summary: 'A key or path is not present in the JSON value.' },
  value_type: { status: 502, summary: 'A value has the wrong type for the operation.' },
  jwt_malformed: { status: 502, summary: 'A value is not a JWT whose claims can be read.' },

  // User attributes and mapping (SPEC 5).
  user_attribute_unknown: {
    status: 400,
    summary: 'A mapping names a user attribute that does not exist.',
  },
  user_attribute_repeated: {
    status: 400,
    summary: 'A mapping names the same user attribute twice.',
  },
  userinfo_text_syntax: {
    status: 400,
    summary: 'A line of the user-info mapping text is not `attribute = expression`.',
  },
  userinfo_no_user_object: {
    status: 502,
    summary: 'The user-info response has no object under the key `user`.',
  },
  user_id_missing: { status: 502, summary: 'The user-info response yielded no usable userId.' },
  user_attribute_invalid: {
    status: 502,
    summary: 'A user attribute has a value of the wrong type or length.',
  },

  // Response checks of a call.
  response_status: { status: 502, summary: 'The server answered with a status other than 2xx.' },
  success_condition_failed: {
    status: 502,
    summary: "The response did not meet the call's success condition.",
  },
  access_token_invalid: {
    status: 502,
    summary: 'The parsed access token is empty, not text, or has characters a token cannot have.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof errorRegistry;

export const errorCodes = Object.keys(errorRegistry) as readonly ErrorCode[];

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(errorRegistry, value);
}
