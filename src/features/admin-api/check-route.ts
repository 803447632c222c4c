import { z } from 'zod';
import {
  SsogateError,
  isSsogateError,
  maskSecrets,
  secretChange,
  validateExtensionTarget,
} from '../../core/index.js';
import type { Gateway } from '../../foundation/http/gateway.js';
import { callExtension } from '../extension/client.js';
import { ExtensionAnswerError } from '../extension/extension-error.js';
import { healthAnswer } from '../extension/schemas.js';
import { RequestInvalidError, invalidField } from './api-failure.js';
import { sameExtensionOrigin } from './kept-secrets.js';
import { extensionCheckAnswer } from './response-schemas.js';
import type { ApiRouter } from './api-router.js';

const checkBody = z.strictObject({
  extensionUrl: z.string(),
  extensionSecret: z
    .string()
    .optional()
    .describe('absent or "": the stored secret of entryId is used'),
  entryId: z.string().optional(),
});

/** "Test connection" answers within this even when the entry allows longer. */
const checkTimeoutMs = 5_000;

/**
 * POST /_sso/api/extension-check, the console's "test connection" for an
 * entry of type extension: one signed call to the extension's /health, so a
 * wrong URL, a secret that differs on the two sides or a dead service shows
 * before the entry is saved. Without a secret, the stored one of `entryId`
 * is used, so the console never needs to hold it.
 */
export function extensionCheckRoute(api: ApiRouter): void {
  const { gateway } = api;
  api.route(
    {
      method: 'POST',
      url: '/_sso/api/extension-check',
      tag: 'entries',
      summary: "Test an extension service's connection: one signed call to its /health",
      body: checkBody,
      responses: { 200: { description: 'reached, or why not', schema: extensionCheckAnswer } },
      errors: [404],
    },
    async ({ body }) => {
      const secret =
        secretChange(body.extensionSecret) === 'keep'
          ? await storedSecret(gateway, body.entryId, body.extensionUrl)
          : body.extensionSecret;
      const target = validateExtensionTarget({
        extensionUrl: body.extensionUrl,
        extensionSecret: secret,
      });
      if (!target.ok) throw new RequestInvalidError(target.problems);
      const started = gateway.clock();
      try {
        await callExtension(gateway, target.extension, {
          method: 'GET',
          route: '/health',
          answer: healthAnswer,
          timeoutMs: checkTimeoutMs,
        });
      } catch (error) {
        if (!isSsogateError(error)) throw error;
        return { body: { ok: false, error: describe(error, target.extension.secret) } };
      }
      return { body: { ok: true, latencyMs: gateway.clock() - started } };
    },
  );
}

/**
 * The stored secret of `entryId`, only for the origin it was stored with: the
 * gateway never signs with it for a host the caller just typed in.
 */
async function storedSecret(
  gateway: Gateway,
  entryId: string | undefined,
  extensionUrl: string,
): Promise<unknown> {
  if (entryId === undefined) return undefined;
  const record = await gateway.storage.entries.get(entryId);
  if (record === undefined) throw new SsogateError('entry_unknown', `no entry "${entryId}"`);
  if (!sameExtensionOrigin(extensionUrl, record.input.extensionUrl)) {
    throw invalidField(
      'extensionSecret',
      "must be given to test another origin than the entry's stored extensionUrl",
    );
  }
  return record.input.extensionSecret;
}

function describe(error: SsogateError, secret: string): { code: string; message: string } {
  const message =
    error instanceof ExtensionAnswerError
      ? `the extension answered ${error.extensionCode}: ${error.extensionMessage}`
      : error.message;
  return { code: error.code, message: maskSecrets(message, [secret]) };
}
