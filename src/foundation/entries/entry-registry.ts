import type { CompiledEntry, EntryInput, OidcDiscovery } from '../../core/index.js';
import { compileEntry, discoveryIssuerOf, maskSecrets } from '../../core/index.js';
import type { ChangeNotifier } from '../storage/change-notifier.js';
import { localChangeNotifier } from '../storage/change-notifier.js';
import type { EntryStore } from '../storage/types.js';

/**
 * Where OpenID Connect entries' discovery documents come from (the gateway's
 * ProviderMetadata); `generation` moves when a document changed, and the
 * entries are compiled again.
 */
interface DiscoverySource {
  discovery(issuer: string): Promise<OidcDiscovery>;
  generation(): number;
}

/** How soon an entry whose provider could not be reached is tried again. */
const undiscoveredRetryMs = 30_000;

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

  private reportLoaded: (entries: readonly CompiledEntry[]) => void = () => {
    // no listener: nothing holds anything per entry
  };

  private compiledAtGeneration = 0;
  /** When entries were skipped for want of their provider's discovery, the time. */
  private undiscoveredSince: number | undefined;

  constructor(
    private readonly store: EntryStore,
    private readonly changes: ChangeNotifier = localChangeNotifier(),
    private readonly otherWritersVersion?: () => string,
    private readonly discoveries?: DiscoverySource,
    private readonly clock: () => number = Date.now,
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
    const generation = this.discoveries?.generation() ?? 0;
    if (
      generation !== this.compiledAtGeneration ||
      (this.undiscoveredSince !== undefined &&
        this.clock() - this.undiscoveredSince >= undiscoveredRetryMs)
    ) {
      this.compiled = undefined;
      this.compiledAtGeneration = generation;
      this.undiscoveredSince = undefined;
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

  /**
   * Told of the entries at every load (a change here or on another
   * instance): what is kept per entry (an LDAP entry's connections,
   * gateway-memory.ts) is let go for those no longer there.
   */
  onLoaded(listener: (entries: readonly CompiledEntry[]) => void): void {
    this.reportLoaded = listener;
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
    const compiled = await Promise.all(
      records.map(async (record) => {
        try {
          return [compileEntry(record.input, { discovery: await this.discoveryFor(record.input) })];
        } catch (error) {
          this.reportBroken(record.input.id, problemOf(record.input, error));
          return [];
        }
      }),
    );
    const entries = compiled.flat();
    this.reportLoaded(entries);
    return entries;
  }

  /**
   * An OpenID Connect entry is compiled with its provider's endpoints; one
   * whose provider cannot be reached is left out (and reported) until a
   * retry half a minute later, rather than sending browsers to a stand-in.
   */
  private async discoveryFor(input: EntryInput): Promise<OidcDiscovery | undefined> {
    const issuer = discoveryIssuerOf(input);
    if (issuer === undefined || this.discoveries === undefined) {
      return undefined;
    }
    try {
      return await this.discoveries.discovery(issuer);
    } catch (error) {
      this.undiscoveredSince ??= this.clock();
      throw error;
    }
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
