import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type BuildValidator = NonNullable<CompilersFactory['buildValidator']>;
type BuildSerializer = NonNullable<CompilersFactory['buildSerializer']>;

/**
 * Fastify's own schema compilers (ajv for validation, fast-json-stringify
 * for answers), loaded when a route first needs one rather than when the
 * app is made. Fastify makes both at `Fastify()` whatever the routes say,
 * and they hold about 2 MiB of the idle heap (docs/benchmarks.md#memory);
 * the gateway's routes give Fastify no `schema` (the admin API parses with
 * zod, src/features/admin-api/api-router.ts), so a gateway never loads them.
 *
 * A route that does give one is served exactly as by Fastify's defaults,
 * with one difference Fastify makes for any compiler given this way: a
 * `headers` schema is compiled with its property names as written, not
 * lowercased. The modules are required from Fastify's own folder, where
 * its package manager put the versions it depends on.
 */
export function lazySchemaCompilers(): CompilersFactory {
  const fromFastify = createRequire(import.meta.resolve('fastify'));
  return {
    buildValidator: madeOnFirstCall(() =>
      (fromFastify('@fastify/ajv-compiler') as () => BuildValidator)(),
    ),
    buildSerializer: madeOnFirstCall(() =>
      (fromFastify('@fastify/fast-json-stringify-compiler') as () => BuildSerializer)(),
    ),
  };
}

/** A function that stands for the one `make` returns, made at its first call. */
function madeOnFirstCall<F extends (...args: never[]) => unknown>(make: () => F): F {
  let made: F | undefined;
  return ((...args: Parameters<F>) => (made ??= make())(...args)) as F;
}
