import { z } from 'zod';
import { LANGUAGES } from '../pages/i18n/languages.js';
import { REQUEST_LOG_MODES } from '../logging/routine-lines.js';

/**
 * Every setting of the gateway, with its environment variable, default and
 * meaning (docs/configuration.md). The schema is the one source for validation and for
 * docs/configuration.md; nothing else in the gateway reads process.env.
 */
export const settings = {
  port: { env: 'SSOGATE_PORT', help: 'a TCP port, 1-65535 (0 picks a free one)' },
  host: { env: 'SSOGATE_HOST', help: 'an interface to listen on, such as localhost or 0.0.0.0' },
  publicUrl: {
    env: 'SSOGATE_PUBLIC_URL',
    help: 'the http(s) origin users reach the gateway at, such as https://sso.corp.example',
  },
  dataDir: {
    env: 'SSOGATE_DATA_DIR',
    help: 'a directory for the SQLite file and the generated key',
  },
  databaseUrl: { env: 'SSOGATE_DATABASE_URL', help: 'sqlite:PATH or postgres://...' },
  redisUrl: { env: 'SSOGATE_REDIS_URL', help: 'redis://host:port' },
  redisSentinels: {
    env: 'SSOGATE_REDIS_SENTINELS',
    help: 'comma-separated host:port of the Redis Sentinels, such as 10.0.0.5:26379,10.0.0.6:26379,10.0.0.7:26379',
  },
  redisMaster: {
    env: 'SSOGATE_REDIS_MASTER',
    help: 'the name the Sentinels know the master by, 1-128 letters, digits, ., _ or -',
  },
  redisPassword: {
    env: 'SSOGATE_REDIS_PASSWORD',
    help: "the password of the Sentinels' Redis master and replicas (requirepass)",
  },
  redisSentinelPassword: {
    env: 'SSOGATE_REDIS_SENTINEL_PASSWORD',
    help: "the Sentinels' own password (sentinel requirepass)",
  },
  redisPrefix: {
    env: 'SSOGATE_REDIS_PREFIX',
    help: 'a key prefix such as ssogate: (letters, digits, :_-)',
  },
  secretKey: {
    env: 'SSOGATE_SECRET_KEY',
    help: '32 random bytes in base64 (openssl rand -base64 32) or 64 hex characters',
  },
  adminPassword: { env: 'SSOGATE_ADMIN_PASSWORD', help: 'at least 12 characters' },
  adminSecondFactor: {
    env: 'SSOGATE_ADMIN_SECOND_FACTOR',
    help: 'off, or required to have administrators give a second factor before the console and the admin API answer their session',
  },
  adminSecondFactorWithinMinutes: {
    env: 'SSOGATE_ADMIN_SECOND_FACTOR_WITHIN_MINUTES',
    help: "minutes an administrator's second factor counts for the console before it is asked again, 1-43200, with SSOGATE_ADMIN_SECOND_FACTOR=required",
  },
  upstream: {
    env: 'SSOGATE_UPSTREAM',
    help: 'the http(s) origin of the application to protect, or KEY=URL pairs separated by commas, a key being a path prefix, a host or a host and a prefix (/wiki=http://127.0.0.1:3000,wiki.corp.example=http://10.0.0.5:3000,git.corp.example/api=http://10.0.0.6:3000), or a JSON object of them',
  },
  upstreamTimeoutSeconds: {
    env: 'SSOGATE_UPSTREAM_TIMEOUT_SECONDS',
    help: 'seconds an upstream may take to start its response, 1-3600',
  },
  headersTimeoutSeconds: {
    env: 'SSOGATE_HEADERS_TIMEOUT_SECONDS',
    help: "seconds a request's head (request line and headers) may take to arrive, 1-600",
  },
  bodyTimeoutSeconds: {
    env: 'SSOGATE_BODY_TIMEOUT_SECONDS',
    help: "seconds the body of a request to the gateway's own routes may take to arrive, 1-3600",
  },
  idleTimeoutSeconds: {
    env: 'SSOGATE_IDLE_TIMEOUT_SECONDS',
    help: 'seconds a connection may send and receive nothing before it is closed, 1-3600, at least the upstream time-out',
  },
  websocketIdleTimeoutSeconds: {
    env: 'SSOGATE_WEBSOCKET_IDLE_TIMEOUT_SECONDS',
    help: 'seconds a proxied WebSocket may carry nothing either way before it is closed, 1-86400',
  },
  shutdownTimeoutSeconds: {
    env: 'SSOGATE_SHUTDOWN_TIMEOUT_SECONDS',
    help: 'seconds a stopping gateway lets requests under way finish, 1-3600',
  },
  workers: {
    env: 'SSOGATE_WORKERS',
    help: 'worker processes sharing the listener, 1-256, or auto for one per core',
  },
  forwardAuthHosts: {
    env: 'SSOGATE_FORWARD_AUTH_HOSTS',
    help: 'comma-separated hosts forward-auth may send users back to, such as app.corp.example,*.corp.example',
  },
  cookieDomain: {
    env: 'SSOGATE_COOKIE_DOMAIN',
    help: "a parent domain of the public URL's host and of every listed host, such as .corp.example, whose hosts all share the session cookie",
  },
  accessRules: {
    env: 'SSOGATE_ACCESS_RULES',
    help: 'a JSON list of access rules, or the path of a JSON or YAML file holding one',
  },
  entriesFile: { env: 'SSOGATE_ENTRIES_FILE', help: 'a JSON or YAML file {"entries": [...]}' },
  sessionIdleMinutes: {
    env: 'SSOGATE_SESSION_IDLE_MINUTES',
    help: 'minutes without activity after which a session ends, 1-10080',
  },
  sessionLifetimeMinutes: {
    env: 'SSOGATE_SESSION_LIFETIME_MINUTES',
    help: 'minutes after sign-in after which a session ends whatever its activity, 1-43200',
  },
  pendingSignInMinutes: {
    env: 'SSOGATE_PENDING_SIGN_IN_MINUTES',
    help: 'minutes a started sign-in may take, 1-60',
  },
  signInsPerMinute: {
    env: 'SSOGATE_SIGN_INS_PER_MINUTE',
    help: 'sign-ins one client address may start per minute, 1-100000',
  },
  pendingPerBrowser: {
    env: 'SSOGATE_PENDING_PER_BROWSER',
    help: 'pending sign-ins one browser may hold (the oldest go), 1-100',
  },
  pendingSignInsMax: {
    env: 'SSOGATE_PENDING_SIGN_INS_MAX',
    help: 'sign-ins all clients together may start per pending lifetime, 100-10000000',
  },
  auditRetentionDays: {
    env: 'SSOGATE_AUDIT_RETENTION_DAYS',
    help: 'days audit events are kept, 0-36500 (0 keeps them forever)',
  },
  apiTokenDays: {
    env: 'SSOGATE_API_TOKEN_DAYS',
    help: 'days a new API token lasts when its maker gives no expiry, 1-36500',
  },
  auditRetentionRows: {
    env: 'SSOGATE_AUDIT_RETENTION_ROWS',
    help: 'the most audit events kept (the newest), 1000-1000000000',
  },
  trustedProxies: {
    env: 'SSOGATE_TRUSTED_PROXIES',
    help: 'comma-separated addresses or CIDR ranges of proxies in front of the gateway whose X-Forwarded-For is believed, such as 10.0.0.0/8 (or loopback, linklocal, uniquelocal)',
  },
  allowInsecureHttp: {
    env: 'SSOGATE_ALLOW_INSECURE_HTTP',
    help: 'true to let entries call third-party servers over plain http on other hosts than loopback',
  },
  outboundAllow: {
    env: 'SSOGATE_OUTBOUND_ALLOW',
    help: 'comma-separated host names, IP addresses and CIDR networks entries may call although they are loopback, private or link-local, such as auth.corp.internal,10.20.0.0/16',
  },
  outboundMaxConnections: {
    env: 'SSOGATE_OUTBOUND_MAX_CONNECTIONS',
    help: 'calls at once to one third-party origin, 1-1000',
  },
  caFile: {
    env: 'SSOGATE_CA_FILE',
    help: 'a PEM file of one or more certificate authorities to trust for third-party servers, besides the usual ones',
  },
  metricsToken: {
    env: 'SSOGATE_METRICS_TOKEN',
    help: 'a bearer token of at least 16 characters that /_sso/metrics asks for',
  },
  metricsAddress: {
    env: 'SSOGATE_METRICS_ADDRESS',
    help: 'host:port of a listener of its own for the metrics, such as 127.0.0.1:9464 or [::1]:9464',
  },
  otlpEndpoint: {
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    help: 'the http(s) base URL of an OTLP/HTTP receiver, such as http://127.0.0.1:4318 (traces go to /v1/traces)',
  },
  defaultLanguage: {
    env: 'SSOGATE_DEFAULT_LANGUAGE',
    help: 'en or zh-CN, the language of pages for a browser that asks for neither',
  },
  organizationName: {
    env: 'SSOGATE_ORGANIZATION_NAME',
    help: 'a name of 1-100 characters, shown above the sign-in pages',
  },
  organizationLogoFile: {
    env: 'SSOGATE_ORGANIZATION_LOGO_FILE',
    help: 'a PNG, JPEG, WebP or SVG file of at most 256 KiB',
  },
  logLevel: {
    env: 'SSOGATE_LOG_LEVEL',
    help: 'one of fatal, error, warn, info, debug, trace, silent',
  },
  requestLog: {
    env: 'SSOGATE_REQUEST_LOG',
    help: 'sampled (one routine request in 64 writes its line) or all',
  },
} as const;

export type SettingName = keyof typeof settings;

const port = z.coerce.number().int().min(0).max(65_535);
const minutes = (max: number) => z.coerce.number().int().min(1).max(max);
const httpOrigin = z
  .url()
  .refine((value) => /^https?:$/.test(new URL(value).protocol), 'must be http or https')
  .refine((value) => {
    const url = new URL(value);
    return url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '';
  }, 'must be an origin only: scheme, host and port, no path, query or credentials')
  .transform((value) => new URL(value).origin);

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((value) => value === true || value === 'true' || value === '1');

export const configSchema = z.object({
  port: port.default(8080),
  host: z.string().min(1).default('localhost'),
  publicUrl: httpOrigin.optional(),
  dataDir: z.string().min(1).default('./data'),
  databaseUrl: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'must start with sqlite: or postgres://')
    .optional(),
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  // Parsed further, with every problem reported, by redis-settings.ts.
  redisSentinels: z.union([z.string().min(1), z.array(z.string())]).optional(),
  redisMaster: z
    .string()
    .regex(/^[\w.-]{1,128}$/, 'must be 1-128 letters, digits, ., _ or -')
    .optional(),
  redisPassword: z.string().min(1).max(512).optional(),
  redisSentinelPassword: z.string().min(1).max(512).optional(),
  redisPrefix: z
    .string()
    .regex(/^[\w:-]{1,64}$/, 'must be 1-64 letters, digits, :, _ or -')
    .default('ssogate:'),
  secretKey: z.string().min(1).optional(),
  adminPassword: z.string().min(12, 'must be at least 12 characters').optional(),
  adminSecondFactor: z.enum(['off', 'required']).default('off'),
  // Checked against adminSecondFactor by load-config.ts.
  adminSecondFactorWithinMinutes: minutes(43_200).optional(),
  // Parsed further, with every problem reported, by proxy-settings.ts.
  upstream: z.union([z.string().min(1), z.record(z.string(), z.string())]).optional(),
  upstreamTimeoutSeconds: z.coerce.number().int().min(1).max(3600).default(60),
  headersTimeoutSeconds: z.coerce.number().int().min(1).max(600).default(30),
  bodyTimeoutSeconds: z.coerce.number().int().min(1).max(3600).default(30),
  idleTimeoutSeconds: z.coerce.number().int().min(1).max(3600).default(120),
  websocketIdleTimeoutSeconds: z.coerce.number().int().min(1).max(86_400).default(600),
  shutdownTimeoutSeconds: z.coerce.number().int().min(1).max(3600).default(30),
  workers: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(256)]).default(1),
  forwardAuthHosts: z.union([z.string().min(1), z.array(z.string())]).optional(),
  // Checked further, against the public URL and the listed hosts, by cookie-domain.ts.
  cookieDomain: z.string().min(1).max(253).optional(),
  accessRules: z.union([z.string().min(1), z.array(z.unknown())]).optional(),
  entriesFile: z.string().min(1).optional(),
  sessionIdleMinutes: minutes(10_080).default(120),
  sessionLifetimeMinutes: minutes(43_200).default(720),
  pendingSignInMinutes: minutes(60).default(10),
  signInsPerMinute: z.coerce.number().int().min(1).max(100_000).default(60),
  pendingPerBrowser: z.coerce.number().int().min(1).max(100).default(5),
  pendingSignInsMax: z.coerce.number().int().min(100).max(10_000_000).default(100_000),
  auditRetentionDays: z.coerce.number().int().min(0).max(36_500).default(180),
  auditRetentionRows: z.coerce.number().int().min(1000).max(1_000_000_000).optional(),
  apiTokenDays: z.coerce.number().int().min(1).max(36_500).default(90),
  // Parsed further, with every problem reported, by trusted-proxies.ts.
  trustedProxies: z.union([z.string().min(1), z.array(z.string())]).optional(),
  allowInsecureHttp: flag.default(false),
  // Parsed further, with every problem reported, by load-config.ts.
  outboundAllow: z.union([z.string(), z.array(z.string())]).optional(),
  outboundMaxConnections: z.coerce.number().int().min(1).max(1000).default(16),
  caFile: z.string().min(1).optional(),
  metricsToken: z.string().min(16, 'must be at least 16 characters').optional(),
  metricsAddress: z
    .string()
    .regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):\d{1,5}$/, 'must be host:port')
    .refine((value) => Number(value.slice(value.lastIndexOf(':') + 1)) <= 65_535, 'port over 65535')
    .transform((value) => {
      const colon = value.lastIndexOf(':');
      return {
        host: value.slice(0, colon).replace(/^\[|\]$/g, ''),
        port: Number(value.slice(colon + 1)),
      };
    })
    .optional(),
  otlpEndpoint: z
    .url()
    .refine((value) => /^https?:$/.test(new URL(value).protocol), 'must be http or https')
    .optional(),
  defaultLanguage: z.enum(LANGUAGES).default('en'),
  organizationName: z
    .string()
    .trim()
    .min(1)
    .max(100, 'must be at most 100 characters')
    .refine((value) => !/[\p{Cc}\p{Cf}]/u.test(value), 'must hold no control characters')
    .optional(),
  organizationLogoFile: z.string().min(1).optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  requestLog: z.enum(REQUEST_LOG_MODES).default('sampled'),
});
