import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The file in the data folder where `npm run demo` keeps the settings it runs with. */
export const demoSettingsFile = 'demo-settings.json';

/**
 * Settings, as environment variables, that the demo gives itself rather than
 * asking for them (its loopback allowance). They are written where its data
 * lives so that a command run later on that folder (`ssogate doctor`) judges
 * the demo's entries as the demo runs them, not as a plain start would.
 */
export type DemoSettings = Readonly<Record<string, string>>;

/** Writes them, readable by this user only like everything else in the data folder. */
export async function storeDemoSettings(dataDir: string, settings: DemoSettings): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(join(dataDir, demoSettingsFile), `${JSON.stringify(settings, null, 2)}\n`, {
    mode: 0o600,
  });
}

/** The stored settings of a demo's data folder; undefined in any other folder. */
export async function readDemoSettings(dataDir: string): Promise<DemoSettings | undefined> {
  let text: string;
  try {
    text = await readFile(join(dataDir, demoSettingsFile), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not the demo's own file: nothing to apply.
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  return Object.fromEntries(
    Object.entries(parsed).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
  );
}
