import { z } from 'zod';
import type { AnyApiRouteSpec } from './api-router.js';
import { errorSchema } from './response-schemas.js';

/** An OpenAPI 3.1 document, as plain JSON. */
export type OpenApiDocument = Record<string, unknown>;

type JsonSchema = Record<string, unknown>;

export const openApiPath = '/_sso/api/openapi.json';

const errorAnswers: Readonly<Record<number, string>> = {
  400: 'the request is invalid: `request_invalid` or `entry_invalid`, each problem naming its field',
  401: '`unauthenticated`: no API token and no valid session; `second_factor_required`: an administrator’s session without the second factor SSOGATE_ADMIN_SECOND_FACTOR asks for',
  403: '`forbidden` (not an administrator) or `csrf_failed` (a change by cookie without X-CSRF-Token)',
  404: '`not_found` or `entry_unknown`',
  409: 'the change conflicts with the current state; the code says how',
};

/**
 * The OpenAPI 3.1 document of the admin API, generated from the route specs
 * the router registered: the same zod schemas validate the requests (as
 * input: what a client sends) and describe the answers (as output). Named
 * schemas become components, referenced by `$ref`.
 */
export function buildOpenApiDocument(
  routes: readonly AnyApiRouteSpec[],
  options: { readonly version: string; readonly sessionCookie: string },
): OpenApiDocument {
  const components: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema =>
    toOpenApiSchema(schema, io, components);

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
    const body = route.body ?? route.bodyCheckedByAction;
    const takesInput =
      route.params !== undefined || route.query !== undefined || body !== undefined;
    const changes = route.method !== 'GET';
    const responses: Record<string, unknown> = {};
    for (const [status, answer] of Object.entries(route.responses)) {
      responses[status] = {
        description: answer.description,
        ...(answer.schema === undefined
          ? {}
          : { content: { 'application/json': { schema: convert(answer.schema, 'output') } } }),
      };
    }
    const errors = [...(takesInput ? [400] : []), 401, 403, ...(route.errors ?? [])];
    for (const status of errors) {
      responses[String(status)] = {
        description: errorAnswers[status] ?? 'an error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      operationId: operationId(route),
      summary: route.summary,
      ...(route.description === undefined ? {} : { description: route.description }),
      tags: [route.tag],
      parameters: [
        ...parametersOf(route.params, 'path', convert),
        ...parametersOf(route.query, 'query', convert),
      ],
      ...(body === undefined
        ? {}
        : {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: convert(body, 'input') } },
            },
          }),
      responses,
      // A change by session cookie needs the CSRF header as well.
      security: [
        { bearerToken: [] },
        changes ? { sessionCookie: [], csrfHeader: [] } : { sessionCookie: [] },
      ],
    };
  }
  paths[openApiPath] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      tags: ['meta'],
      security: [],
      responses: {
        200: {
          description: 'the OpenAPI 3.1 document',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };
  // Every error answer refers to it; converting it puts it in the components.
  convert(errorSchema, 'output');

  return {
    openapi: '3.1.0',
    info: {
      title: 'ssogate admin API',
      version: options.version,
      description:
        'Entries, users, the audit log and API tokens of the gateway. See docs/admin-api.md; ' +
        'error codes are listed in docs/errors.md.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: [
      { name: 'entries', description: 'third-party servers to sign in with' },
      { name: 'users', description: 'the user table' },
      { name: 'audit', description: 'sign-in and configuration events' },
      { name: 'tokens', description: 'API tokens' },
      {
        name: 'clients',
        description: "applications signing in through the gateway's OpenID Provider",
      },
      { name: 'meta', description: 'this document' },
    ],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'an API token from `ssogate token create` or POST /_sso/api/tokens',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: options.sessionCookie,
          description: "an administrator's session, from signing in at /_sso/login",
        },
        csrfHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-CSRF-Token',
          description:
            "required with the session cookie on every change: the console page carries it in <meta name='csrf-token'>",
        },
      },
    },
  };
}

function operationId(route: AnyApiRouteSpec): string {
  const words = route.url
    .replace('/_sso/api/', '')
    .split(/[/-]/)
    .filter((word) => word !== '')
    .map((word) => (word.startsWith(':') ? `by-${word.slice(1)}` : word));
  return [route.method.toLowerCase(), ...words]
    .map((word, index) =>
      index === 0
        ? word
        : word.replace(/(^|-)([a-z])/g, (_m, _d, letter: string) => letter.toUpperCase()),
    )
    .join('');
}

function parametersOf(
  schema: z.ZodType | undefined,
  where: 'path' | 'query',
  convert: (schema: z.ZodType, io: 'input' | 'output') => JsonSchema,
): Record<string, unknown>[] {
  if (schema === undefined) return [];
  const object = convert(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

/**
 * zod's JSON Schema (draft 2020-12, which OpenAPI 3.1 uses as is), with the
 * named schemas moved from `$defs` to the document's components.
 */
function toOpenApiSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  components: Record<string, JsonSchema>,
): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as JsonSchema;
  // The dialect is the document's (jsonSchemaDialect), not repeated per schema.
  delete converted.$schema;
  const { $defs, ...rest } = converted;
  for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    // Input and output forms of a named schema differ (defaults, transforms):
    // only the output form is shared, under its name.
    const key = io === 'output' ? name : `${name}Input`;
    components[key] ??= relinked(definition, io) as JsonSchema;
  }
  return relinked(rest, io) as JsonSchema;
}

/** `#/$defs/Entry` -> `#/components/schemas/Entry` (or EntryInput). */
function relinked(value: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(value)) return value.map((item) => relinked(item, io));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')) {
        const name = item.slice('#/$defs/'.length);
        return [key, `#/components/schemas/${io === 'output' ? name : `${name}Input`}`];
      }
      return [key, relinked(item, io)];
    }),
  );
}
