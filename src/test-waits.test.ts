import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import ts from 'typescript';

// Compiled into build/src/, so the sources are two levels up.
const sourceRoot = new URL('../../src/', import.meta.url);
const root = join(decodeURIComponent(sourceRoot.pathname));

/** The TypeScript files of src/, as paths under it. */
async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length));
}

/**
 * Playwright's page.waitForFunction polls its predicate through eval in the
 * page, which the gateway's Content-Security-Policy refuses: such a wait
 * fails whenever its first look does not already hold, so a story passes on
 * a quick machine and fails on a loaded one. Browser tests wait on locators,
 * or on waitUntil (src/test-support/wait-until.ts).
 */
test('no browser test waits through page.waitForFunction', async () => {
  const offenders: string[] = [];
  for (const file of await sourceFiles()) {
    if (file === 'test-waits.test.ts') continue;
    const text = await readFile(join(root, file), 'utf8');
    if (text.includes('.waitForFunction(')) offenders.push(file);
  }
  assert.deepEqual(offenders, []);
});

/**
 * Loops in tests that pause on a timer, and are not waits, each with the
 * reason. Every other such loop is a wait written by hand.
 */
const notWaits: ReadonlyMap<string, string> = new Map([
  ['test-support/wait-until.ts', 'the one wait itself'],
  ['app/audit-retention.test.ts', 'writes audit events one turn apart while pruning runs'],
  ['app/connection-timeouts.test.ts', 'sends a body and WebSocket messages slowly, on purpose'],
  [
    'multi-instance/redis-sentinel-confirmed-writes.test.ts',
    'writers that write without pause through a failover, backing off briefly when refused',
  ],
]);

/** Whether `node` pauses on a timer: `await delay(…)`, `await new Promise(… setTimeout …)`. */
function awaitsTimer(node: ts.Node, timers: ReadonlySet<string>): boolean {
  if (!ts.isAwaitExpression(node)) return false;
  const awaited = node.expression;
  if (ts.isCallExpression(awaited) && ts.isIdentifier(awaited.expression)) {
    return timers.has(awaited.expression.text);
  }
  return ts.isNewExpression(awaited) && /\bsetTimeout\(/.test(awaited.getText());
}

/** The loops of `source` whose own body (not a function inside) pauses on a timer. */
function pollingLoops(source: ts.SourceFile): number[] {
  // setTimeout from node:timers/promises under any name, and the test
  // helpers that wrap it (src/foundation/storage/redis/test-support).
  const timers = new Set(['sleep', 'delay', 'pause']);
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const from = (statement.moduleSpecifier as ts.StringLiteral).text;
    const bindings = statement.importClause?.namedBindings;
    if (!/^(node:)?timers\/promises$/.test(from) || bindings === undefined) continue;
    if (!ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      if ((element.propertyName ?? element.name).text === 'setTimeout') {
        timers.add(element.name.text);
      }
    }
  }
  const lines: number[] = [];
  const inLoop = (node: ts.Node): boolean => {
    if (awaitsTimer(node, timers)) return true;
    if (ts.isFunctionLike(node)) return false;
    return ts.forEachChild(node, inLoop) ?? false;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isIterationStatement(node, false) && ts.forEachChild(node, inLoop) === true) {
      lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

/**
 * A test waits for what happens off its path (a delivery, an audit event, a
 * process that starts) with waitUntil (src/test-support/wait-until.ts): one
 * time-out that fails, naming what was awaited and what was last seen.
 * Loops written by hand each had their own: some failed, some went on
 * silently to an assertion that said less, some waited until the test's
 * five minutes ran out.
 */
test('tests wait with waitUntil, not a loop of their own', async () => {
  const offenders: string[] = [];
  for (const file of await sourceFiles()) {
    const testCode = /\.test\.tsx?$/.test(file) || file.split(sep).includes('test-support');
    if (!testCode || notWaits.has(file)) continue;
    const text = await readFile(join(root, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    for (const line of pollingLoops(source)) offenders.push(`${file}:${line}`);
  }
  assert.deepEqual(offenders, []);
});

test('the rule finds a loop that pauses on a timer', () => {
  const source = ts.createSourceFile(
    'example.test.ts',
    [
      "import { setTimeout as nap } from 'node:timers/promises';",
      'while (!done()) await nap(10);',
      'for (let i = 0; i < 9 && !done(); i += 1) await new Promise((r) => setTimeout(r, 9));',
      'for (;;) { try { await ping(); break; } catch { await sleep(20); } }',
      'for (const x of xs) await x.close();',
      'while (more()) items.push(() => nap(1));',
    ].join('\n'),
    ts.ScriptTarget.Latest,
    true,
  );
  assert.deepEqual(pollingLoops(source), [2, 3, 4]);
});
