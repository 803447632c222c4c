import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// Compiled into build/src/, so the sources are two levels up.
const sourceRoot = new URL('../../src/', import.meta.url);

/**
 * Playwright's page.waitForFunction polls its predicate through eval in the
 * page, which the gateway's Content-Security-Policy refuses: such a wait
 * fails whenever its first look does not already hold, so a story passes on
 * a quick machine and fails on a loaded one. Browser tests wait on locators,
 * or on waitUntilHolds (src/test-support/console-in-chromium.ts).
 */
test('no browser test waits through page.waitForFunction', async () => {
  const root = join(decodeURIComponent(sourceRoot.pathname));
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  const offenders: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    if (file === join(root, 'browser-waits.test.ts')) continue;
    const text = await readFile(file, 'utf8');
    if (text.includes('.waitForFunction(')) offenders.push(file.slice(root.length));
  }
  assert.deepEqual(offenders, []);
});
