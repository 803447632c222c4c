import { settings } from '../foundation/config/config-schema.js';

/** The environment variables the gateway reads (config/config-schema.ts), for files that set them. */
export const knownSettingNames: ReadonlySet<string> = new Set<string>(
  Object.values(settings).map(({ env }) => env),
);
