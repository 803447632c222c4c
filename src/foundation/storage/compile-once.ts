import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.js';

const slotName = Symbol('compiled query value');

/** Stands where a value goes while the query is built; replaced at each run. */
interface Slot {
  readonly [slotName]: string;
}

function isSlot(value: unknown): value is Slot {
  return typeof value === 'object' && value !== null && slotName in value;
}

/** A query compiled to SQL once, run with the values of each call. */
interface OnceCompiledQuery<Values, Row> {
  /** Runs it on `db`, a Kysely instance or transaction of the same dialect. */
  execute(db: Kysely<Database>, values: Values): Promise<QueryResult<Row>>;
  /** The SQL text, the same for every run (what the statement caches key on). */
  readonly sql: string;
}

/**
 * Builds a query once, with a named placeholder object where each value
 * goes, and compiles it to SQL once; each run then only binds that call's
 * values. Building a Kysely query and compiling it to SQL cost a hot query
 * more than the database's work, and gave the same text every time. Values
 * stay bound parameters, never spliced into the SQL. A value used in a
 * shape-changing position (an `in` list, a column name) cannot be a
 * placeholder: build it into the query instead.
 */
export function compileOnce<Values extends Record<string, unknown>, Row>(
  build: (values: Values) => Compilable<Row>,
): OnceCompiledQuery<Values, Row> {
  const placeholders = new Proxy(
    {},
    { get: (_target, name): Slot => ({ [slotName]: String(name) }) },
  ) as Values;
  const compiled = build(placeholders).compile();
  const bindings = compiled.parameters.map((parameter) =>
    isSlot(parameter) ? { name: parameter[slotName] } : { value: parameter },
  );
  return {
    sql: compiled.sql,
    async execute(target, values) {
      const parameters = bindings.map((binding) => {
        if ('value' in binding) return binding.value;
        if (!(binding.name in values)) throw new Error(`No value for ${binding.name}.`);
        return values[binding.name];
      });
      const query: CompiledQuery<Row> = { ...compiled, parameters };
      return target.executeQuery(query);
    },
  };
}

/**
 * `build` run once per database, for the queries a store compiles once: a
 * transaction of that database (Kysely's `trx`) shares its adapter, so it
 * finds the same queries, and a second database (another file, the other
 * dialect) gets its own.
 */
export function oncePerDatabase<Queries>(
  build: (db: Kysely<Database>) => Queries,
): (db: Kysely<Database>) => Queries {
  const byAdapter = new WeakMap<object, Queries>();
  return (db) => {
    const adapter = db.getExecutor().adapter;
    let queries = byAdapter.get(adapter);
    if (queries === undefined) {
      queries = build(db);
      byAdapter.set(adapter, queries);
    }
    return queries;
  };
}
