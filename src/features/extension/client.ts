import type { z } from 'zod';
import type { CompiledExtension, RandomSource } from '../../core/index.js';
import { SsogateError, fieldPath, isSsogateError, randomToken } from '../../core/index.js';
import type { SendOutbound } from '../../foundation/outbound/outbound-policy.js';
import { ExtensionAnswerError } from './extension-error.js';
import { errorAnswer } from './schemas.js';
import {
  answerSigningText,
  requestSigningText,
  sign,
  signatureHeaders,
  signatureMatches,
  timestampFresh,
  unixSeconds,
} from './signing.js';

export interface ExtensionClientDeps {
  readonly send: SendOutbound;
  readonly clock: () => number;
  readonly random: RandomSource;
}

interface ExtensionCall<S extends z.ZodType> {
  readonly method: 'GET' | 'POST';
  /** The contract's route, appended to the extension's base URL: /health, /authorize-url, /callback. */
  readonly route: string;
  readonly body?: unknown;
  readonly answer: S;
  readonly timeoutMs: number;
}

/** Answers are a URL or a user: far below this, and nothing larger is read. */
export const maxAnswerBytes = 64 * 1024;

/**
 * One signed call to an extension service (docs/extension.md): the request is signed,
 * sent with the entry's time-out and a size cap through the gateway's
 * outbound client (no redirects, plain http only to loopback), and the
 * answer is believed only once its signature binds it to this request and
 * its body has the contract's exact shape. Every failure is a coded error.
 */
export async function callExtension<S extends z.ZodType>(
  deps: ExtensionClientDeps,
  extension: CompiledExtension,
  call: ExtensionCall<S>,
): Promise<z.output<S>> {
  const url = `${extension.url}${call.route}`;
  const body = call.body === undefined ? '' : JSON.stringify(call.body);
  const timestamp = unixSeconds(deps.clock());
  const nonce = randomToken(deps.random, 16);
  const signature = sign(
    extension.secret,
    requestSigningText({
      method: call.method,
      path: new URL(url).pathname,
      timestamp,
      nonce,
      body,
    }),
  );
  let response;
  try {
    response = await deps.send({
      method: call.method,
      url,
      headers: {
        accept: 'application/json',
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        [signatureHeaders.timestamp]: timestamp,
        [signatureHeaders.nonce]: nonce,
        [signatureHeaders.signature]: signature,
      },
      body: call.body === undefined ? undefined : body,
      timeoutMs: call.timeoutMs,
      maxResponseBytes: maxAnswerBytes,
    });
  } catch (error) {
    throw callFailure(error, call.route);
  }
  const headers = response.headers ?? {};
  const answerSignature = headers[signatureHeaders.signature];
  const answerTimestamp = headers[signatureHeaders.timestamp] ?? '';
  if (answerSignature === undefined && response.status >= 500) {
    // Unsigned 5xx: a proxy in front of the extension, or the extension crashed.
    throw new SsogateError(
      'extension_unavailable',
      `the extension's ${call.route} answered ${response.status} without a signature`,
    );
  }
  const signedText = answerSigningText({
    status: response.status,
    timestamp: answerTimestamp,
    nonce,
    body: response.body,
  });
  if (
    answerSignature === undefined ||
    !signatureMatches(extension.secret, signedText, answerSignature)
  ) {
    throw new SsogateError(
      'extension_bad_signature',
      `the extension's ${call.route} answer (status ${response.status}) ` +
        (answerSignature === undefined
          ? 'carries no signature'
          : 'has a signature that does not match this request and the shared secret'),
    );
  }
  if (!timestampFresh(answerTimestamp, deps.clock())) {
    throw new SsogateError(
      'extension_bad_signature',
      `the extension's ${call.route} answer has a timestamp outside the replay window`,
    );
  }
  return readAnswer(call, response.status, response.body);
}

export function readAnswer<S extends z.ZodType>(
  call: ExtensionCall<S>,
  status: number,
  text: string,
): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badAnswer(call.route, `is not JSON (status ${status})`);
  }
  const failed = errorAnswer.safeParse(json);
  if (failed.success) {
    throw new ExtensionAnswerError(call.route, failed.data.error.code, failed.data.error.message);
  }
  if (status !== 200) throw badAnswer(call.route, `has status ${status} but no error object`);
  const parsed = call.answer.safeParse(json);
  if (!parsed.success) {
    // Field names and zod's words only: a value may be personal data.
    const issues = parsed.error.issues
      .slice(0, 5)
      .map(({ path, message }) => `${fieldPath(path) || 'answer'}: ${message}`);
    throw badAnswer(call.route, `does not match the contract: ${issues.join('; ')}`);
  }
  return parsed.data;
}

function badAnswer(route: string, problem: string): SsogateError {
  return new SsogateError('extension_bad_answer', `the extension's ${route} answer ${problem}`);
}

/** What sending failed with, in the extension's own codes. */
function callFailure(error: unknown, route: string): unknown {
  if (!isSsogateError(error)) return error;
  const code =
    error.code === 'outbound_timeout'
      ? 'extension_timeout'
      : error.code === 'outbound_too_large'
        ? 'extension_bad_answer'
        : 'extension_unavailable';
  return new SsogateError(code, `the extension's ${route}: ${error.message}`, { cause: error });
}
