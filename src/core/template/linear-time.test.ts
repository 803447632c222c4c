import { describe, test } from 'node:test';
import { assertLinearGrowth, repeatTo } from '../test-support/growth.js';
import { compileHeaderTemplate } from './header-template.js';
import { compileTemplate } from './compile.js';

/**
 * Hostile templates (many placeholders or parameters, unclosed brackets, one
 * long run) compile in time linear in their length: before, the scan, the
 * parameter split and the host check each took quadratic time.
 */
describe('templates compile in linear time', () => {
  const hostile: Record<string, (size: number) => string> = {
    'many query parameters': (size) => `https://as.example/?${repeatTo('a=${code}&', size)}`,
    'many POST parameters': (size) =>
      `POST https://as.example/t?${repeatTo('a${code}=${code}&', size)}`,
    'many placeholders in the path': (size) => `https://as.example/${repeatTo('${code}/', size)}`,
    'many placeholders in the host': (size) => `https://${repeatTo('${code}', size)}/`,
    'unclosed brackets': (size) => repeatTo('${', size),
    'brackets nested in brackets': (size) => `https://as.example/${repeatTo('${a${', size)}}`,
    'empty placeholders': (size) => `https://as.example/${repeatTo('${}', size)}`,
    'one long run of percent signs': (size) => `https://as.example/${repeatTo('%', size)}`,
  };
  for (const [name, source] of Object.entries(hostile)) {
    test(`URL template: ${name}`, () => {
      assertLinearGrowth(name, (size) => compileTemplate(source(size), 'tokenUrl'));
    });
  }

  test('header template: unclosed brackets and many placeholders', () => {
    assertLinearGrowth('header', (size) =>
      compileHeaderTemplate('Authorization', repeatTo('${${access_token}', size), 'userInfoUrl'),
    );
  });
});
