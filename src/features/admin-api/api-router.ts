import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Gateway } from '../../foundation/http/gateway.js';
import { parseInput } from './api-failure.js';
import type { ApiCall, ApiResult } from './api-route.js';
import { apiHandler, jsonBody } from './api-route.js';

type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface ApiResponseSpec {
  readonly description: string;
  /** The body's shape; none for 204. */
  readonly schema?: z.ZodType;
}

/**
 * One admin API route as data: how it is reached, what it accepts and what it
 * answers. The router validates with these schemas and the OpenAPI document
 * is generated from the very same objects, so the two cannot drift apart.
 */
interface ApiRouteSpec<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
> {
  readonly method: ApiMethod;
  /** In Fastify's form: `/_sso/api/entries/:id`. */
  readonly url: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: 'entries' | 'users' | 'audit' | 'tokens' | 'clients' | 'meta';
  readonly params?: P;
  readonly query?: Q;
  /** The JSON body, parsed by the router before the action runs. */
  readonly body?: B;
  /**
   * A JSON body the action validates itself with this schema (through
   * validateEntry, which reports every problem of an entry at once); the
   * router only checks that the body is JSON.
   */
  readonly bodyCheckedByAction?: z.ZodType;
  /** Success answers; the error answers (400, 401, 403, ...) are added by the document. */
  readonly responses: Readonly<Record<number, ApiResponseSpec>>;
  /** Further error answers this route gives, beyond 400/401/403. */
  readonly errors?: readonly number[];
}

/** A spec whatever its schemas, as the document reads it. */
export type AnyApiRouteSpec = ApiRouteSpec<
  z.ZodType | undefined,
  z.ZodType | undefined,
  z.ZodType | undefined
>;

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

interface ApiInput<P, Q, B> extends ApiCall {
  readonly params: Parsed<P>;
  readonly query: Parsed<Q>;
  readonly body: Parsed<B>;
  /** The raw JSON body, for routes with `bodyCheckedByAction`. */
  readonly rawBody: unknown;
}

export interface ApiRouter {
  readonly gateway: Gateway;
  /** Every route registered so far, in order, for the OpenAPI document. */
  readonly routes: readonly AnyApiRouteSpec[];
  route<
    P extends z.ZodType | undefined = undefined,
    Q extends z.ZodType | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
  >(
    spec: ApiRouteSpec<P, Q, B>,
    action: (input: ApiInput<P, Q, B>) => Promise<ApiResult>,
  ): void;
}

/**
 * Registers admin API routes from their specs. Each runs apiHandler's
 * pipeline: authenticate first (so a stranger learns nothing from a bad
 * request), then the path, query and body are parsed with the spec's
 * schemas, each problem named by its field, then the action acts.
 */
export function createApiRouter(app: FastifyInstance, gateway: Gateway): ApiRouter {
  const routes: AnyApiRouteSpec[] = [];
  function route<
    P extends z.ZodType | undefined,
    Q extends z.ZodType | undefined,
    B extends z.ZodType | undefined,
  >(spec: ApiRouteSpec<P, Q, B>, action: (input: ApiInput<P, Q, B>) => Promise<ApiResult>): void {
    routes.push(spec);
    const run = async (call: ApiCall): Promise<ApiResult> => {
      const { request } = call;
      const params = parse(spec.params as P, request.params, 'path');
      const query = parse(spec.query as Q, request.query, 'query');
      const needsBody = spec.body !== undefined || spec.bodyCheckedByAction !== undefined;
      const rawBody = needsBody ? jsonBody(request) : undefined;
      const body = parse(spec.body as B, rawBody, 'body');
      return action({ ...call, params, query, body, rawBody });
    };
    app.route({ method: spec.method, url: spec.url, handler: apiHandler(gateway, run) });
  }
  return { gateway, routes, route };
}

/** The value parsed with the schema (request_invalid naming the field), or undefined without one. */
function parse<S extends z.ZodType | undefined>(
  schema: S,
  value: unknown,
  where: string,
): Parsed<S> {
  return (schema === undefined ? undefined : parseInput(schema, value, where)) as Parsed<S>;
}
