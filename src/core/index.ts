/**
 * The entry engine: turns an OAuth2 service entry into the requests the
 * gateway sends and the user it signs in. No I/O, no framework: every value
 * in and out is plain data, so the gateway's adapters stay thin and this
 * part is tested without a network (core-boundary.test.ts keeps it so).
 */
export * from './errors/index.js';
export * from './expression/index.js';
export * from './template/index.js';
export * from './entry/index.js';
export * from './user/index.js';
export * from './request/index.js';
export * from './mask/index.js';
export * from './oidc/index.js';
export * from './provider/index.js';
