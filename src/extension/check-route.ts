import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  SsogateError,
  isSsogateError,
  maskSecrets,
  validateExtensionTarget,
} from '../core/index.js';
import type { Gateway } from '../app/gateway.js';
import { RequestInvalidError, parseInput } from '../admin-api/api-failure.js';
import { apiHandler, jsonBody } from '../admin-api/api-route.js';
import { callExtension } from './client.js';
import { ExtensionAnswerError } from './extension-error.js';
import { healthAnswer } from './schemas.js';

const checkBody = z.strictObject({
  extensionUrl: z.string(),
  extensionSecret: z.string().optional(),
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
export function extensionCheckRoute(app: FastifyInstance, gateway: Gateway): void {
  app.post(
    '/_sso/api/extension-check',
    apiHandler(gateway, async ({ request }) => {
      const body = parseInput(checkBody, jsonBody(request), 'body');
      const secret =
        body.extensionSecret === undefined || body.extensionSecret === ''
          ? await storedSecret(gateway, body.entryId)
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
    }),
  );
}

async function storedSecret(gateway: Gateway, entryId: string | undefined): Promise<unknown> {
  if (entryId === undefined) return undefined;
  const record = await gateway.storage.entries.get(entryId);
  if (record === undefined) throw new SsogateError('entry_unknown', `no entry "${entryId}"`);
  return record.input.extensionSecret;
}

function describe(error: SsogateError, secret: string): { code: string; message: string } {
  const message =
    error instanceof ExtensionAnswerError
      ? `the extension answered ${error.extensionCode}: ${error.extensionMessage}`
      : error.message;
  return { code: error.code, message: maskSecrets(message, [secret]) };
}
