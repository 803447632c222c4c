export type * from './types.js';
export type { Database, SqlDialect } from './schema.js';
export { createKyselyStorage } from './kysely-storage.js';
export { openSqliteStorage } from './sqlite/open-sqlite-storage.js';
