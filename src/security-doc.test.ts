import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * docs/security.md maps fifty requirements to the tests that prove them.
 * This keeps the map true: the items are numbered 1 to 50 in order, each
 * names at least one test, every test file it names exists, and every test
 * name quoted after a file occurs in that file, so a renamed or removed test
 * fails here instead of leaving the page pointing at nothing.
 */
const root = process.cwd();
const heading = '## The fifty requirements of an OAuth2 sign-in client, and their proofs';

interface Citation {
  readonly item: number;
  readonly file: string;
  readonly names: readonly string[];
}

/** The items of the section: their number and their text, in order. */
function itemsOf(section: string): { number: number; text: string }[] {
  const starts = [...section.matchAll(/^(\d+)\. /gm)];
  return starts.map((match, index) => ({
    number: Number(match[1]),
    text: section.slice(match.index, starts[index + 1]?.index ?? section.length),
  }));
}

/** Each `src/…test.ts` named in an item, with the quoted names up to the next file. */
function citationsOf(item: number, text: string): Citation[] {
  const files = [...text.matchAll(/`(src\/[^`\s]+\.test\.tsx?)`/g)];
  return files.map((match, index) => {
    const tail = text.slice(match.index + match[0].length, files[index + 1]?.index ?? text.length);
    return {
      item,
      file: match[1] ?? '',
      names: [...tail.matchAll(/"([^"\n]+)"/g)].map((name) => name[1] ?? ''),
    };
  });
}

async function section(): Promise<string> {
  const page = await readFile(join(root, 'docs', 'security.md'), 'utf8');
  const start = page.indexOf(heading);
  assert.ok(start !== -1, `docs/security.md has the section "${heading}"`);
  const next = page.indexOf('\n## ', start + heading.length);
  return page.slice(start, next === -1 ? page.length : next);
}

describe('docs/security.md: the requirements and their tests', () => {
  test('fifty items, numbered 1 to 50 in order, each with a test', async () => {
    const items = itemsOf(await section());
    assert.deepEqual(
      items.map((item) => item.number),
      Array.from({ length: 50 }, (_, index) => index + 1),
    );
    for (const { number, text } of items) {
      const cited = citationsOf(number, text);
      assert.ok(cited.length > 0, `item ${number} names a test file`);
      for (const citation of cited)
        assert.ok(citation.names.length > 0, `item ${number} quotes a test of ${citation.file}`);
    }
  });

  test('every cited file exists and holds every cited test name', async () => {
    const items = itemsOf(await section());
    const missing: string[] = [];
    for (const { number, text } of items) {
      for (const { file, names } of citationsOf(number, text)) {
        let source: string;
        try {
          source = await readFile(join(root, file), 'utf8');
        } catch {
          missing.push(`item ${number}: ${file} does not exist`);
          continue;
        }
        for (const name of names)
          if (!source.includes(name)) missing.push(`item ${number}: ${file} has no "${name}"`);
      }
    }
    assert.deepEqual(missing, []);
  });
});
