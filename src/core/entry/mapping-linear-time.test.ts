import { describe, test } from 'node:test';
import { assertLinearGrowth, repeatTo } from '../test-support/growth.js';
import { validateEntry } from './validate-entry.js';

const entryWith = (userInfoParse: string) => ({
  id: 'hostile',
  name: 'Hostile',
  authorizeUrl: 'https://as.example/a?state=${state}&redirect_uri=${redirect_uri}',
  tokenUrl: 'https://as.example/t?code=${code}',
  tokenParse: "JSON_GET($response, 'access_token')",
  userInfoUrl: 'https://as.example/u?t=${access_token}',
  userInfoParse,
});

/**
 * Hostile mapping text is read and checked in time linear in its length:
 * before, a line of spaces made the line pattern backtrack quadratically.
 */
describe('mapping text is read in linear time', () => {
  const hostile: Record<string, (size: number) => string> = {
    'a line of spaces without =': (size) => `${repeatTo(' ', size)}x`,
    'spaces inside an expression': (size) => `userId = a${repeatTo(' ', size)}b`,
    'spaces before the =': (size) => `userId${repeatTo(' ', size)}= a`,
    'many repeated lines': (size) => repeatTo('userId = a\n', size),
    'many lines with expressions': (size) => repeatTo("email = JSON_GET($response, 'a')\n", size),
    'many = signs': (size) => repeatTo('=', size),
    'nested brackets in an expression': (size) => `userId = ${repeatTo('(', size)}`,
  };
  for (const [name, text] of Object.entries(hostile)) {
    test(name, () => {
      assertLinearGrowth(name, (size) => validateEntry(entryWith(text(size))));
    });
  }
});
