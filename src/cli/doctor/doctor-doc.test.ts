import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { doctorCodes } from './findings.js';

// Compiled to build/src/cli/doctor/, so the docs are four levels up.
const doctorDoc = fileURLToPath(new URL('../../../../docs/doctor.md', import.meta.url));

test('docs/doctor.md documents every code of the doctor, with its severity, and no other', async () => {
  const text = await readFile(doctorDoc, 'utf8');
  const rows = [...text.matchAll(/^\|\s*`([a-z_]+)`\s*\|\s*(fail|warn)\s*\|/gm)].map(
    ([, code = '', status = '']) => [code, status],
  );
  assert.deepEqual(
    rows.sort(([a = ''], [b = '']) => a.localeCompare(b)),
    Object.entries(doctorCodes).sort(([a], [b]) => a.localeCompare(b)),
  );
});
