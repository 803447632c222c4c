import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SafeHtml, escapeHtml, html } from './html.js';

// The exact-output assertions below are kept out of prettier, which would
// otherwise reformat the markup inside the html`` templates.

describe('escapeHtml', () => {
  test('escapes the five significant characters', () => {
    assert.equal(
      escapeHtml(`<a href="x" title='y'>&amp;</a>`),
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  test('leaves other text alone', () => {
    assert.equal(escapeHtml('plain text, é 日本 /?=#'), 'plain text, é 日本 /?=#');
  });
});

describe('html', () => {
  test('escapes interpolated strings and numbers', () => {
    // prettier-ignore
    const fragment = html`<p title="${'"x"'}">${'<b>'}${42}</p>`;
    assert.equal(fragment.toString(), '<p title="&quot;x&quot;">&lt;b&gt;42</p>');
  });

  test('inserts fragments built by html as they are, and lists of them', () => {
    // prettier-ignore
    const items = ['<1>', '2'].map((text) => html`<li>${text}</li>`);
    // prettier-ignore
    const list = html`<ul>${items}</ul>`;
    assert.equal(list.toString(), '<ul><li>&lt;1&gt;</li><li>2</li></ul>');
  });

  test('undefined renders nothing', () => {
    // prettier-ignore
    const fragment = html`a${undefined}b`;
    assert.equal(fragment.toString(), 'ab');
  });

  test('an object that merely looks like markup is escaped as text', () => {
    const lookalike = { toString: () => '<script>' } as unknown as string;
    // prettier-ignore
    const fragment = html`${lookalike}`;
    assert.equal(fragment.toString(), '&lt;script&gt;');
    assert.ok(html`x` instanceof SafeHtml);
  });
});
