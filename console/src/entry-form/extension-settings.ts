import type { ConsoleMessages } from '../i18n/catalogs.js';
import type { Problem } from '../types.js';

/**
 * An extension entry's settings as the form holds them: `key = value`, one
 * per line (docs/extension.md). Plain code, no DOM.
 */

/**
 * A value's further lines are indented by two spaces: a value may span lines
 * (a certificate, a document), and a line of its own would otherwise read as
 * a malformed setting or another key.
 */
const continuation = '  ';

/** Settings as `key = value` lines, a multi-line value continued on indented lines. */
export function printSettings(settings: Readonly<Record<string, string>>): string {
  return Object.entries(settings)
    .map(([key, value]) => `${key} = ${value.split(/\r?\n/).join(`\n${continuation}`)}`)
    .join('\n');
}

/** `key = value` lines as an object; malformed lines are reported by settingsProblems. */
export function parseSettings(text: string): Record<string, string> {
  const settings: Record<string, string> = {};
  let lastKey: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (lastKey !== undefined && line.startsWith(continuation)) {
      settings[lastKey] = `${settings[lastKey] ?? ''}\n${line.slice(continuation.length)}`;
      continue;
    }
    lastKey = undefined;
    const trimmed = line.trim();
    const equals = trimmed.indexOf('=');
    if (trimmed === '' || trimmed.startsWith('#') || equals <= 0) continue;
    lastKey = trimmed.slice(0, equals).trim();
    settings[lastKey] = trimmed.slice(equals + 1).trim();
  }
  return settings;
}

/** Lines of the settings text that are not `key = value`, with their line numbers. */
export function settingsProblems(
  text: string,
  words: Pick<ConsoleMessages['entryForm'], 'settingsLine'>,
): Problem[] {
  let afterSetting = false;
  return text.split(/\r?\n/).flatMap((line, index) => {
    if (afterSetting && line.startsWith(continuation)) return [];
    const trimmed = line.trim();
    afterSetting = trimmed.indexOf('=') > 0 && !trimmed.startsWith('#');
    if (trimmed === '' || trimmed.startsWith('#') || afterSetting) return [];
    return [
      {
        field: 'extensionSettings',
        line: index + 1,
        column: 1,
        message: words.settingsLine(index + 1),
      },
    ];
  });
}
