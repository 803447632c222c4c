import { createRequire } from 'node:module';
import type { ParseOptions, DocumentOptions, SchemaOptions, ToJSOptions } from 'yaml';

type YamlModule = typeof import('yaml');

const loadModule = createRequire(import.meta.url);
let yaml: YamlModule | undefined;

/**
 * Reads YAML (and so JSON, which YAML contains). The parser is loaded the
 * first time a configuration file, an access-rules value or an entries file
 * needs it, synchronously like the configuration it reads: a gateway
 * configured by its environment alone never holds its code in memory.
 */
export function parseYaml(
  text: string,
  options?: ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions,
): unknown {
  yaml ??= loadModule('yaml') as YamlModule;
  return yaml.parse(text, options);
}
