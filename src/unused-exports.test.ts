import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Every name a product module of src/ exports is imported by another file:
 * an export nobody imports is dead code that still has to be read, kept
 * true and tested. Imports are read with TypeScript's parser, from every
 * TypeScript file of the repository that may import src/ (src/, console/,
 * bench/, soak/), following `export ... from` through index modules. An
 * export that only tests import counts as unused unless it is listed in
 * `testedOnly` below with the reason.
 */
// Compiled into build/src/, so the path climbs out of build/ first.
const root = fileURLToPath(new URL('../../', import.meta.url));
const importingFolders = ['src', 'console/src', 'bench', 'soak'];

/** `file.ts: name` for each name of `names` exported by `file`. */
function exportsOf(file: string, names: readonly string[]): string[] {
  return names.map((name) => `src/${file}.ts: ${name}`);
}

/**
 * Exports only tests import, each group with the reason it is exported: the
 * code uses each of them inside its own module.
 */
const testedOnly: ReadonlySet<string> = new Set([
  // A limit, a name or a table the tests check against rather than copy.
  ...exportsOf('core/expression/safe-json', ['MAX_JSON_BYTES']),
  ...exportsOf('core/errors/registry', ['errorCodes']),
  ...exportsOf('features/extension/client', ['maxAnswerBytes']),
  ...exportsOf('foundation/http/session-cache', ['maxRememberedSessions']),
  ...exportsOf('foundation/oidc/provider-metadata', [
    'discoveryRefreshMs',
    'keySetDefaultLifetimeMs',
    'keySetMinLifetimeMs',
  ]),
  ...exportsOf('foundation/pages/error-page', ['MAX_DETAIL_LENGTH']),
  // The error backend-errors.ts knows by its name (storage's root imports no engine's module).
  ...exportsOf('foundation/storage/redis/replica-confirmed-writes', ['ReplicaUnconfirmedError']),
  ...exportsOf('foundation/pages/i18n/index', ['zhCN']),
  ...exportsOf('features/provisioning/entries-file', ['entriesFileMaxBytes']),
  ...exportsOf('foundation/storage/audit-retention', ['AUDIT_PRUNE_LOCK_KEY']),
  ...exportsOf('foundation/storage/kysely-storage', ['SWEEP_LOCK_KEY']),
  ...exportsOf('foundation/storage/postgres/postgres-revocation-feed', ['listenerApplicationName']),
  ...exportsOf('features/trial-sign-in/storage/trial-sign-in-store', ['keptAfterExpiryMs']),
  ...exportsOf('foundation/web/cookies', ['BINDING_COOKIE', 'SECURE_BINDING_COOKIE']),
  ...exportsOf('foundation/web/reference-id', ['REFERENCE_ID_PATTERN']),
  ...exportsOf('foundation/outbound/user-agent', ['ssogateVersion']),
  ...exportsOf('cli/doctor/findings', ['doctorCodes']),
  ...exportsOf('features/forward-auth/identity-headers', ['identityHeaderNames']),
  ...exportsOf('foundation/logging/routine-lines', ['routineLineEvery']),
  // A pure function tested on its own, with inputs its callers cannot easily give.
  ...exportsOf('features/access-rules/access-rules', ['canonicalHost']),
  // RFC 6238's test values and the tests' authenticator compute codes with these.
  ...exportsOf('features/second-factor/totp', ['hotp', 'timeStep', 'totpCode']),
  ...exportsOf('features/admin-api/password-routes', ['weakPasswordReason']),
  ...exportsOf('app/node-support', ['isSupportedNode', 'unsupportedNodeMessage']),
  ...exportsOf('core/mask/excerpt', ['escapeControl']),
  ...exportsOf('core/request/pkce', ['pkceChallenge']),
  ...exportsOf('core/user/attributes', ['attributeToColumn', 'columnToAttribute']),
  ...exportsOf('core/entry/entry-input', ['extensionSettingName']),
  ...exportsOf('foundation/crypto/secret-key', ['parseSecretKey']),
  ...exportsOf('example-server/html', ['escapeHtml']),
  ...exportsOf('example-server/oidc-profiles', ['emulatedRealm', 'emulatedSlug']),
  ...exportsOf('features/extension/client', ['readAnswer']),
  ...exportsOf('features/extension/example-extension', ['importExampleModule']),
  ...exportsOf('features/forward-auth/identity-headers', ['encodeIdentityValue']),
  ...exportsOf('foundation/oidc/provider-metadata', ['keySetLifetimeMs']),
  ...exportsOf('foundation/outbound/address-policy', ['embeddedIPv4']),
  ...exportsOf('foundation/pages/error-page', ['retryCanHelp', 'isSettingsFault']),
  ...exportsOf('foundation/pages/i18n/negotiate', ['languageRanges']),
  ...exportsOf('foundation/storage/redis/redis-pending-sign-in-store', ['parsePending']),
  // The type of what a module takes or gives, which tests build or read.
  ...exportsOf('app/build-app', ['AppOptions']),
  ...exportsOf('demo/start-demo', ['Demo']),
  ...exportsOf('example-server/presets', ['ExampleEntries']),
  ...exportsOf('features/extension/example-extension', ['ExampleExtensionModule']),
  ...exportsOf('foundation/outbound/outbound-client', ['Lookup']),
  ...exportsOf('foundation/pages/chooser-page', [
    'ChooserEntry',
    'ChooserPageInput',
    'LocalFormInput',
  ]),
  ...exportsOf('foundation/pages/portal-page', ['PortalPageInput', 'PortalUser']),
  ...exportsOf('foundation/pages/sign-out-page', ['SignOutPageInput']),
  ...exportsOf('foundation/storage/sqlite/background-checkpoints', [
    'BackgroundCheckpoints',
    'CheckpointState',
  ]),
  ...exportsOf('foundation/storage/types', ['AuditQuery']),
]);

interface ModuleFacts {
  /** Names the module declares and exports itself. */
  readonly declared: Set<string>;
  /** `export { a as b } from './m.js'`: b → [m, a]. */
  readonly reexported: Map<string, readonly [string, string]>;
  /** `export * from './m.js'`. */
  readonly reexportsAll: string[];
  /** [module, name] pairs imported; name '*' for a namespace or a dynamic import. */
  readonly imports: (readonly [string, string])[];
}

const isTestFile = (file: string) =>
  /\.test\.tsx?$/.test(file) || file.split(sep).includes('test-support');

async function sourceFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const folder of importingFolders) {
    const entries = await readdir(join(root, folder), { withFileTypes: true, recursive: true });
    for (const entry of entries) {
      if (entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        files.push(join(entry.parentPath, entry.name));
      }
    }
  }
  return files;
}

/** The file a relative specifier names, as a path without its extension. */
function target(from: string, specifier: string): string {
  return resolve(dirname(from), specifier).replace(/\.(js|jsx|ts|tsx)$/, '');
}

function hasExportModifier(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

function readModule(file: string, text: string): ModuleFacts {
  const facts: ModuleFacts = {
    declared: new Set(),
    reexported: new Map(),
    reexportsAll: [],
    imports: [],
  };
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const specifier = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (specifier.startsWith('.') && clause !== undefined) {
        const from = target(file, specifier);
        if (clause.name !== undefined) facts.imports.push([from, 'default']);
        const bindings = clause.namedBindings;
        if (bindings !== undefined && ts.isNamespaceImport(bindings))
          facts.imports.push([from, '*']);
        if (bindings !== undefined && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) {
            facts.imports.push([from, (element.propertyName ?? element.name).text]);
          }
        }
      }
    } else if (ts.isExportDeclaration(node)) {
      const specifier =
        node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)
          ? node.moduleSpecifier.text
          : undefined;
      const clause = node.exportClause;
      if (specifier === undefined) {
        if (clause !== undefined && ts.isNamedExports(clause)) {
          for (const element of clause.elements) facts.declared.add(element.name.text);
        }
      } else if (specifier.startsWith('.')) {
        const from = target(file, specifier);
        if (clause === undefined) facts.reexportsAll.push(from);
        else if (ts.isNamespaceExport(clause)) facts.reexported.set(clause.name.text, [from, '*']);
        else {
          for (const element of clause.elements) {
            facts.reexported.set(element.name.text, [
              from,
              (element.propertyName ?? element.name).text,
            ]);
          }
        }
      }
    } else if (ts.isExportAssignment(node)) {
      facts.declared.add('default');
    } else if (hasExportModifier(node)) {
      const isDefault = (ts.getModifiers(node as ts.HasModifiers) ?? []).some(
        (m) => m.kind === ts.SyntaxKind.DefaultKeyword,
      );
      if (isDefault) facts.declared.add('default');
      else if (ts.isVariableStatement(node)) {
        for (const declaration of node.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) facts.declared.add(declaration.name.text);
        }
      } else {
        const name = (node as ts.DeclarationStatement).name;
        if (name !== undefined && ts.isIdentifier(name)) facts.declared.add(name.text);
      }
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined && ts.isStringLiteral(argument) && argument.text.startsWith('.')) {
        facts.imports.push([target(file, argument.text), '*']);
      }
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal) && literal.text.startsWith('.')) {
        const name =
          node.qualifier !== undefined && ts.isIdentifier(node.qualifier)
            ? node.qualifier.text
            : '*';
        facts.imports.push([target(file, literal.text), name]);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return facts;
}

/** Each product export of src/ with the files that import it, through re-exports. */
async function exportUsers(): Promise<Map<string, Set<string>>> {
  const modules = new Map<string, ModuleFacts>();
  for (const file of await sourceFiles()) {
    modules.set(file.replace(/\.tsx?$/, ''), readModule(file, await readFile(file, 'utf8')));
  }
  const users = new Map<string, Set<string>>();
  const key = (module: string, name: string) => `${relative(root, module)}.ts: ${name}`;
  for (const [module, facts] of modules) {
    if (!relative(root, module).startsWith(`src${sep}`) || isTestFile(`${module}.ts`)) continue;
    for (const name of facts.declared) users.set(key(module, name), new Set());
  }
  const mark = (module: string, name: string, by: string, seen: Set<string>): void => {
    const id = key(module, name);
    if (seen.has(id)) return;
    seen.add(id);
    const facts = modules.get(module);
    if (facts === undefined) return;
    if (name === '*') {
      for (const declared of facts.declared) mark(module, declared, by, seen);
      for (const exported of facts.reexported.keys()) mark(module, exported, by, seen);
      for (const from of facts.reexportsAll) mark(from, '*', by, seen);
      return;
    }
    if (facts.declared.has(name)) {
      // Another file's import: a module's own re-export of a name is no use of it.
      if (relative(root, by) !== relative(root, module)) users.get(id)?.add(relative(root, by));
      return;
    }
    const reexport = facts.reexported.get(name);
    if (reexport !== undefined) {
      mark(reexport[0], reexport[1], by, seen);
      return;
    }
    for (const from of facts.reexportsAll) mark(from, name, by, seen);
  };
  for (const [module, facts] of modules) {
    for (const [from, name] of facts.imports) mark(from, name, module, new Set());
  }
  return users;
}

describe('exports', () => {
  test('every export of a product module in src/ is imported by another product file', async () => {
    const users = await exportUsers();
    const unused: string[] = [];
    for (const [name, by] of users) {
      const products = [...by].filter((file) => !isTestFile(`${file}.ts`));
      if (products.length > 0) continue;
      if (by.size === 0 || !testedOnly.has(name)) {
        unused.push(by.size === 0 ? name : `${name} (tests only)`);
      }
    }
    // An entry of the lists above that no longer applies goes too.
    const stale = [...testedOnly].filter((name) => {
      const by = users.get(name);
      return by === undefined || [...by].some((file) => !isTestFile(`${file}.ts`));
    });
    assert.deepEqual(stale, [], 'listed as used by tests only, but not so');
    assert.equal(
      unused.length,
      0,
      `exported but imported by no other file: drop the export, or the code\n${unused.sort().join('\n')}`,
    );
  });
});
