/**
 * The relative specifiers a module names: `import` and `export ... from`,
 * type-only or not, side-effect imports, and `import('...')`, which also
 * names a type (`import('./x.js').Shape`).
 */
export function importedModules(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g),
  ]
    .concat([...source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)])
    .concat([...source.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)]);
  return specifiers.map((match) => match[1] ?? '').filter((specifier) => specifier.startsWith('.'));
}
