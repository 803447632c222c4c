import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultClient, defaultUsers } from './example-server/defaults.js';

const root = process.cwd();

test('the README links every page of docs/', async () => {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const linked = new Set(
    [...readme.matchAll(/\]\((docs\/[^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]),
  );
  const pages = (await readdir(join(root, 'docs'))).filter((name) => name.endsWith('.md'));
  assert.ok(pages.length > 0);
  const missing = pages.map((name) => `docs/${name}`).filter((page) => !linked.has(page));
  assert.deepEqual(missing, [], 'pages of docs/ the README does not link');
});

test("the README's links into docs/ all exist", async () => {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const pages = new Set(await readdir(join(root, 'docs')));
  for (const [, page] of readme.matchAll(/\]\(docs\/([^)#\s]+)/g)) {
    assert.ok(page !== undefined && pages.has(page), `docs/${page ?? ''} exists`);
  }
});

test("the README's table of the demo's credentials says what the demo uses", async () => {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  for (const user of defaultUsers)
    assert.ok(readme.includes(`\`${user.username}\` / \`${user.password}\``), user.username);
  assert.ok(readme.includes(`app id \`${defaultClient.appid}\``));
  assert.ok(readme.includes(`app secret \`${defaultClient.secret}\``));
});

test("the README's map names every folder of src/, and each group folder's folders in its row", async () => {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const map = readme.slice(
    readme.indexOf('## Map'),
    readme.indexOf('\n## ', readme.indexOf('## Map') + 1),
  );
  const missing: string[] = [];
  for (const entry of await readdir(join(root, 'src'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const row = map.split('\n').find((line) => line.includes(`\`src/${entry.name}/\``));
    if (row === undefined) {
      missing.push(`src/${entry.name}/`);
      continue;
    }
    if (!row.startsWith(`| \`src/${entry.name}/\`:`)) continue;
    for (const child of await readdir(join(root, 'src', entry.name), { withFileTypes: true }))
      if (child.isDirectory() && !row.includes(`\`${child.name}/\``))
        missing.push(`src/${entry.name}/${child.name}/`);
  }
  assert.deepEqual(missing, [], 'folders the README map does not name');
});
