import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseMappingText, printMappingText } from './mapping-text.js';

describe('the text form of userInfoParse', () => {
  test('reads one mapping per line, skipping blank lines and comments', () => {
    const result = parseMappingText(
      "# comment\n\nuserId = JSON_GET($response, 'id')\r\n  email=JSON_GET($response,'mail')  \n",
    );
    assert.deepEqual(result.problems, []);
    assert.deepEqual(result.mappings, [
      { attribute: 'userId', expression: "JSON_GET($response, 'id')" },
      { attribute: 'email', expression: "JSON_GET($response,'mail')" },
    ]);
    assert.deepEqual(result.positions, [
      { line: 3, attributeColumn: 1, expressionColumn: 10 },
      { line: 4, attributeColumn: 3, expressionColumn: 9 },
    ]);
  });

  test('an expression may itself contain = and ==', () => {
    const { mappings } = parseMappingText("enabled = JSON_GET($response, 'a=b') == 'x=y'");
    assert.deepEqual(mappings, [
      { attribute: 'enabled', expression: "JSON_GET($response, 'a=b') == 'x=y'" },
    ]);
  });

  test('malformed lines are each reported with their line', () => {
    const { problems } = parseMappingText('userId\n= x\nuser id = x\nuserId ==x\nok = 1\nempty =');
    assert.deepEqual(
      problems.map(({ code, line }) => `${code}@${line}`),
      [
        'userinfo_text_syntax@1',
        'userinfo_text_syntax@2',
        'userinfo_text_syntax@3',
        'userinfo_text_syntax@4',
        'userinfo_text_syntax@6',
      ],
    );
  });

  test('prints the canonical form, which reads back unchanged', () => {
    const text = "userId = JSON_GET($response, 'id')\nenabled = true";
    const parsed = parseMappingText(text);
    assert.equal(printMappingText(parsed.mappings), text);
  });

  test('a leading "required" marks an attribute the response must hold', () => {
    const text =
      "userId = JSON_GET($response, 'id')\n  required  email = JSON_GET($response, 'mail')";
    const parsed = parseMappingText(text);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.mappings, [
      { attribute: 'userId', expression: "JSON_GET($response, 'id')" },
      { attribute: 'email', expression: "JSON_GET($response, 'mail')", required: true },
    ]);
    // Columns count the marker, so a problem in the expression is placed right.
    assert.deepEqual(parsed.positions[1], { line: 2, attributeColumn: 13, expressionColumn: 21 });
    assert.equal(
      printMappingText(parsed.mappings),
      "userId = JSON_GET($response, 'id')\nrequired email = JSON_GET($response, 'mail')",
    );
    // An attribute named "required" is still an attribute (refused later as unknown).
    assert.deepEqual(parseMappingText('required = 1').mappings, [
      { attribute: 'required', expression: '1' },
    ]);
  });

  test('property: any list of mappings prints and reads back to itself', () => {
    const attribute = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/);
    const expression = fc
      .string({ minLength: 1, maxLength: 60 })
      .map((text) => text.replace(/[\r\n]/g, ' ').trim())
      .filter((text) => text !== '');
    fc.assert(
      fc.property(
        fc.array(
          fc
            .tuple(attribute, expression, fc.boolean())
            .map(([name, source, required]) =>
              required
                ? { attribute: name, expression: source, required }
                : { attribute: name, expression: source },
            ),
          { maxLength: 8 },
        ),
        (mappings) => {
          const text = printMappingText(mappings);
          const parsed = parseMappingText(text);
          const kept = mappings.filter(({ attribute: name }) => !name.startsWith('#'));
          assert.deepEqual(parsed.problems, []);
          assert.deepEqual(parsed.mappings, kept);
          assert.equal(printMappingText(parsed.mappings), printMappingText(kept));
        },
      ),
    );
  });
});
