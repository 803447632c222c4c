import type { CompiledEntry, EntryInput } from '../core/index.js';
import { compileEntry, maskSecrets } from '../core/index.js';
import type { ChangeNotifier } from '../storage/change-notifier.js';
import { localChangeNotifier } from '../storage/change-notifier.js';
import type { EntryStore } from '../storage/types.js';

/**
 * The compiled entries, in chooser order. Entries are compiled once per
 * change, not per sign-in; every write through the admin API calls
 * invalidate(), here and on every other instance, so a change applies at the
 * next sign-in without a restart. A write by another process that announces
 * nothing (`ssogate entries import` beside a SQLite gateway) is seen through
 * `otherWritersVersion`: when it moved, the entries are read again.
 */
export class EntryRegistry {
  private compiled: Promise<readonly CompiledEntry[]> | undefined;
  private compiledAtVersion: string | undefined;
  private reportBroken: (entryId: string, problem: string) => void = () => {
    // no listener yet: the admin API still shows the entry as broken
  };

  constructor(
    private readonly store: EntryStore,
    private readonly changes: ChangeNotifier = localChangeNotifier(),
    private readonly otherWritersVersion?: () => string,
  ) {
    // An entry saved on another instance drops this instance's copy too.
    changes.subscribe('entries', () => {
      this.compiled = undefined;
    });
  }

  list(): Promise<readonly CompiledEntry[]> {
    const version = this.otherWritersVersion?.();
    if (version !== this.compiledAtVersion) {
      this.compiled = undefined;
      this.compiledAtVersion = version;
    }
    this.compiled ??= this.load().catch((error: unknown) => {
      this.compiled = undefined; // a failed load (database down) is retried next time
      throw error;
    });
    return this.compiled;
  }

  async get(id: string): Promise<CompiledEntry | undefined> {
    return (await this.list()).find((entry) => entry.id === id);
  }

  async defaultEntry(): Promise<CompiledEntry | undefined> {
    return (await this.list()).find((entry) => entry.isDefault && entry.enabled);
  }

  /** Told of each stored entry that no longer compiles, at every load (the app logs it). */
  onBrokenEntry(listener: (entryId: string, problem: string) => void): void {
    this.reportBroken = listener;
  }

  /** Drops the compiled entries here and, through the notifier, on every instance. */
  invalidate(): void {
    this.compiled = undefined;
    this.changes.publish('entries').catch(() => {
      // Other instances then see the change at their next reload; this one already has.
    });
  }

  private async load(): Promise<readonly CompiledEntry[]> {
    const records = await this.store.list();
    // Stored entries were validated when saved; compiling again cannot fail
    // unless the engine's rules tightened, and then the entry is skipped
    // rather than taking every sign-in down with it; it is reported, and the
    // admin API shows it as broken (compileProblem).
    return records.flatMap((record) => {
      try {
        return [compileEntry(record.input)];
      } catch (error) {
        this.reportBroken(record.input.id, problemOf(record.input, error));
        return [];
      }
    });
  }
}

/** Why a stored entry no longer compiles, or undefined when it does. */
export function compileProblem(input: EntryInput): string | undefined {
  try {
    compileEntry(input);
    return undefined;
  } catch (error) {
    return problemOf(input, error);
  }
}

/** The compile error's message, never holding the entry's secrets. */
function problemOf(input: EntryInput, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const secrets = [input.appsecret, input.extensionSecret].filter(
    (value): value is string => value !== undefined,
  );
  return maskSecrets(message, secrets);
}
