import { z } from 'zod';

/**
 * The fields of docs/entries.md#shapes-beyond-the-basic-flow: servers whose
 * sign-in is OAuth2 in spirit but not in every detail (an application token
 * first, the code in the user-info call, a chain of calls after it). Each is
 * off unless set. Only shapes live here; validateEntry checks what they mean.
 */
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

const optionalText = (max: number) =>
  text(max)
    .optional()
    .transform((value) => (value === '' ? undefined : value));

const namedValueInput = z.strictObject({
  name: text(64),
  expression: text(4096),
});

const headerInput = z.strictObject({ name: text(256), value: text(4096) });

const callShape = {
  /** `GET` or `POST ` template, like tokenUrl. */
  url: text(4096),
  headers: z.array(headerInput).max(32).optional(),
  bodyEncoding: z.enum(['json', 'form']).optional(),
  /** An expression that must yield true, e.g. `JSON_GET($response, 'errcode') == 0`. */
  successCondition: optionalText(4096),
};

const appTokenInput = z.strictObject({
  ...callShape,
  /** Yields the application token from the answer. */
  parse: text(4096),
  /** Yields its lifetime in seconds from the answer (`expires_in`). */
  expiresIn: optionalText(4096),
  /** A fixed lifetime in seconds, for a server that does not say. */
  ttlSeconds: z
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .optional(),
});

const userInfoCallInput = z.strictObject({
  ...callShape,
  /** Names the call in messages and in the test panel. */
  name: text(64),
  /** Values read from this call's answer, usable as `${name}` in the calls after it. */
  values: z.array(namedValueInput).max(16).optional(),
  /** `attribute = expression` over this call's answer; fills attributes over user info's. */
  mapping: z
    .union([
      z.array(z.strictObject({ attribute: text(64), expression: text(4096) })).max(32),
      text(64 * 1024),
    ])
    .optional(),
});

export const shapesInput = {
  /**
   * How the server returns the code: `query` (the default, a redirect to
   * the callback) or `form_post`, a form the browser posts to it (OAuth 2.0
   * Form Post Response Mode; Sign in with Apple requires it).
   */
  responseMode: z.enum(['query', 'form_post']).optional(),
  /** The callback parameter that carries the code (DingTalk: `authCode`); `code` by default. */
  callbackCodeParameter: optionalText(64),
  /** A fragment the provider requires after the query (WeChat: `wechat_redirect`), without `#`. */
  authorizeFragment: optionalText(256),
  /** A call for an application token before the code exchange, cached for its lifetime. */
  appToken: appTokenInput.optional(),
  /** `${code}` is allowed in userInfoUrl; tokenUrl and tokenParse may then be left out. */
  codeInUserInfo: z.boolean().optional(),
  /** Values read from the user-info answer, for the calls after it. */
  userInfoValues: z.array(namedValueInput).max(16).optional(),
  /** Calls after user info, in order. */
  userInfoCalls: z.array(userInfoCallInput).max(4).optional(),
};
