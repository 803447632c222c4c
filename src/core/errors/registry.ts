/**
 * Every error ssogate reports has a stable code from this one registry.
 * Code never branches on an error's message, only on its code; docs/errors.md
 * documents each code, and registry.test.ts compares the two both ways.
 *
 * `status` is the HTTP status an adapter uses when the error reaches a client
 * directly: 400 for a bad entry or expression an administrator submitted,
 * 502 for a third-party response the gateway could not use.
 */
interface ErrorDefinition {
  readonly status: number;
  readonly summary: string;
  /**
   * A refusal of the gateway's OpenID Provider, in OAuth's own form (RFC 6749
   * §4.1.2.1, §5.2; RFC 6750 §3.1; OpenID Connect Core §3.1.2.6): the
   * `error` and `error_description` its client is answered
   * (src/core/provider/refusals.ts). `auditedAs` names the code its audit
   * event carries when that is another's (the reason operators search by).
   */
  readonly oauth?: {
    readonly error: string;
    readonly description: string;
    readonly auditedAs?: string;
  };
}

export const errorRegistry = {
  // Entries and their fields (docs/entries.md#fields).
  entry_invalid: { status: 400, summary: 'The entry has one or more problems; each is listed.' },
  field_invalid: { status: 400, summary: 'A field is missing or has the wrong type or form.' },

  // URL templates (docs/entries.md#placeholders).
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
  ldap_dn_invalid: {
    status: 400,
    summary: 'A DN field of an LDAP entry is not a distinguished name (RFC 4514).',
  },
  ldap_filter_invalid: {
    status: 400,
    summary: 'A filter of an LDAP entry is not an RFC 4515 filter or lacks its placeholder.',
  },
  url_address_refused: {
    status: 400,
    summary:
      'The URL names a host the gateway does not call: loopback, private, metadata and the like.',
  },
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

  // The expression language (docs/entries.md#expressions), at save time.
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

  // User attributes and mapping (docs/entries.md#user-mapping).
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
  user_attribute_number_inexact: {
    status: 502,
    summary: 'A user attribute is a number that is not an exact integer (a fraction, -0, 1e21).',
  },
  user_attribute_control_character: {
    status: 502,
    summary: 'A userId or email holds a control character (CR, LF, NUL, ...).',
  },
  user_attribute_whitespace: {
    status: 502,
    summary: 'A userId starts or ends with whitespace, which HTTP and people trim away.',
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
  app_token_invalid: {
    status: 502,
    summary: 'The parsed application token or its lifetime is missing or malformed.',
  },

  // Sending a call to a third-party server (src/foundation/outbound).
  outbound_timeout: {
    status: 504,
    summary: 'The third-party server did not answer completely within the time-out.',
  },
  outbound_network: {
    status: 502,
    summary: 'The third-party server could not be reached (refused, DNS, TLS or reset).',
  },
  outbound_too_large: {
    status: 502,
    summary: 'The third-party response body exceeds the size limit.',
  },
  outbound_address_refused: {
    status: 502,
    summary: 'The host, or an address it resolves to, is one the gateway does not call.',
  },
  outbound_busy: {
    status: 503,
    summary: 'Too many calls to this server are in flight; this one waited its whole time-out.',
  },

  // The sign-in flow (docs/design.md#failures): each ends on an error page with a reference id.
  provider_error: {
    status: 400,
    summary: 'The third-party server sent an error instead of a code.',
  },
  missing_code: { status: 400, summary: 'The callback carries no code, or more than one.' },
  code_invalid: {
    status: 400,
    summary: "The callback's code has characters a code cannot have (printable ASCII only).",
  },
  state_invalid: {
    status: 400,
    summary: "The sign-in is unknown, expired, already used or not this browser's.",
  },
  callback_post_refused: {
    status: 405,
    summary: 'The callback was posted, but the entry expects it in the query (responseMode).',
  },
  callback_body_invalid: {
    status: 400,
    summary:
      'A posted callback is not an application/x-www-form-urlencoded form of at most 16 KiB.',
  },
  entry_unknown: { status: 404, summary: 'No entry has this id.' },
  entry_disabled: { status: 403, summary: 'The entry is disabled.' },
  app_token_failed: {
    status: 502,
    summary: 'The application-token call failed or its answer could not be read.',
  },
  token_request_failed: { status: 502, summary: 'The access-token call failed.' },
  token_parse_failed: {
    status: 502,
    summary: 'The access token could not be read from the response.',
  },
  userinfo_request_failed: { status: 502, summary: 'The user-info call failed.' },
  userinfo_parse_failed: {
    status: 502,
    summary: 'The user could not be read from the user-info response.',
  },
  user_disabled: { status: 403, summary: 'The user is disabled.' },
  signup_not_allowed: {
    status: 403,
    summary: 'The user does not exist and this entry does not create users.',
  },
  account_conflict: {
    status: 409,
    summary: 'A user with this userId exists but came from elsewhere.',
  },
  user_id_reserved: {
    status: 409,
    summary:
      "A global entry's userId has the form `<entry id>:…`, reserved for that entry's users.",
  },

  // SAML entries (docs/entries.md#saml-20-identity-providers): each check of a Response has its own code.
  saml_response_invalid: {
    status: 400,
    summary:
      'The posted SAMLResponse is missing, not a SAML 2.0 Response, or lacks a part the profile requires.',
  },
  saml_decryption_failed: {
    status: 400,
    summary:
      'The assertion is encrypted and the entry holds no service provider key, or it was encrypted to another key.',
  },
  saml_metadata_unavailable: {
    status: 502,
    summary:
      "The identity provider's metadata could not be fetched from saml.idpMetadataUrl, and no earlier copy is held.",
  },
  saml_metadata_invalid: {
    status: 502,
    summary:
      "The identity provider's metadata does not give what the entry leaves out: an HTTP-Redirect SingleSignOnService, an entityID or a signing certificate.",
  },
  saml_status: {
    status: 400,
    summary: 'The identity provider answered with a status other than Success.',
  },
  saml_signature_invalid: {
    status: 400,
    summary:
      "The Response and its assertion carry no valid signature of the entry's certificate, or a wrapped one.",
  },
  saml_issuer_mismatch: {
    status: 400,
    summary:
      "The Response, assertion or logout message was issued by another entity than the entry's idpEntityId.",
  },
  saml_destination_mismatch: {
    status: 400,
    summary:
      "The Destination or the Recipient of the Response is not this entry's callback, or a logout message's Destination not its SingleLogoutService.",
  },
  saml_audience_mismatch: {
    status: 400,
    summary: "The assertion's audience is not the entry's service provider entityID.",
  },
  saml_in_response_to_mismatch: {
    status: 400,
    summary:
      'The Response does not answer the AuthnRequest this sign-in sent, or the LogoutResponse no LogoutRequest the gateway sent and awaits.',
  },
  saml_assertion_expired: {
    status: 400,
    summary: 'The assertion is not yet valid or no longer valid (beyond the clock skew).',
  },
  saml_logout_invalid: {
    status: 400,
    summary:
      'The single logout message is not a redirect-bound SAML 2.0 LogoutRequest or LogoutResponse, or its LogoutRequest names no NameID.',
  },
  saml_logout_signature_invalid: {
    status: 400,
    summary:
      "The LogoutRequest is unsigned, or a logout message's signature does not hold by the identity provider's certificate with an allowed SigAlg.",
  },
  saml_logout_expired: {
    status: 400,
    summary:
      "The identity provider's LogoutRequest was issued too long ago or in the future, or is past its NotOnOrAfter.",
  },
  saml_logout_replayed: {
    status: 400,
    summary: "The identity provider's LogoutRequest was received already.",
  },

  // OpenID Connect entries (docs/entries.md#openid-connect): each refusal has its own code.
  oidc_discovery_invalid: {
    status: 502,
    summary:
      "The provider's discovery document is not usable: not JSON, another issuer, or an endpoint missing.",
  },
  oidc_discovery_failed: {
    status: 502,
    summary: "The provider's discovery document or key set could not be fetched.",
  },
  callback_issuer_mismatch: {
    status: 400,
    summary:
      'The callback names another issuer, or none where the provider always names it (RFC 9207).',
  },
  id_token_missing: { status: 502, summary: 'The token response carries no id_token.' },
  id_token_invalid_signature: {
    status: 502,
    summary: "The id_token is not signed by one of the provider's keys with an allowed algorithm.",
  },
  id_token_issuer: { status: 502, summary: 'The id_token was issued by another issuer.' },
  id_token_audience: { status: 502, summary: 'The id_token was issued to another client.' },
  id_token_expired: { status: 502, summary: 'The id_token has expired.' },
  id_token_issued_at: {
    status: 502,
    summary: 'The id_token has no issue time, or one in the future.',
  },
  id_token_nonce: {
    status: 502,
    summary: 'The id_token does not carry the nonce this sign-in sent.',
  },
  id_token_claims: { status: 502, summary: 'The id_token lacks a claim it must have (sub).' },
  id_token_unverified: {
    status: 502,
    summary: "JWT_CLAIMS was given a token other than the sign-in's verified id_token.",
  },
  userinfo_subject_mismatch: {
    status: 502,
    summary: "The user-info answer's sub is not the id_token's.",
  },
  session_revalidation_refused: {
    status: 401,
    summary: "At a session's re-check the provider refused its refresh token or user-info call.",
  },
  frontchannel_logout_invalid: {
    status: 400,
    summary:
      "A front-channel logout request does not name the entry's issuer as iss and one provider session as sid.",
  },
  logout_token_invalid: {
    status: 400,
    summary:
      'A back-channel logout token is not valid: signature, issuer, audience, events, sid or sub, or replayed.',
  },

  // The gateway's own surface.
  unauthenticated: {
    status: 401,
    summary: 'The request needs a signed-in session or an API token.',
  },
  forbidden: { status: 403, summary: 'The signed-in user may not do this.' },
  csrf_failed: {
    status: 403,
    summary: 'A changing request came without the CSRF header or form field.',
  },
  origin_refused: {
    status: 403,
    summary: 'A WebSocket handshake came from a page of another site.',
  },
  ldap_sign_in_failed: {
    status: 401,
    summary: 'The username or password is wrong for the directory; the answer does not say which.',
  },
  ldap_unavailable: {
    status: 503,
    summary: 'The directory could not be reached in time, or its TLS could not be verified.',
  },
  ldap_directory_error: {
    status: 502,
    summary: 'The directory refused the service account or answered the search with an error.',
  },
  local_sign_in_failed: {
    status: 401,
    summary: 'The username or password is wrong, or the account cannot sign in.',
  },
  rate_limited: { status: 429, summary: 'Too many attempts; wait and try again.' },
  handoff_replayed: {
    status: 400,
    summary: 'The sign-in handoff was used already, or is unknown.',
  },
  handoff_expired: {
    status: 400,
    summary: 'The sign-in handoff came later than its 60 seconds.',
  },
  handoff_wrong_host: {
    status: 400,
    summary: 'The sign-in handoff was made for another host.',
  },
  handoff_host_not_listed: {
    status: 400,
    summary: 'The sign-in handoff names a host the gateway does not serve.',
  },
  handoff_wrong_browser: {
    status: 400,
    summary: 'The sign-in handoff was started in another browser.',
  },
  request_invalid: { status: 400, summary: 'The request does not have the expected shape.' },
  not_found: { status: 404, summary: 'There is nothing at this address.' },
  request_timeout: {
    status: 408,
    summary: 'The request body did not arrive in time, and the connection was closed.',
  },
  entry_exists: { status: 409, summary: 'An entry with this id exists already.' },
  service_unavailable: {
    status: 503,
    summary: 'A backing service (database, session store) is not reachable.',
  },
  internal_error: {
    status: 500,
    summary: 'Something unexpected failed; the reference id finds it in the log.',
  },
  config_invalid: {
    status: 500,
    summary: 'The configuration is invalid; every problem is listed.',
  },
  entries_file_too_large: {
    status: 500,
    summary: 'The entries file is larger than 1 MiB and is not read.',
  },
  backup_folder_missing: {
    status: 500,
    summary: 'The folder a backup is to be written in does not exist.',
  },

  // The admin API's conflicts with the current state.
  entry_default_disabled: {
    status: 409,
    summary: 'A disabled entry cannot be made the default.',
  },
  last_admin: {
    status: 409,
    summary: 'The change would leave no enabled administrator.',
  },
  self_lockout: {
    status: 409,
    summary: 'Administrators cannot lock themselves or revoke their own administrator rights.',
  },
  api_token_expired: {
    status: 401,
    summary: 'The API token has passed its expiry time.',
  },
  api_token_owner_revoked: {
    status: 401,
    summary:
      "The API token's owner is locked, deleted, no longer an administrator, or signs in through a disabled entry.",
  },
  password_wrong: {
    status: 403,
    summary: 'The current password given to change a password is not right.',
  },
  password_weak: {
    status: 400,
    summary: 'A new password is too short, too long, the current one, or contains the user id.',
  },
  password_not_local: {
    status: 409,
    summary:
      'Only a signed-in local account (not an API token or a federated user) has a password.',
  },
  api_token_name_taken: {
    status: 409,
    summary: 'An unrevoked API token has this name already.',
  },
  oidc_client_unknown: { status: 404, summary: 'No OpenID client has this client id.' },
  oidc_client_exists: { status: 409, summary: 'An OpenID client has this client id already.' },
  oidc_client_public: {
    status: 409,
    summary: 'A public OpenID client has no secret to rotate.',
  },
  oidc_client_sector_ambiguous: {
    status: 400,
    summary: "A pairwise client's redirect URIs must all share one host, its sector.",
  },
  oidc_authorization_invalid: {
    status: 400,
    summary:
      'The authorization request names no known client, or a redirect URI the client does not list.',
  },
  oidc_user_refused: {
    status: 403,
    summary: 'The application does not accept this user, or sign-ins through this entry.',
  },
  oidc_consent_invalid: {
    status: 400,
    summary:
      'The consent form is unknown, used already, expired, or from another browser or sign-in.',
  },
  oidc_logout_invalid: {
    status: 400,
    summary:
      'The sign-out request has no valid id_token_hint, or a post-logout URI the client does not list.',
  },
  // Refusals of the gateway's OpenID Provider in OAuth's form (docs/errors.md#the-openid-providers-refusals).
  // The authorization request sent back to the client.
  provider_authorize_too_long: {
    status: 302,
    summary: 'The authorization request is too long to come back to after a sign-in or consent.',
    oauth: {
      error: 'invalid_request',
      description: 'the authorization request is too long to come back to',
    },
  },
  provider_authorize_parameter_repeated: {
    status: 302,
    summary: 'An authorization request parameter is given twice.',
    oauth: { error: 'invalid_request', description: 'a parameter is repeated' },
  },
  provider_request_not_supported: {
    status: 302,
    summary: 'The authorization request carries a request object.',
    oauth: { error: 'request_not_supported', description: 'request objects are not supported' },
  },
  provider_request_uri_not_supported: {
    status: 302,
    summary: 'The authorization request carries a request_uri.',
    oauth: { error: 'request_uri_not_supported', description: 'request_uri is not supported' },
  },
  provider_response_mode_unsupported: {
    status: 302,
    summary: 'The response_mode is neither query nor form_post.',
    oauth: { error: 'invalid_request', description: 'response_mode may be query or form_post' },
  },
  provider_unsupported_response_type: {
    status: 302,
    summary: 'The response_type is not code.',
    oauth: { error: 'unsupported_response_type', description: 'response_type must be code' },
  },
  provider_scope_without_openid: {
    status: 302,
    summary: 'The scope does not include openid.',
    oauth: { error: 'invalid_scope', description: 'the scope must include openid' },
  },
  provider_pkce_missing: {
    status: 302,
    summary: 'A public client sent no PKCE code_challenge.',
    oauth: {
      error: 'invalid_request',
      description: 'a public client must send a PKCE code_challenge (S256)',
    },
  },
  provider_pkce_method_alone: {
    status: 302,
    summary: 'A code_challenge_method came without a code_challenge.',
    oauth: {
      error: 'invalid_request',
      description: 'code_challenge_method without code_challenge',
    },
  },
  provider_pkce_challenge_invalid: {
    status: 302,
    summary: 'The code_challenge is not an S256 one.',
    oauth: { error: 'invalid_request', description: 'the code_challenge must be S256' },
  },
  provider_prompt_unknown: {
    status: 302,
    summary: 'The prompt names a word other than none, login or consent.',
    oauth: { error: 'invalid_request', description: 'prompt may be none, login or consent' },
  },
  provider_prompt_none_combined: {
    status: 302,
    summary: 'The prompt combines none with another word.',
    oauth: { error: 'invalid_request', description: 'prompt=none cannot be combined' },
  },
  provider_max_age_invalid: {
    status: 302,
    summary: 'The max_age is not a whole number of seconds.',
    oauth: { error: 'invalid_request', description: 'max_age must be a whole number of seconds' },
  },
  provider_claims_invalid: {
    status: 302,
    summary: 'The claims parameter is not a JSON object of claims requests.',
    oauth: {
      error: 'invalid_request',
      description: 'claims must be a JSON object as OpenID Connect Core 5.5 describes',
    },
  },
  provider_acr_unsupported: {
    status: 302,
    summary:
      'The claims parameter asks for an essential acr none of whose values the gateway states.',
    oauth: {
      error: 'access_denied',
      description: 'the essential acr values cannot be satisfied here',
    },
  },
  provider_login_required: {
    status: 302,
    summary: 'A request with prompt=none found no fresh gateway session.',
    oauth: { error: 'login_required', description: 'no signed-in session at the gateway' },
  },
  provider_login_required_hint: {
    status: 302,
    summary:
      'A request with prompt=none names by its id_token_hint another user than the signed-in one.',
    oauth: {
      error: 'login_required',
      description: 'the id_token_hint does not name the signed-in user',
    },
  },
  provider_consent_required: {
    status: 302,
    summary: "A request with prompt=none needs the user's consent first.",
    oauth: {
      error: 'consent_required',
      description: 'the user has not allowed the application yet',
    },
  },
  provider_interaction_required_factor: {
    status: 302,
    summary:
      'A request with prompt=none asks for an acr the session does not hold a second factor for.',
    oauth: {
      error: 'interaction_required',
      description: 'the acr asked for needs a second factor first',
    },
  },
  provider_acr_unmet: {
    status: 302,
    summary: 'After a second factor, the sign-in still satisfies none of the essential acr values.',
    oauth: {
      error: 'access_denied',
      description: 'the second factor given does not satisfy the essential acr',
    },
  },
  provider_access_denied: {
    status: 303,
    summary: 'The user denied the application on the consent page.',
    oauth: { error: 'access_denied', description: 'the user denied the request' },
  },
  // The token endpoint.
  provider_token_rate_limited: {
    status: 429,
    summary: 'The client address made too many token requests this minute.',
    oauth: { error: 'invalid_request', description: 'too many token requests; try again later' },
  },
  provider_token_parameter_repeated: {
    status: 400,
    summary: 'A token request parameter is given twice.',
    oauth: { error: 'invalid_request', description: 'a parameter is repeated' },
  },
  provider_client_credentials_invalid: {
    status: 401,
    summary: 'The token request names no client, or authenticates it two ways or as two clients.',
    oauth: { error: 'invalid_client', description: 'the client did not authenticate' },
  },
  provider_client_unknown: {
    status: 401,
    summary: 'The token request names a client that is not registered.',
    oauth: { error: 'invalid_client', description: 'the client did not authenticate' },
  },
  provider_client_secret_wrong: {
    status: 401,
    summary: "The client's secret is wrong or missing, or a public client sent one.",
    oauth: { error: 'invalid_client', description: 'the client did not authenticate' },
  },
  provider_unsupported_grant_type: {
    status: 400,
    summary: 'The grant_type is neither authorization_code nor refresh_token.',
    oauth: {
      error: 'unsupported_grant_type',
      description: 'grant_type must be authorization_code or refresh_token',
    },
  },
  provider_code_missing: {
    status: 400,
    summary: 'The token request carries no code.',
    oauth: { error: 'invalid_request', description: 'no code' },
  },
  provider_code_invalid: {
    status: 400,
    summary: "The code is unknown, expired, or another client's.",
    oauth: { error: 'invalid_grant', description: 'the code is unknown, expired or used' },
  },
  provider_code_reused: {
    status: 400,
    summary: 'The code was used already; its grant is revoked.',
    oauth: { error: 'invalid_grant', description: 'the code is unknown, expired or used' },
  },
  provider_code_redirect_uri: {
    status: 400,
    summary: 'The redirect_uri is not the one the code was sent to.',
    oauth: { error: 'invalid_grant', description: 'the redirect_uri is not the one of the code' },
  },
  provider_code_verifier_wrong: {
    status: 400,
    summary: "The code_verifier does not prove the code's PKCE challenge.",
    oauth: { error: 'invalid_grant', description: 'the code_verifier does not match' },
  },
  provider_refresh_not_allowed: {
    status: 400,
    summary: 'The client has no refresh tokens.',
    oauth: { error: 'unauthorized_client', description: 'the client has no refresh tokens' },
  },
  provider_refresh_token_missing: {
    status: 400,
    summary: 'The token request carries no refresh_token.',
    oauth: { error: 'invalid_request', description: 'no refresh_token' },
  },
  provider_refresh_token_invalid: {
    status: 400,
    summary: "The refresh token is unknown, expired, or another client's.",
    oauth: { error: 'invalid_grant', description: 'the refresh token is unknown, expired or used' },
  },
  provider_refresh_token_reused: {
    status: 400,
    summary: 'The refresh token was used already; its grant is revoked.',
    oauth: { error: 'invalid_grant', description: 'the refresh token is unknown, expired or used' },
  },
  provider_grant_sign_in_ended: {
    status: 400,
    summary: 'The gateway sign-in the code or refresh token came from has ended.',
    oauth: { error: 'invalid_grant', description: 'the gateway sign-in of this grant has ended' },
  },
  provider_grant_user_disabled: {
    status: 400,
    summary: 'The user of the grant is disabled.',
    oauth: { error: 'invalid_grant', description: 'the user is no longer enabled' },
  },
  provider_grant_user_refused: {
    status: 400,
    summary: "The client's rules no longer accept the user of the grant.",
    oauth: {
      error: 'invalid_grant',
      description: 'the client no longer accepts this user',
      auditedAs: 'oidc_user_refused',
    },
  },
  provider_grant_revoked: {
    status: 400,
    summary: 'The grant was revoked while its tokens were being issued.',
    oauth: { error: 'invalid_grant', description: 'the grant has been revoked' },
  },
  // The userinfo endpoint.
  provider_bearer_missing: {
    status: 401,
    summary: 'The userinfo request carries no Bearer access token.',
    oauth: { error: 'invalid_request', description: 'a Bearer access token is needed' },
  },
  provider_access_token_invalid: {
    status: 401,
    summary: 'The access token is unknown, expired or revoked.',
    oauth: {
      error: 'invalid_token',
      description: 'the access token is unknown, expired or revoked',
    },
  },
  provider_access_token_sign_in_ended: {
    status: 401,
    summary: 'The gateway sign-in the access token came from has ended.',
    oauth: {
      error: 'invalid_token',
      description: 'the access token is unknown, expired or revoked',
    },
  },
  provider_access_token_client_gone: {
    status: 401,
    summary: 'The client the access token was issued to is deleted.',
    oauth: {
      error: 'invalid_token',
      description: 'the access token is unknown, expired or revoked',
    },
  },
  provider_access_token_user_disabled: {
    status: 401,
    summary: 'The user of the access token is disabled.',
    oauth: {
      error: 'invalid_token',
      description: 'the access token is unknown, expired or revoked',
    },
  },
  provider_access_token_user_refused: {
    status: 401,
    summary: "The client's rules no longer accept the user of the access token.",
    oauth: {
      error: 'invalid_token',
      description: 'the access token is unknown, expired or revoked',
      auditedAs: 'oidc_user_refused',
    },
  },
  backchannel_logout_refused: {
    status: 502,
    summary:
      "An OpenID client's back-channel logout endpoint did not answer 200 to a logout token.",
  },
  test_sign_in_unknown: { status: 404, summary: 'No test sign-in has this id.' },
  test_sign_in_expired: {
    status: 410,
    summary: "The test sign-in's trace is past its lifetime; start a new test.",
  },
  test_sign_in_forbidden: {
    status: 403,
    summary: 'The test sign-in was started by another administrator or token.',
  },
  test_sign_in_needs_state: {
    status: 400,
    summary:
      "The entry's authorization URL has no `${state}`, by which a test sign-in finds its callback.",
  },
  console_not_built: {
    status: 503,
    summary: 'The admin console has not been built on this server (npm run build:console).',
  },
  upstream_unavailable: {
    status: 502,
    summary: 'The application behind the gateway refused the connection or failed.',
  },
  upstream_timeout: {
    status: 504,
    summary: 'The application behind the gateway did not answer in time.',
  },
  access_denied: {
    status: 403,
    summary: 'An access rule does not let the signed-in user reach this address.',
  },
  second_factor_required: {
    status: 401,
    summary:
      'An access rule, or SSOGATE_ADMIN_SECOND_FACTOR for the console, asks for a second factor (or a more recent one) that the session does not hold.',
  },
  second_factor_invalid: {
    status: 401,
    summary: 'The second-factor code or recovery code is wrong, or was used already.',
  },
  second_factor_enrolment_invalid: {
    status: 400,
    summary:
      'The authenticator enrolment form is not this session’s, or is older than ten minutes.',
  },
  second_factor_not_recent: {
    status: 403,
    summary:
      'This change to second factors needs one given in this session in the last 15 minutes.',
  },
  webauthn_origin: {
    status: 400,
    summary: 'A passkey answer was made for another origin than the gateway’s public URL.',
  },
  webauthn_challenge: {
    status: 400,
    summary:
      'A passkey answer signs a challenge that is not this session’s, was used already, or has expired.',
  },
  webauthn_counter: {
    status: 401,
    summary:
      'A passkey’s signature counter did not increase: the authenticator may have been cloned.',
  },
  webauthn_unknown_credential: {
    status: 401,
    summary: 'A passkey answer names a credential the user does not hold.',
  },
  webauthn_user_verification: {
    status: 401,
    summary: 'A passkey answer does not say the user was verified (PIN or biometrics).',
  },
  webauthn_invalid: {
    status: 400,
    summary: 'A passkey answer is malformed, or its signature or attestation does not verify.',
  },
  forwarded_uri_conflict: {
    status: 400,
    summary:
      'A forward-auth check names two different paths (X-Original-URL, X-Forwarded-Uri, X-Original-URI).',
  },
  forwarded_uri_missing: {
    status: 400,
    summary: 'A forward-auth check names no path while access rules are set.',
  },

  // The extension service of an entry of type extension (docs/extension.md).
  extension_unavailable: {
    status: 502,
    summary: 'The extension service could not be reached, or failed without a signed answer.',
  },
  extension_timeout: {
    status: 504,
    summary: "The extension service did not answer completely within the entry's time-out.",
  },
  extension_bad_signature: {
    status: 502,
    summary: 'An answer of the extension service is unsigned, wrongly signed or stale.',
  },
  extension_bad_answer: {
    status: 502,
    summary: "An answer of the extension service does not have the contract's shape.",
  },
  extension_error: {
    status: 502,
    summary: 'The extension service answered with an error of its own.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof errorRegistry;

export const errorCodes = Object.keys(errorRegistry) as readonly ErrorCode[];

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(errorRegistry, value);
}
