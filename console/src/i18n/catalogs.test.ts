import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeFailure } from '../api-error.js';
import { ApiError } from '../api-error.js';
import { passwordProblems } from '../account/password-form.js';
import { en, formatNumber, formatTime, languageCookie, zhCN } from './catalogs.js';
import { readFileSync, readdirSync } from 'node:fs';
import { errorCodes } from '../../../src/core/index.js';
import { en as pagesEnglish } from '../../../src/foundation/pages/i18n/en.js';
import { zhCN as pagesChinese } from '../../../src/foundation/pages/i18n/zh-CN.js';

type Leaf = string | ((...args: never[]) => string);

/** Every text of a catalog by its dotted path; a function is called with sample values. */
function leaves(catalog: object, prefix = ''): Map<string, { text: string; arity: number }> {
  const found = new Map<string, { text: string; arity: number }>();
  for (const [key, value] of Object.entries(catalog) as [string, Leaf | object][]) {
    const path = `${prefix}${key}`;
    if (typeof value === 'string') found.set(path, { text: value, arity: 0 });
    else if (typeof value === 'function') {
      const samples = ['Acme', '7', 'ann', '3'].slice(0, value.length);
      const text = (value as (...args: unknown[]) => string)(...samples);
      found.set(path, { text, arity: value.length });
    } else {
      for (const [inner, leaf] of leaves(value, `${path}.`)) found.set(inner, leaf);
    }
  }
  return found;
}

describe('the console catalogs', () => {
  test('both have the same keys, each text filled in, each function taking the same values', () => {
    const english = leaves(en);
    const chinese = leaves(zhCN);
    assert.deepEqual([...chinese.keys()].sort(), [...english.keys()].sort());
    for (const [path, leaf] of chinese) {
      assert.notEqual(leaf.text.trim(), '', path);
      assert.equal(leaf.arity, english.get(path)?.arity, `${path} takes other values`);
    }
  });

  test('every Chinese text is translated', () => {
    const english = leaves(en);
    for (const [path, leaf] of leaves(zhCN)) {
      // Punctuation only, not words.
      if (path === 'entryForm.listSeparator' || path === 'shell.colon') continue;
      assert.notEqual(leaf.text, english.get(path)?.text, `${path} is still English`);
      assert.match(leaf.text, /\p{Script=Han}/u, `${path}: ${leaf.text}`);
    }
  });

  test('every message code the console or the pages say in words has both languages', () => {
    // The console's own code for a call that got no answer from the gateway (api-error.ts).
    const codes = new Set<string>([...errorCodes, 'request_failed']);
    const sayers: [string, object, object][] = [
      ['console errors', en.errors, zhCN.errors],
      ['console problems', en.entryForm.problemSays, zhCN.entryForm.problemSays],
      ['console problem codes', en.entryForm.problemSays.codes, zhCN.entryForm.problemSays.codes],
      ['pages errors', pagesEnglish.errors, pagesChinese.errors],
    ];
    for (const [where, english, chinese] of sayers) {
      assert.deepEqual(Object.keys(chinese).sort(), Object.keys(english).sort(), where);
      for (const key of Object.keys(english)) {
        // The problems said by the core's exact sentence are keyed by a name, not a code.
        if (where === 'console problems' && !key.includes('_')) continue;
        assert.ok(codes.has(key), `${where}: ${key} is no code of the registry`);
      }
    }
  });

  test('every code an entry’s check can give has a sentence in both languages', () => {
    // The codes the core's entry, template, expression and mapping checks
    // write: any of them can reach the form's problem list.
    const source = new URL('../../../../src/core/', import.meta.url);
    const written = new Set<string>();
    for (const folder of ['entry', 'template', 'expression', 'user']) {
      for (const file of readdirSync(new URL(`${folder}/`, source), { recursive: true })) {
        const name = String(file);
        if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
        const text = readFileSync(new URL(`${folder}/${name}`, source), 'utf8');
        for (const [, code] of text.matchAll(/'([a-z]+(?:_[a-z]+)+)'/g)) {
          if (code !== undefined && (errorCodes as readonly string[]).includes(code)) {
            written.add(code);
          }
        }
      }
    }
    assert.ok(
      written.has('field_invalid') && written.has('expression_syntax'),
      'the scan finds codes',
    );
    const said = new Set(Object.keys(en.entryForm.problemSays.codes));
    const unsaid = [...written].filter((code) => !said.has(code) && code !== 'entry_invalid');
    assert.deepEqual(unsaid, [], 'codes without a sentence in entryForm.problemSays.codes');
  });

  test('the walk notices a missing key', () => {
    const rest = Object.fromEntries(Object.entries(zhCN).filter(([key]) => key !== 'audit'));
    assert.notEqual(leaves(rest).size, leaves(en).size);
  });
});

describe('the console in a language', () => {
  test('dates and numbers are written the language’s way', () => {
    const iso = '2026-03-04T05:06:00.000Z';
    assert.notEqual(formatTime(iso, 'zh-CN'), formatTime(iso, 'en'));
    assert.match(formatTime(iso, 'zh-CN'), /2026年3月/);
    assert.match(formatTime(iso, 'en'), /Mar 4, 2026|4 Mar 2026/);
    assert.equal(formatNumber(12345, 'en'), '12,345');
    assert.equal(formatTime(null, 'zh-CN'), '—');
  });

  test('a failure with a known code reads in Chinese, the code and reference as sent', () => {
    const error = new ApiError(403, 'csrf_failed', 'The form token is wrong.', [], 'R1');
    assert.equal(
      describeFailure(error, 'zh-CN'),
      '此页面已过期。请刷新后重试。 [csrf_failed] (参考编号 R1)',
    );
    assert.equal(
      describeFailure(error, 'en'),
      'The form token is wrong. [csrf_failed] (reference R1)',
    );
    const unknown = new ApiError(400, 'template_syntax', 'A template is broken.');
    assert.equal(describeFailure(unknown, 'zh-CN'), 'A template is broken. [template_syntax]');
    const inherited = new ApiError(400, 'constructor', 'odd');
    assert.equal(describeFailure(inherited, 'zh-CN'), 'odd [constructor]');
  });

  test('the password form’s checks speak the language they are given', () => {
    const problems = passwordProblems(
      { current: '', next: 'short', confirm: 'x' },
      new Set(),
      true,
      zhCN.password,
    );
    assert.deepEqual(problems, {
      current: '请填写当前密码。',
      next: '新密码至少需要 12 个字符（当前 5 个）。',
      confirm: '再次输入新密码与新密码不一致。',
    });
  });

  test('the language cookie is readable by the pages: the whole site, a year, Lax', () => {
    assert.equal(
      languageCookie('zh-CN', true),
      'ssogate_language=zh-CN; Path=/; Max-Age=31536000; SameSite=Lax; Secure',
    );
    assert.doesNotMatch(languageCookie('en', false), /HttpOnly|Secure/);
  });
});
