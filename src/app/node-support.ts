/**
 * The Node.js lines ssogate runs on, checked by each program (`main.ts`,
 * `cli/ssogate.ts`, `demo/main.ts`) before it loads anything else. Under an
 * older Node.js the SQLite addon (better-sqlite3, Node-API 10) does not fail
 * with an error: the process dies of a segmentation fault as the addon loads,
 * with no word, after the data folder was made. So this module imports
 * nothing, each program imports it alone (static imports are all read before
 * a module's body runs) and reads the rest with `import()` once it passed.
 */

/** package.json "engines".node; node-support.test.ts checks they agree. */
const supportedRange = '^22.13.0 || >=24';

type Version = readonly [major: number, minor: number, patch: number];

function parseVersion(text: string): Version {
  // `24.0.0-pre` and `v24.0.0` read as 24.0.0.
  const [major = NaN, minor = 0, patch = 0] = text
    .replace(/^v|-.*$/g, '')
    .split('.')
    .map(Number);
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** One comparator of a range: `^x.y.z` (the same major, at least x.y.z) or `>=x.y.z`. */
function satisfies(version: Version, comparator: string): boolean {
  const match = /^(\^|>=)(\d+(?:\.\d+){0,2})$/.exec(comparator);
  if (match === null) throw new Error(`unsupported comparator in the Node.js range: ${comparator}`);
  const bound = parseVersion(match[2] ?? '');
  if (compare(version, bound) < 0) return false;
  return match[1] === '>=' || version[0] === bound[0];
}

/** Whether Node.js `version` (`process.versions.node`) is in the range (alternatives joined by `||`). */
export function isSupportedNode(version: string, range: string = supportedRange): boolean {
  const parsed = parseVersion(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .split(/\s+/)
      .every((comparator) => satisfies(parsed, comparator)),
  );
}

/** The one line an unsupported Node.js gets, or undefined when `version` is supported. */
export function unsupportedNodeMessage(version: string, execPath: string): string | undefined {
  if (isSupportedNode(version)) return undefined;
  return (
    `ssogate needs Node.js ${supportedRange} (22.13 or later on the 22 line, or 24 and later; ` +
    `package.json "engines"), not ${version} (${execPath}): ` +
    '`npm install` puts Node.js 24 in node_modules/.bin, which npm scripts run (docs/deployment.md#nodejs).\n'
  );
}

/** Ends the process with code 1 and the one line when this Node.js is not supported. */
export function exitUnlessNodeSupported(): void {
  const message = unsupportedNodeMessage(process.versions.node, process.execPath);
  if (message === undefined) return;
  process.stderr.write(message);
  process.exit(1);
}
