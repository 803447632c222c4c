import { z } from 'zod';
import {
  authorizeUrlAnswer,
  authorizeUrlRequest,
  callbackAnswer,
  callbackRequest,
  errorAnswer,
  healthAnswer,
} from './schemas.js';
import { replayWindowMs, signatureHeaders } from './signing.js';

/**
 * The extension contract as OpenAPI 3.1, built from the zod schemas the
 * gateway validates answers with: docs/extension-api.yaml is this document
 * (openapi.test.ts compares them; print-openapi.ts writes it).
 */
export function extensionOpenApi(): Record<string, unknown> {
  const schemas = {
    AuthorizeUrlRequest: authorizeUrlRequest,
    AuthorizeUrlAnswer: authorizeUrlAnswer,
    CallbackRequest: callbackRequest,
    CallbackAnswer: callbackAnswer,
    HealthAnswer: healthAnswer,
    ErrorAnswer: errorAnswer,
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'ssogate extension service',
      version: '1.0.0',
      description:
        'What an extension service answers for an entry of type extension. ' +
        "Paths are relative to the entry's extensionUrl. Every request carries " +
        `${signatureHeaders.timestamp}, ${signatureHeaders.nonce} and ${signatureHeaders.signature}; ` +
        'every answer, whatever its status, carries a timestamp and a signature over the ' +
        "request's nonce. See docs/extension.md for the signing texts.",
    },
    paths: {
      '/health': {
        get: operation('health', 'Test connection: checks the signature and answers ok.', {
          answer: 'HealthAnswer',
        }),
      },
      '/authorize-url': {
        post: operation('authorizeUrl', 'Builds the authorization URL for a sign-in.', {
          request: 'AuthorizeUrlRequest',
          answer: 'AuthorizeUrlAnswer',
        }),
      },
      '/callback': {
        post: operation('callback', "Turns the callback's query into the user.", {
          request: 'CallbackRequest',
          answer: 'CallbackAnswer',
        }),
      },
    },
    components: {
      parameters: {
        Timestamp: header(
          signatureHeaders.timestamp,
          `Unix time in seconds; refused when more than ${replayWindowMs / 60_000} minutes off.`,
          '^[0-9]{1,12}$',
        ),
        Nonce: header(
          signatureHeaders.nonce,
          'Unique per request; remember it for the replay window and refuse a repeat.',
          '^[A-Za-z0-9_-]{16,128}$',
        ),
        Signature: header(
          signatureHeaders.signature,
          '`v1=` and the lowercase hex HMAC-SHA256 of the request signing text.',
          '^v1=[0-9a-f]{64}$',
        ),
      },
      headers: {
        AnswerTimestamp: {
          description: 'Unix time in seconds when the answer was signed.',
          required: true,
          schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
        },
        AnswerSignature: {
          description:
            "`v1=` and the HMAC-SHA256 of the answer signing text, over the request's nonce.",
          required: true,
          schema: { type: 'string', pattern: '^v1=[0-9a-f]{64}$' },
        },
      },
      responses: {
        Error: {
          description:
            'The extension could not do what was asked (any status; 4xx or 200). Signed like any answer.',
          headers: answerHeaders(),
          content: { 'application/json': { schema: ref('ErrorAnswer') } },
        },
      },
      schemas: Object.fromEntries(
        Object.entries(schemas).map(([name, schema]) => [name, jsonSchema(schema)]),
      ),
    },
  };
}

function operation(
  operationId: string,
  summary: string,
  bodies: { readonly request?: string; readonly answer: string },
): Record<string, unknown> {
  return {
    operationId,
    summary,
    parameters: ['Timestamp', 'Nonce', 'Signature'].map((name) => ({
      $ref: `#/components/parameters/${name}`,
    })),
    ...(bodies.request === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref(bodies.request) } },
          },
        }),
    responses: {
      '200': {
        description: 'Done; the body is exactly this shape, no other field.',
        headers: answerHeaders(),
        content: { 'application/json': { schema: ref(bodies.answer) } },
      },
      default: { $ref: '#/components/responses/Error' },
    },
  };
}

function header(name: string, description: string, pattern: string): Record<string, unknown> {
  return { name, in: 'header', required: true, description, schema: { type: 'string', pattern } };
}

function answerHeaders(): Record<string, unknown> {
  return {
    [signatureHeaders.timestamp]: { $ref: '#/components/headers/AnswerTimestamp' },
    [signatureHeaders.signature]: { $ref: '#/components/headers/AnswerSignature' },
  };
}

function ref(name: string): Record<string, string> {
  return { $ref: `#/components/schemas/${name}` };
}

/** JSON Schema 2020-12, the dialect of OpenAPI 3.1, without the per-document `$schema`. */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(z.toJSONSchema(schema)).filter(([key]) => key !== '$schema'),
  );
}
