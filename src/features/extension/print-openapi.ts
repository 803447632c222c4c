#!/usr/bin/env node
/**
 * Writes the extension contract as YAML to stdout:
 * `npm run build:test && node build/src/features/extension/print-openapi.js > docs/extension-api.yaml`
 * (then `npx prettier --write docs/extension-api.yaml`).
 */
import { stringify } from 'yaml';
import { extensionOpenApi } from './openapi.js';

process.stdout.write(
  `# Generated from src/features/extension/schemas.ts by src/features/extension/print-openapi.ts: edit those.\n${stringify(extensionOpenApi(), { lineWidth: 0 })}`,
);
