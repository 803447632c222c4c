import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertLinearGrowth, repeatTo } from './growth.js';

/**
 * The growth check must fail the kind of bug it is there for: from every
 * `${` of an unclosed `${${${...`, the rest of the text is searched again
 * for a `}`. The search runs at memory speed, which is what hides it on
 * short inputs.
 */
test('assertLinearGrowth fails a scan that searches the rest of the text from every opening', () => {
  const quadraticScan = (size: number): number => {
    const text = repeatTo('${', size);
    let unclosed = 0;
    for (let open = text.indexOf('${'); open !== -1; open = text.indexOf('${', open + 2))
      if (text.indexOf('}', open) === -1) unclosed += 1;
    return unclosed;
  };
  assert.throws(() => {
    assertLinearGrowth('quadratic scan', quadraticScan);
  }, /quadratic scan: 16x the input took/);
});
