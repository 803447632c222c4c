import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

/**
 * The first ```language block of docs/proxy.md after the line `marker`
 * (a heading, or the sentence that introduces it), read from the page
 * itself so the page and the tests that run its snippets cannot drift apart.
 */
export async function proxyDocSnippet(marker: string, language: string): Promise<string> {
  const page = await readFile(new URL('../../../docs/proxy.md', import.meta.url), 'utf8');
  const at = page.indexOf(`\n${marker}\n`);
  assert.ok(at !== -1, `docs/proxy.md has the line ${marker}`);
  const snippet = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(page.slice(at))?.[1];
  assert.ok(snippet !== undefined, `docs/proxy.md has a ${language} block after ${marker}`);
  return snippet;
}
