import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileTemplate } from './compile.js';
import type { BuiltInPlaceholder, TemplateKind } from './placeholders.js';
import {
  allowedPlaceholders,
  builtInPlaceholders,
  placeholderMatrix,
  templateKinds,
} from './placeholders.js';
import { renderPostParameters, renderUrl } from './render.js';

// The table of docs/entries.md#placeholders, row by row, columns authorizeUrl, tokenUrl,
// logoutUrl, userInfoUrl, appTokenUrl, userInfoCallUrl; before the entry's options change it.
type Row = readonly [boolean, boolean, boolean, boolean, boolean, boolean];
const documentedTable: Record<BuiltInPlaceholder, Row> = {
  state: [true, false, true, false, false, false],
  appid: [true, true, true, true, true, true],
  app_secret: [false, true, true, false, true, false],
  redirect_uri: [true, true, true, false, false, false],
  code: [false, true, false, false, false, false],
  access_token: [false, false, false, true, false, true],
  app_token: [false, false, false, false, false, false],
};

function mustCompile(source: string, kind: TemplateKind, extra: readonly string[] = []) {
  const result = compileTemplate(source, kind, { extraPlaceholders: extra });
  assert.ok(result.ok, `${source} should compile as ${kind}`);
  return result.template;
}

describe('placeholder matrix', () => {
  it('is the table of docs/entries.md', () => {
    for (const [index, kind] of templateKinds.entries()) {
      const expected = builtInPlaceholders.filter((name) => documentedTable[name][index]);
      assert.deepEqual([...placeholderMatrix[kind]].sort(), [...expected].sort(), kind);
    }
  });

  for (const name of builtInPlaceholders) {
    for (const [index, kind] of templateKinds.entries()) {
      const allowed = documentedTable[name][index] ?? false;
      it(`\${${name}} in ${kind}: ${allowed ? 'allowed' : 'refused'}`, () => {
        const source = `https://as.example/cb?v=\${${name}}`;
        const result = compileTemplate(source, kind, { field: kind });
        if (allowed) {
          assert.ok(result.ok);
          assert.deepEqual([...result.template.placeholders], [name]);
          assert.equal(
            renderUrl(result.template, { [name]: 'a b/c' }),
            'https://as.example/cb?v=a%20b%2Fc',
          );
        } else {
          assert.ok(!result.ok);
          assert.equal(result.problems.length, 1);
          const [problem] = result.problems;
          assert.equal(problem?.code, 'template_placeholder_not_allowed');
          assert.equal(problem.column, 25);
          assert.equal(problem.field, kind);
          for (const other of placeholderMatrix[kind])
            assert.match(problem.message, new RegExp(`\\$\\{${other}\\}`));
        }
      });
      if (kind === 'tokenUrl' || kind === 'userInfoUrl') {
        it(`\${${name}} in POST ${kind}: ${allowed ? 'allowed' : 'refused'}`, () => {
          const result = compileTemplate(`POST https://as.example/cb?v=\${${name}}`, kind);
          if (allowed) {
            assert.ok(result.ok);
            assert.deepEqual(
              renderPostParameters(result.template, { [name]: 'a b/c' }).parameters,
              [['v', 'a b/c']],
            );
          } else {
            assert.ok(!result.ok);
            assert.deepEqual(
              result.problems.map((p) => [p.code, p.column]),
              [['template_placeholder_not_allowed', 30]],
            );
          }
        });
      }
    }
  }

  it('explains why app_secret is refused in authorizeUrl', () => {
    const result = compileTemplate('https://as.example/a?s=${app_secret}', 'authorizeUrl');
    assert.ok(!result.ok);
    assert.match(result.problems[0]?.message ?? '', /sent to the browser.*leak/);
  });
});

describe('extra placeholders from the token response', () => {
  it('are allowed in userInfoUrl only', () => {
    const template = mustCompile(
      'https://api.example/u?openid=${openid}&t=${access_token}',
      'userInfoUrl',
      ['openid'],
    );
    assert.equal(
      renderUrl(template, { openid: 'o 1', access_token: 't' }),
      'https://api.example/u?openid=o%201&t=t',
    );
    const elsewhere = compileTemplate('https://as.example/t?o=${openid}', 'tokenUrl', {
      extraPlaceholders: ['openid'],
    });
    assert.ok(!elsewhere.ok);
    assert.equal(elsewhere.problems[0]?.code, 'template_placeholder_not_allowed');
    assert.match(elsewhere.problems[0].message, /userInfoUrl/);
  });

  it('are unknown when not declared', () => {
    const result = compileTemplate('https://api.example/u?openid=${openid}', 'userInfoUrl');
    assert.ok(!result.ok);
    assert.equal(result.problems[0]?.code, 'template_unknown_placeholder');
    assert.equal(result.problems[0].column, 30);
  });

  it('never widen a built-in', () => {
    assert.deepEqual(allowedPlaceholders('userInfoUrl', ['code', 'openid', 'openid']), [
      'appid',
      'access_token',
      'openid',
    ]);
    assert.deepEqual(allowedPlaceholders('tokenUrl', ['openid']), placeholderMatrix.tokenUrl);
    const result = compileTemplate('https://api.example/u?c=${code}', 'userInfoUrl', {
      extraPlaceholders: ['code'],
    });
    assert.ok(!result.ok);
    assert.equal(result.problems[0]?.code, 'template_placeholder_not_allowed');
  });
});
