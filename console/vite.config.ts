import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The admin console, served by the gateway at /_sso/admin
 * (src/features/admin-console/routes.ts). Hashed asset names let the gateway cache
 * them for a year; no inline script or style, so the gateway's
 * Content-Security-Policy holds.
 */
export default defineConfig({
  root,
  base: '/_sso/admin/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Inlined assets would become data: URLs the policy does not allow for scripts.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
});
