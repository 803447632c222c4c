// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The protocol core (src/core) works on plain values only. It must never reach
 * for an HTTP framework, a database driver or the network: the gateway's thin
 * adapters do that. core-boundary.test.ts checks the same rule at test time.
 */
const forbiddenInCore = [
  'fastify',
  'fastify-*',
  '@fastify/*',
  'express',
  'undici',
  'kysely',
  'better-sqlite3',
  'pg',
  'ioredis',
  'node:http',
  'node:https',
  'node:http2',
  'node:net',
  'node:tls',
  'node:dgram',
  'node:dns',
  'node:child_process',
  'node:vm',
  'node:fs',
  'http',
  'https',
  'net',
  'tls',
  'dns',
  'vm',
  'fs',
];

export default tseslint.config(
  { ignores: ['build/', 'dist/', 'data/', 'node_modules/', 'artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // node:test's describe/test/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='eval']", message: 'No eval.' },
        { selector: "NewExpression[callee.name='Function']", message: 'No Function constructor.' },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: forbiddenInCore,
              message: 'The core has no I/O: no framework, database driver or network module.',
            },
          ],
        },
      ],
    },
  },
  {
    // The admin console (React): the rules of hooks, and the compiler's checks.
    files: ['console/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The example extension and the scripts are plain JavaScript for Node.js, outside the TypeScript project.
    files: ['examples/**/*.mjs', 'scripts/**/*.js'],
    languageOptions: {
      globals: {
        Buffer: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        AbortSignal: 'readonly',
        console: 'readonly',
        fetch: 'readonly',
        process: 'readonly',
        setTimeout: 'readonly',
      },
    },
  },
);
