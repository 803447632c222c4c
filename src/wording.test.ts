import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

const root = process.cwd();

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const item of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    if (item.isDirectory()) found.push(...(await filesUnder(path)));
    else found.push(path);
  }
  return found;
}

/**
 * What a user or an administrator reads (the console, the gateway's pages, the
 * docs, the README and changelog) speaks of the product itself: none of the
 * words of the documents it was first built from.
 */
test('no "seed" or "SPEC" wording in the console, the pages or the docs', async () => {
  const files = [
    ...(await filesUnder(join(root, 'console', 'src'))),
    ...(await filesUnder(join(root, 'src', 'foundation', 'pages'))),
    ...(await filesUnder(join(root, 'src', 'features', 'admin-console'))),
    ...(await filesUnder(join(root, 'docs'))),
    join(root, 'README.md'),
    join(root, 'CHANGELOG.md'),
  ].filter((file) => !file.endsWith('wording.test.ts'));
  const offending: string[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    text.split('\n').forEach((line, index) => {
      if (
        /\bseed(?:s|ed|ing)?\b/i.test(line) ||
        /\bSPEC\b/.test(line) ||
        /\bspecs?\b/i.test(line)
      ) {
        offending.push(`${relative(root, file)}:${String(index + 1)}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(offending, []);
});

/** Every text of a catalog with its dotted path; a function is said with sample values. */
function catalogTexts(catalog: object, prefix = ''): [string, string][] {
  const found: [string, string][] = [];
  for (const [key, value] of Object.entries(catalog) as [string, unknown][]) {
    const path = `${prefix}${key}`;
    if (typeof value === 'string') found.push([path, value]);
    else if (typeof value === 'function') {
      const samples = ['Acme', '7', 'ann', '3', 'x'].slice(0, value.length);
      found.push([path, String((value as (...args: string[]) => unknown)(...samples))]);
    } else if (typeof value === 'object' && value !== null) {
      found.push(...catalogTexts(value, `${path}.`));
    }
  }
  return found;
}

/**
 * Where a Chinese text breaks its own typography: an ASCII colon or period
 * touching Chinese (`名称: 值`, `登录.`), or ending a Chinese text. A colon
 * or period between Latin words (`Authorization: Bearer`, `https://`,
 * `data.access_token`) is code, and a leading list number (`1. 授权`) is
 * not inside a sentence.
 */
function asciiPunctuation(text: string): string | undefined {
  const chinese = /[\p{Script=Han}，。：；！？（）、]/u;
  const body = text.replace(/^\d+\. /, '');
  for (const match of body.matchAll(/ ?[:.] ?/g)) {
    const before = body[match.index - 1] ?? '';
    const after = body[match.index + match[0].length] ?? '';
    if (chinese.test(before) || chinese.test(after)) return match[0].trim();
  }
  return chinese.test(body) && /\.$/.test(body) ? '.' : undefined;
}

test('every zh-CN text uses full-width ：and 。 in its sentences, and says 您, never 你', async () => {
  const { zhCN: consoleChinese } = await import('../console/src/i18n/zh-CN.js');
  const { zhCN: pagesChinese } = await import('./foundation/pages/i18n/zh-CN.js');
  const texts: [string, string][] = [
    ...catalogTexts(consoleChinese, 'console: '),
    ...catalogTexts(pagesChinese, 'pages: '),
  ];
  const presetsFolder = join(root, 'src', 'foundation', 'presets');
  for (const file of (await readdir(presetsFolder)).filter((name) => name.endsWith('.json'))) {
    const preset = JSON.parse(await readFile(join(presetsFolder, file), 'utf8')) as {
      'zh-CN': object;
      parameters: Record<string, { 'zh-CN': object }>;
    };
    texts.push(...catalogTexts(preset['zh-CN'], `preset ${file}: `));
    for (const [name, parameter] of Object.entries(preset.parameters))
      texts.push(...catalogTexts(parameter['zh-CN'], `preset ${file}: ${name}.`));
  }
  assert.ok(texts.length > 500, `the walk finds the texts (${String(texts.length)})`);
  const offending = texts.flatMap(([path, text]) => {
    const punctuation = asciiPunctuation(text);
    return [
      ...(punctuation === undefined ? [] : [`${path}: ASCII "${punctuation}" in ${text}`]),
      ...(text.includes('你') ? [`${path}: 你 in ${text}`] : []),
    ];
  });
  assert.deepEqual(offending, []);
});

test('the typography check catches what it is for', () => {
  assert.equal(asciiPunctuation('名称: 值'), ':');
  assert.equal(asciiPunctuation('已保存.'), '.');
  assert.equal(asciiPunctuation('Acme: 已保存'), ':');
  assert.equal(asciiPunctuation('通过 Authorization: Bearer 请求头'), undefined);
  assert.equal(asciiPunctuation('如 https://主机/api/v3'), undefined);
  assert.equal(asciiPunctuation('1. 授权（浏览器前往此处）'), undefined);
});
