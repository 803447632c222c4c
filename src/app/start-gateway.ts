import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../foundation/config/load-config.js';
import type { Upstream } from '../foundation/config/proxy-settings.js';
import { compileEntry } from '../core/index.js';
import type { EntryInput } from '../core/index.js';
import { bootstrapAdmin } from '../features/local-accounts/bootstrap-admin.js';
import { addressPolicy } from '../foundation/outbound/address-policy.js';
import { loadEntriesFile, provisionEntries } from '../features/provisioning/entries-file.js';
import type { Storage } from '../foundation/storage/types.js';
import { buildApp } from './build-app.js';
import { createGateway } from './create-gateway.js';
import type { GatewayOptions } from './create-gateway.js';
import { openStorage } from './open-storage.js';

export interface StartOptions extends GatewayOptions {
  /** Where start-up messages go (the generated admin password); default stdout. */
  readonly announce?: (line: string) => void;
  /**
   * A first administrator's password the caller sets itself (the demo's): a
   * later start that ignores it says nothing, as nobody typed it.
   */
  readonly ownAdminPassword?: string;
  /** Entries to provision besides the entries file (the demo's). */
  readonly entries?: readonly unknown[];
  /** A logger to use instead of the configured one (tests read its lines). */
  readonly logger?: FastifyBaseLogger;
  /** One worker of several: `sweeps` for the one that runs the expiry sweep. */
  readonly worker?: { readonly sweeps: boolean };
}

export interface RunningGateway {
  readonly app: FastifyInstance;
  readonly storage: Storage;
  /** The address it listens on, e.g. http://127.0.0.1:8080. */
  readonly address: string;
  close(): Promise<void>;
  /**
   * Ends what is still running, for a stop past its deadline: every
   * connection, and every call to a third-party server under way.
   */
  cutOff(): void;
}

/**
 * Everything `npm start` does after reading the configuration: open and
 * migrate the storage, provision entries from the file, create the first
 * administrator, build the app and listen. An invalid entries file stops the
 * start with a message naming the entry and field. A worker of several
 * (`worker`) only opens the storage, builds the app and listens: its
 * primary has done the rest once for all (worker-pool.ts).
 */
export async function startGateway(
  config: Config,
  options: StartOptions = {},
): Promise<RunningGateway> {
  const announce = options.announce ?? ((line: string) => process.stdout.write(`${line}\n`));
  const entries = options.worker === undefined ? await entriesToProvision(config, options) : [];
  const storage = await openStorage(config);
  try {
    const prepared =
      options.worker === undefined
        ? await prepareStorage(config, storage, entries, announce)
        : { adminPasswordIgnored: false };
    const gateway = createGateway(config, storage, options);
    const app = await buildApp(gateway, {
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.worker === undefined ? {} : { worker: options.worker }),
    });
    if (prepared.adminPasswordIgnored && config.adminPassword !== options.ownAdminPassword)
      warnAdminPasswordIgnored(app.log);
    const address = await app.listen({ port: config.port, host: config.host });
    if (options.worker === undefined) {
      for (const line of startLines(await startFacts(config, storage, entries, address)))
        announce(line);
    }
    return {
      app,
      storage,
      address,
      async close() {
        await app.close();
        await storage.close();
      },
      cutOff() {
        app.server.closeAllConnections();
        gateway.abortOutbound?.().catch((error: unknown) => {
          app.log.warn({ err: error }, 'ending the calls under way failed');
        });
      },
    };
  } catch (error) {
    await storage.close();
    throw error;
  }
}

/** The entries file's entries and the caller's, validated; a bad one stops the start. */
export async function entriesToProvision(
  config: Config,
  options: Pick<StartOptions, 'entries'> = {},
): Promise<EntryInput[]> {
  return [
    ...(config.entriesFile === undefined
      ? []
      : await loadEntriesFile(config.entriesFile, undefined, addressPolicy(config.outboundAllow))),
    ...(options.entries ?? []).map((input) => compileEntry(input).input),
  ];
}

/**
 * What a start does once per deployment, on migrated storage: the entries
 * provisioned and the first administrator created, its generated password
 * announced. Resolves whether SSOGATE_ADMIN_PASSWORD was ignored.
 */
export async function prepareStorage(
  config: Config,
  storage: Storage,
  entries: readonly EntryInput[],
  announce: (line: string) => void,
): Promise<{ readonly adminPasswordIgnored: boolean }> {
  const now = Date.now();
  if (entries.length > 0) await provisionEntries(storage, entries, now);
  const admin = await bootstrapAdmin(storage.users, config.adminPassword, now);
  if (admin.generatedPassword !== undefined) {
    // Printed once, on the console rather than the log, and never stored in clear.
    announce(`Created the administrator "admin" with the password: ${admin.generatedPassword}`);
    announce('Keep it now: it is not shown again. Set SSOGATE_ADMIN_PASSWORD to choose your own.');
  }
  return { adminPasswordIgnored: !admin.created && config.adminPassword !== undefined };
}

/**
 * The variable only chooses the first administrator's password; said
 * rather than leave someone typing a password that is refused.
 */
export function warnAdminPasswordIgnored(log: FastifyBaseLogger): void {
  log.warn(
    { code: 'admin_password_ignored' },
    "SSOGATE_ADMIN_PASSWORD ignored: an administrator already exists in this data folder; use `ssogate admin reset-password` to set the password of 'admin'",
  );
}

/** What the start lines tell, read from the configuration and the stored entries. */
export async function startFacts(
  config: Config,
  storage: Storage,
  provisioned: readonly EntryInput[],
  address: string,
): Promise<StartFacts> {
  const stored = await storage.entries.list();
  return {
    publicUrl: config.publicUrl,
    address,
    entriesFile: config.entriesFile,
    provisioned: provisioned.map((entry) => entry.id),
    upstreams: config.upstreams,
    storedEntries: stored.length,
    defaultEntry: stored.find((entry) => entry.input.isDefault === true)?.input.id,
  };
}

/** What a start knows that the lines it prints tell. */
export interface StartFacts {
  readonly publicUrl: string;
  /** The address it listens on. */
  readonly address: string;
  readonly entriesFile: string | undefined;
  /** The ids of the entries provisioned at this start (the file's, and the demo's). */
  readonly provisioned: readonly string[];
  readonly upstreams: readonly Upstream[];
  readonly storedEntries: number;
  readonly defaultEntry: string | undefined;
  /** The worker processes' ids, when several serve the listener (worker-pool.ts). */
  readonly workerPids?: readonly number[];
}

/**
 * The lines printed at each start, each thing once: the console's address
 * first (whoever waits for "listens on" has it by then), where the gateway
 * listens, the entries provisioned and the applications proxied, and the
 * next step.
 */
export function startLines(facts: StartFacts): string[] {
  const base = facts.publicUrl.replace(/\/+$/, '');
  const console = `${base}/_sso/admin`;
  const lines = [
    `Admin console: ${console} (sign in as admin)`,
    `ssogate listens on ${facts.address}${workersOf(facts.workerPids)}; users reach it at ${facts.publicUrl}`,
  ];
  if (facts.provisioned.length > 0) {
    const source = facts.entriesFile === undefined ? '' : ` from ${facts.entriesFile}`;
    lines.push(`Entries provisioned${source}: ${facts.provisioned.join(', ')}`);
  }
  if (facts.upstreams.length > 0) {
    const routes = facts.upstreams.map(
      ({ host, prefix, origin }) => `${host ?? ''}${prefix} → ${origin}`,
    );
    lines.push(`Proxying: ${routes.join(', ')}`);
  }
  if (facts.storedEntries === 0)
    lines.push(
      'Next: connect your OAuth2 server with New entry in the console, see docs/entries.md',
    );
  else if (facts.defaultEntry !== undefined)
    lines.push(`Next: open ${base}/ to sign in through the default entry, ${facts.defaultEntry}`);
  else lines.push(`Next: open ${base}/ and choose how to sign in`);
  return lines;
}

function workersOf(pids: readonly number[] | undefined): string {
  return pids === undefined ? '' : ` with ${pids.length} workers (pids ${pids.join(', ')})`;
}
