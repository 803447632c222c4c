import { z } from 'zod';

/**
 * The extension contract's bodies (docs/extension-api.yaml is generated from
 * these, and a test compares the two). Answers are parsed with strict
 * schemas: a field the contract does not name, or a value of another type,
 * refuses the whole answer rather than being guessed at.
 */

const settings = z
  .record(z.string(), z.string())
  .describe("The entry's extensionSettings, as the administrator wrote them.");

const appid = z.string().describe("The entry's appid, when it has one.").optional();

export const authorizeUrlRequest = z
  .strictObject({
    entryId: z.string().describe('The id of the entry signing in.'),
    state: z
      .string()
      .describe(
        'An opaque single-use value; the third-party server must send it back as the `state` query parameter of the callback.',
      ),
    redirectUri: z
      .string()
      .describe("The gateway's callback URL for this entry; send it as the server expects."),
    appid,
    settings,
  })
  .describe('Build the URL the browser is sent to.');

export const authorizeUrlAnswer = z
  .strictObject({
    url: z.string().max(8192).describe('An absolute http(s) URL for the browser.'),
  })
  .describe('The authorization URL.');

export const callbackRequest = z
  .strictObject({
    entryId: z.string().describe('The id of the entry signing in.'),
    redirectUri: z.string().describe('The same redirect URI as in the authorize-url request.'),
    query: z
      .record(z.string(), z.union([z.string(), z.array(z.string())]))
      .describe(
        "The callback's whole query, state included: a parameter given more than once is a list.",
      ),
    appid,
    appsecret: z.string().describe("The entry's appsecret, when it has one.").optional(),
    settings,
  })
  .describe("Turn the callback's query into the user.");

/** The same bounds the gateway puts on attributes mapped from any server (core/user/coerce.ts). */
const attribute = (max: number, what: string) => z.string().max(max).describe(what).optional();

const extensionUser = z.strictObject({
  userId: z.string().min(1).max(255).describe('The stable identifier of the user; required.'),
  userName: attribute(1024, 'Display name.'),
  email: attribute(320, 'Email address.'),
  mobile: attribute(64, 'Mobile number.'),
  department: attribute(1024, 'Department.'),
  enabled: z
    .boolean()
    .describe('false refuses the sign-in (the server says the user is disabled).')
    .optional(),
  extra: z
    // Values are whatever JSON the answer held (it was parsed from JSON).
    .record(z.string(), z.unknown())
    .describe('Attributes without a column of their own, kept as JSON (at most 64 KiB).')
    .optional(),
});

export const callbackAnswer = z
  .strictObject({ user: extensionUser })
  .describe('The user the callback signs in.');

export const healthAnswer = z
  .strictObject({
    ok: z.literal(true),
    name: z.string().max(200).describe('What the extension is, for the console.').optional(),
    version: z.string().max(100).optional(),
  })
  .describe('The extension is up and shares the secret.');

export const errorAnswer = z
  .strictObject({
    error: z.strictObject({
      code: z
        .string()
        .regex(/^[a-z][a-z0-9_]{0,63}$/)
        .describe(
          'A snake_case code of the extension, such as access_denied or token_request_failed.',
        ),
      message: z
        .string()
        .max(1000)
        .describe('A sentence for the user and the log; never a secret or a token.'),
    }),
  })
  .describe('The extension could not do what was asked.');

export type AuthorizeUrlRequest = z.infer<typeof authorizeUrlRequest>;
export type CallbackRequest = z.infer<typeof callbackRequest>;
export type ExtensionUser = z.infer<typeof extensionUser>;
