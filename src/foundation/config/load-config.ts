import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import type { z } from 'zod';
import { SsogateError } from '../../core/index.js';
import type { AllowList } from '../outbound/address-policy.js';
import { parseAllowList } from '../outbound/address-policy.js';
import type { SettingName } from './config-schema.js';
import { configSchema, settings } from './config-schema.js';
import type { AccessRule, Upstream } from './proxy-settings.js';
import { parseAccessRules, parseHosts, parseUpstreams } from './proxy-settings.js';
import { parseTrustedProxies } from './trusted-proxies.js';
import { parseCookieDomain } from './cookie-domain.js';
import type { OrganizationLogo } from './organization-logo.js';
import { readOrganizationLogo } from './organization-logo.js';
import type { ServedHosts } from './served-hosts.js';
import { servedHosts } from './served-hosts.js';
import type { Language } from '../pages/i18n/languages.js';
import { parseYaml } from './parse-yaml.js';
import { postgresHosts } from './postgres-hosts.js';
import type { RedisTarget } from './redis-settings.js';
import { redisTargetOf } from './redis-settings.js';
import type { RequestLogMode } from '../logging/routine-lines.js';

/** The gateway's configuration: validated once, frozen, read by no one else. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly dataDir: string;
  readonly database:
    | { readonly kind: 'sqlite'; readonly filename: string }
    | { readonly kind: 'postgres'; readonly url: string };
  /** Redis for several instances: one server's URL, or the master the Sentinels name. */
  readonly redis: RedisTarget | undefined;
  /** Namespace of every Redis key and channel, so deployments can share a Redis. */
  readonly redisPrefix: string;
  readonly secretKey: string | undefined;
  readonly adminPassword: string | undefined;
  /**
   * Whether the console and the admin API ask an administrator's session
   * for a second factor (SSOGATE_ADMIN_SECOND_FACTOR), and how recent it
   * must be (SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES; undefined: once
   * per sign-in); undefined when off (sessions/console-factor.ts).
   */
  readonly adminSecondFactor: { readonly withinMs: number | undefined } | undefined;
  /** Applications behind the gateway, longest prefix first; empty: the portal page. */
  readonly upstreams: readonly Upstream[];
  readonly upstreamTimeoutMs: number;
  /** Limits on what a client may hold open (http/connection-limits.ts). */
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly websocketIdleTimeoutMs: number;
  /** How long a stop (SIGTERM) lets requests under way finish (app/graceful-stop.ts). */
  readonly shutdownTimeoutMs: number;
  /**
   * Processes serving the listener (SSOGATE_WORKERS, `auto` read as the
   * cores available); 1 is one process, no primary (app/worker-pool.ts).
   */
  readonly workers: number;
  /** Hosts the redirecting forward-auth may send users back to (the public host always). */
  readonly forwardAuthHosts: readonly string[];
  /** The hosts the gateway serves or vouches for, and whether there are several (served-hosts.ts). */
  readonly hosts: ServedHosts;
  readonly accessRules: readonly AccessRule[];
  readonly entriesFile: string | undefined;
  readonly sessionIdleMs: number;
  readonly sessionLifetimeMs: number;
  readonly pendingSignInMs: number;
  /** Sign-in starts one client address may make per minute. */
  readonly signInsPerMinute: number;
  /** Pending sign-ins one browser may hold; a new start evicts the oldest. */
  readonly pendingPerBrowser: number;
  /** Sign-in starts of all clients per pending lifetime: the bound on pending storage. */
  readonly pendingSignInsMax: number;
  /** How long audit events are kept; pruned by the expiry sweep (app/audit-retention.ts). */
  readonly auditRetention: AuditRetention;
  /**
   * How long an API token lasts when its maker gives no expiry
   * (docs/admin-api.md#api-tokens); one that never expires must be asked for.
   */
  readonly apiTokenLifetimeMs: number;
  /** Proxies whose X-Forwarded-For names the client's address; empty: none. */
  readonly trustedProxies: readonly string[];
  readonly allowInsecureHttp: boolean;
  /** Hosts, addresses and networks entries may call although not globally reachable. */
  readonly outboundAllow: AllowList;
  /** Calls at once to one third-party origin. */
  readonly outboundMaxConnections: number;
  /** PEM certificates of SSOGATE_CA_FILE, trusted besides Node's bundled roots. */
  readonly caCertificates: readonly string[] | undefined;
  readonly logLevel: string;
  /** Whether routine requests write every line or one in 64 (src/foundation/logging/routine-lines.ts). */
  readonly requestLog: RequestLogMode;
  /** The bearer token /_sso/metrics asks for; without it and an address, no metrics. */
  readonly metricsToken: string | undefined;
  /** A listener of the metrics' own (docs/metrics.md). */
  readonly metricsAddress: { readonly host: string; readonly port: number } | undefined;
  /** Where spans go (OTLP/HTTP); without it, no tracing. */
  readonly otlpEndpoint: string | undefined;
  /** The pages' language for a browser that asks for none of ours (pages/i18n/). */
  readonly defaultLanguage: Language;
  /** Shown above the sign-in pages; neither: nothing is. */
  readonly organization: {
    readonly name: string | undefined;
    readonly logo: OrganizationLogo | undefined;
  };
  /** Cookies get Secure and the __Host- prefix when the public URL is https. */
  readonly secureCookies: boolean;
}

/** How long audit events are kept (SSOGATE_AUDIT_RETENTION_DAYS, _ROWS). */
export interface AuditRetention {
  /** Events older than this go; undefined keeps them whatever their age. */
  readonly maxAgeMs: number | undefined;
  /** Only the newest this many stay; undefined: no cap. */
  readonly maxRows: number | undefined;
}

/** Every configuration problem, each with the variable and how to fix it. */
export class ConfigError extends SsogateError<'config_invalid'> {
  constructor(readonly problems: readonly string[]) {
    super(
      'config_invalid',
      `The configuration is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
}

const minute = 60_000;
const day = 24 * 60 * minute;

/**
 * Reads the environment, and the file named by SSOGATE_CONFIG_FILE if any
 * (JSON or YAML with the same settings in camelCase; the environment wins),
 * validates everything at once and returns a frozen Config, or throws a
 * ConfigError listing every problem.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const fromFile = readConfigFile(env.SSOGATE_CONFIG_FILE, cwd, problems);
  const raw: Record<string, unknown> = { ...fromFile };
  for (const [name, { env: variable }] of Object.entries(settings)) {
    const value = env[variable];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '');
      const setting = Object.hasOwn(settings, name) ? settings[name as SettingName] : undefined;
      problems.push(
        setting === undefined
          ? `${name || 'configuration'}: ${issue.message}`
          : `${setting.env}: ${issue.message}; expected ${setting.help}`,
      );
    }
  }
  // A setting the schema refuses hides no other problem: every setting it
  // accepts is still checked further, so one error lists them all.
  const further = checkedFurther(
    parsed.success ? parsed.data : acceptedSettings(raw),
    cwd,
    problems,
  );
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const value = parsed.data;

  const dataDir = resolve(cwd, value.dataDir);
  const database = databaseFrom(value.databaseUrl, dataDir, cwd);
  const publicUrl = publicUrlOf(value);
  return Object.freeze({
    port: value.port,
    host: value.host,
    publicUrl,
    dataDir,
    database,
    redis: further.redis,
    redisPrefix: value.redisPrefix,
    secretKey: value.secretKey,
    adminPassword: value.adminPassword,
    adminSecondFactor:
      value.adminSecondFactor === 'off'
        ? undefined
        : {
            withinMs:
              value.adminSecondFactorWithinMinutes === undefined
                ? undefined
                : value.adminSecondFactorWithinMinutes * minute,
          },
    upstreams: further.upstreams,
    upstreamTimeoutMs: value.upstreamTimeoutSeconds * 1000,
    headersTimeoutMs: value.headersTimeoutSeconds * 1000,
    bodyTimeoutMs: value.bodyTimeoutSeconds * 1000,
    idleTimeoutMs: value.idleTimeoutSeconds * 1000,
    websocketIdleTimeoutMs: value.websocketIdleTimeoutSeconds * 1000,
    shutdownTimeoutMs: value.shutdownTimeoutSeconds * 1000,
    workers: workerCount(value.workers),
    forwardAuthHosts: [...further.forwardAuthHosts, new URL(publicUrl).host],
    hosts: servedHosts(
      publicUrl,
      further.upstreams,
      further.forwardAuthHosts,
      further.cookieDomain,
    ),
    accessRules: further.accessRules,
    entriesFile: value.entriesFile === undefined ? undefined : resolve(cwd, value.entriesFile),
    sessionIdleMs: value.sessionIdleMinutes * minute,
    sessionLifetimeMs: value.sessionLifetimeMinutes * minute,
    pendingSignInMs: value.pendingSignInMinutes * minute,
    signInsPerMinute: value.signInsPerMinute,
    pendingPerBrowser: value.pendingPerBrowser,
    pendingSignInsMax: value.pendingSignInsMax,
    auditRetention: {
      maxAgeMs: value.auditRetentionDays === 0 ? undefined : value.auditRetentionDays * day,
      maxRows: value.auditRetentionRows,
    },
    apiTokenLifetimeMs: value.apiTokenDays * day,
    trustedProxies: further.trustedProxies,
    allowInsecureHttp: value.allowInsecureHttp,
    outboundAllow: further.outboundAllow,
    outboundMaxConnections: value.outboundMaxConnections,
    caCertificates: further.caCertificates,
    logLevel: value.logLevel,
    requestLog: value.requestLog,
    metricsToken: value.metricsToken,
    metricsAddress: value.metricsAddress,
    otlpEndpoint: value.otlpEndpoint,
    defaultLanguage: value.defaultLanguage,
    organization: { name: value.organizationName, logo: further.organizationLogo },
    secureCookies: publicUrl.startsWith('https:'),
  });
}

type SettingValues = z.output<typeof configSchema>;

/** SSOGATE_PUBLIC_URL, or the gateway's own port on localhost without one. */
function publicUrlOf(value: Partial<SettingValues>): string {
  const port = value.port ?? 8080;
  return value.publicUrl ?? `http://localhost:${port === 0 ? 8080 : port}`;
}

/** The settings the schema accepts one by one, when it refuses some of the others. */
function acceptedSettings(raw: Readonly<Record<string, unknown>>): Partial<SettingValues> {
  const accepted: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(configSchema.shape)) {
    const result = schema.safeParse(raw[name]);
    if (result.success) accepted[name] = result.data;
  }
  return accepted;
}

/**
 * The checks beyond the schema: the settings parsed further (upstreams,
 * access rules, hosts, proxies, the allowlist, the CA file) and the ones
 * that must agree with each other. A setting the schema refused is absent
 * here, and its checks are skipped.
 */
function checkedFurther(value: Partial<SettingValues>, cwd: string, problems: string[]) {
  checkPostgresServers(value.databaseUrl, problems);
  const upstreams = parseUpstreams(value.upstream, settings.upstream.env, problems);
  const forwardAuthHosts = parseHosts(
    value.forwardAuthHosts,
    settings.forwardAuthHosts.env,
    problems,
  );
  const cookieDomain = parseCookieDomain(
    value.cookieDomain,
    publicUrlOf(value),
    [...upstreams.flatMap(({ host }) => (host === undefined ? [] : [host])), ...forwardAuthHosts],
    settings.cookieDomain.env,
    problems,
  );
  const accessRules = parseAccessRules(value.accessRules, settings.accessRules.env, cwd, problems);
  const trustedProxies = parseTrustedProxies(
    value.trustedProxies,
    settings.trustedProxies.env,
    problems,
  );
  const outboundAllow = parseAllowList(
    Array.isArray(value.outboundAllow) ? value.outboundAllow.join(',') : value.outboundAllow,
    settings.outboundAllow.env,
    problems,
  );
  const caCertificates =
    value.caFile === undefined
      ? undefined
      : readCertificates(resolve(cwd, value.caFile), settings.caFile.env, problems);
  const organizationLogo =
    value.organizationLogoFile === undefined
      ? undefined
      : readOrganizationLogo(
          resolve(cwd, value.organizationLogoFile),
          settings.organizationLogoFile.env,
          problems,
        );
  const { sessionIdleMinutes: idle, sessionLifetimeMinutes: lifetime } = value;
  if (idle !== undefined && lifetime !== undefined && idle > lifetime) {
    problems.push(
      `${settings.sessionIdleMinutes.env}: ${idle} exceeds ${settings.sessionLifetimeMinutes.env} (${lifetime}); the idle time-out must not be longer than the lifetime`,
    );
  }
  const { idleTimeoutSeconds: idleTimeout, upstreamTimeoutSeconds: upstreamTimeout } = value;
  if (idleTimeout !== undefined && upstreamTimeout !== undefined && idleTimeout < upstreamTimeout) {
    problems.push(
      `${settings.idleTimeoutSeconds.env}: ${idleTimeout} is shorter than ${settings.upstreamTimeoutSeconds.env} (${upstreamTimeout}); a client waiting for a slow upstream would be cut off before its 504`,
    );
  }
  const redis = redisTargetOf(
    value,
    {
      redisUrl: settings.redisUrl.env,
      redisSentinels: settings.redisSentinels.env,
      redisMaster: settings.redisMaster.env,
      redisPassword: settings.redisPassword.env,
      redisSentinelPassword: settings.redisSentinelPassword.env,
    },
    problems,
  );
  checkWorkers(value, problems);
  checkAdminSecondFactor(value, problems);
  return {
    redis,
    upstreams,
    forwardAuthHosts,
    cookieDomain,
    accessRules,
    trustedProxies,
    outboundAllow,
    caCertificates,
    organizationLogo,
  };
}

function workerCount(setting: number | 'auto'): number {
  return setting === 'auto' ? availableParallelism() : setting;
}

/**
 * Several workers share what one process alone could keep: a database in
 * memory would be one per worker, and the metrics on the gateway's own
 * listener would answer each scrape with the counts of whichever worker
 * took the connection. The metrics' own listener is the primary's, which
 * adds up every worker's (app/worker-metrics.ts).
 */
function checkWorkers(value: Partial<SettingValues>, problems: string[]): void {
  if (value.workers === undefined || workerCount(value.workers) === 1) return;
  const variable = settings.workers.env;
  if (value.databaseUrl === 'sqlite::memory:')
    problems.push(
      `${variable}: several workers cannot share a database in memory (${settings.databaseUrl.env}=sqlite::memory:); use a file or PostgreSQL, or one worker`,
    );
  if (value.metricsToken !== undefined && value.metricsAddress === undefined)
    problems.push(
      `${variable}: with several workers the metrics need ${settings.metricsAddress.env}, where the counts of every worker are added up; on the gateway's own listener each scrape would read one worker's`,
    );
}

/**
 * A maximum age of the administrators' second factor means nothing while
 * none is asked: said at start rather than ignored, as a rule's `within`
 * without `factor: 2` is (proxy-settings.ts).
 */
function checkAdminSecondFactor(value: Partial<SettingValues>, problems: string[]): void {
  const within = value.adminSecondFactorWithinMinutes;
  if (within === undefined || value.adminSecondFactor !== 'off') return;
  problems.push(
    `${settings.adminSecondFactorWithinMinutes.env}: ${String(within)} needs ${settings.adminSecondFactor.env}=required; without it no second factor is asked of administrators`,
  );
}

/** Several PostgreSQL servers, libpq style: read as the storage will (storage/postgres/failover-pool.ts). */
function checkPostgresServers(databaseUrl: string | undefined, problems: string[]): void {
  if (databaseUrl?.startsWith('postgres') !== true) return;
  try {
    postgresHosts(databaseUrl);
  } catch (error) {
    problems.push(`${settings.databaseUrl.env}: ${(error as Error).message}`);
  }
}

function databaseFrom(
  databaseUrl: string | undefined,
  dataDir: string,
  cwd: string,
): Config['database'] {
  if (databaseUrl === undefined)
    return { kind: 'sqlite', filename: resolve(dataDir, 'ssogate.db') };
  if (databaseUrl.startsWith('postgres')) return { kind: 'postgres', url: databaseUrl };
  const path = databaseUrl.slice('sqlite:'.length);
  return {
    kind: 'sqlite',
    filename: path === ':memory:' || isAbsolute(path) ? path : resolve(cwd, path),
  };
}

const pemCertificate = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The certificates of a PEM file, read once at start; each is parsed, so a
 * damaged file stops the start rather than the first sign-in.
 */
function readCertificates(file: string, variable: string, problems: string[]): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(
      `${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
    return [];
  }
  const certificates = text.match(pemCertificate) ?? [];
  if (certificates.length === 0) {
    problems.push(`${variable}: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  certificates.forEach((pem, index) => {
    try {
      new X509Certificate(pem);
    } catch {
      problems.push(
        `${variable}: certificate ${index + 1} of ${file} is not a valid X.509 certificate`,
      );
    }
  });
  return certificates;
}

function readConfigFile(
  file: string | undefined,
  cwd: string,
  problems: string[],
): Record<string, unknown> {
  if (file === undefined || file === '') return {};
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (error) {
    problems.push(
      `SSOGATE_CONFIG_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
    return {};
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text); // YAML is a superset of JSON, so one parser reads both.
  } catch (error) {
    problems.push(
      `SSOGATE_CONFIG_FILE: ${file} is not valid JSON or YAML (${(error as Error).message.split('\n')[0] ?? ''})`,
    );
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    problems.push(`SSOGATE_CONFIG_FILE: ${file} must hold an object of settings`);
    return {};
  }
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (Object.hasOwn(settings, key)) result[key] = value;
    else
      problems.push(
        `SSOGATE_CONFIG_FILE: '${key}' is not a setting; known: ${Object.keys(settings).join(', ')}`,
      );
  }
  return result;
}
