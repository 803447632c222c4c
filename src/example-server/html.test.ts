import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, loginPage } from './html.js';

test('pages escape everything they echo', () => {
  assert.equal(
    escapeHtml(`<a href="x" title='y'>&</a>`),
    '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
  );
  const html = loginPage({
    continueTo: '/get/authorize?state="><script>alert(1)</script>',
    clientName: '<b>app</b>',
    error: '<img src=x>',
  });
  assert.doesNotMatch(html, /<script>|<b>|<img/);
  assert.match(html, /value="\/get\/authorize\?state=&quot;&gt;&lt;script&gt;/);
});
