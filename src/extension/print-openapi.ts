#!/usr/bin/env node
/**
 * Writes the extension contract as YAML to stdout:
 * `npm run build:test && node build/src/extension/print-openapi.js > docs/extension-api.yaml`
 * (then `npx prettier --write docs/extension-api.yaml`).
 */
import { stringify } from 'yaml';
import { extensionOpenApi } from './openapi.js';

process.stdout.write(
  `# Generated from src/extension/schemas.ts by src/extension/print-openapi.ts: edit those.\n${stringify(extensionOpenApi(), { lineWidth: 0 })}`,
);
