import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mappingTextFromRows, rowsFromMappingText, withRequired } from './mapping-rows.js';

describe("the user-info mapping's table and text", () => {
  test('rows become one attribute = expression per line; blank rows are left out', () => {
    const text = mappingTextFromRows([
      { name: 'userId', value: "JSON_GET($response, 'sub')" },
      { name: '', value: '' },
      { name: 'email', value: "JSON_GET($response, 'mail')" },
    ]);
    assert.equal(text, "userId = JSON_GET($response, 'sub')\nemail = JSON_GET($response, 'mail')");
    assert.equal(mappingTextFromRows([]), '');
  });

  test('text becomes rows; blank lines and comments are dropped', () => {
    assert.deepEqual(rowsFromMappingText("# who\n\nuserId=JSON_GET($response,'sub')\r\n"), {
      ok: true,
      rows: [{ name: 'userId', value: "JSON_GET($response,'sub')" }],
    });
    assert.deepEqual(rowsFromMappingText(''), { ok: true, rows: [] });
  });

  test('a required attribute keeps its marker between the table and the text', () => {
    const rows = [
      { name: 'userId', value: "JSON_GET($response, 'sub')" },
      { name: 'email', value: "JSON_GET($response, 'mail')", required: true },
    ];
    const text = mappingTextFromRows(rows);
    assert.equal(
      text,
      "userId = JSON_GET($response, 'sub')\nrequired email = JSON_GET($response, 'mail')",
    );
    assert.deepEqual(rowsFromMappingText(text), { ok: true, rows });
  });

  test("the table's required box marks a row, and clearing it leaves the row as text reads it", () => {
    const row = { name: 'email', value: "JSON_GET($response, 'mail')" };
    const marked = withRequired(row, true);
    assert.deepEqual(marked, { ...row, required: true });
    assert.equal(mappingTextFromRows([marked]), "required email = JSON_GET($response, 'mail')");
    const cleared = withRequired(marked, false);
    assert.deepEqual(cleared, row);
    assert.ok(!('required' in cleared));
    assert.equal(mappingTextFromRows([cleared]), "email = JSON_GET($response, 'mail')");
    assert.deepEqual(rowsFromMappingText(mappingTextFromRows([cleared])), {
      ok: true,
      rows: [row],
    });
  });

  test('text that is not attribute = expression stays text, with the first problem', () => {
    const table = rowsFromMappingText("userId = JSON_GET($response, 'sub')\nnot a mapping\n= x");
    assert.ok(!table.ok);
    assert.match(table.problem, /^line 2 is not of the form "attribute = expression"/);
  });

  test('any rows the table can show, required or not, come back the same through the text', () => {
    const attribute = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/);
    const expression = fc
      .string({ minLength: 1 })
      .filter((text) => text === text.trim() && !/[\r\n]/.test(text));
    fc.assert(
      fc.property(fc.array(fc.tuple(attribute, expression, fc.boolean())), (triples) => {
        const rows = triples.map(([name, value, required]) =>
          withRequired({ name, value }, required),
        );
        assert.deepEqual(rowsFromMappingText(mappingTextFromRows(rows)), { ok: true, rows });
      }),
    );
  });
});
