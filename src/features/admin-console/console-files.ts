import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built console (Vite writes it to `dist/console/` at the repository
 * root). This module runs from `dist/features/admin-console/` under `npm start` and
 * from `build/src/features/admin-console/` under `npm test`, so the folder is found
 * from the package root rather than from a fixed relative path.
 */
export function defaultConsoleDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, 'dist', 'console');
}

/** What a file name under `assets/` may look like: Vite's `name-HASH.ext`, nothing else. */
const assetName = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\.[a-z0-9]+$/;

const assetTypes: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

interface ConsoleAsset {
  readonly type: string;
  readonly body: Buffer;
}

/**
 * Reads the console's files. Hashed assets never change under their name, so
 * they are kept in memory once read; index.html is read at every page load,
 * so a rebuilt console is served without a restart.
 */
export class ConsoleFiles {
  private readonly assets = new Map<string, ConsoleAsset>();

  constructor(readonly dir: string) {}

  /** index.html, or undefined when the console was not built. */
  async indexHtml(): Promise<string | undefined> {
    try {
      return await readFile(join(this.dir, 'index.html'), 'utf8');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /**
   * An asset by its file name, or undefined. The name is checked against a
   * strict pattern before it touches the file system, so no `..`, slash or
   * encoded separator can leave the assets folder.
   */
  async asset(name: string): Promise<ConsoleAsset | undefined> {
    const type = assetTypes[extname(name)];
    if (!assetName.test(name) || type === undefined) return undefined;
    const cached = this.assets.get(name);
    if (cached !== undefined) return cached;
    let body: Buffer;
    try {
      body = await readFile(join(this.dir, 'assets', name));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const asset = { type, body };
    this.assets.set(name, asset);
    return asset;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
