import { isIP } from 'node:net';

/** A Sentinel's address (SSOGATE_REDIS_SENTINELS). */
interface SentinelAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * Where the gateway's Redis is: one server at a URL, or the master of a group
 * the Sentinels watch, asked of them at every connection so a failover is
 * followed (docs/operations.md#redis-sentinel).
 */
export type RedisTarget =
  | { readonly kind: 'url'; readonly url: string }
  | {
      readonly kind: 'sentinel';
      readonly sentinels: readonly SentinelAddress[];
      /** The name the Sentinels know the master by (`sentinel monitor <name> ...`). */
      readonly masterName: string;
      /** The master's and replicas' password (requirepass); the URL holds it otherwise. */
      readonly password: string | undefined;
      /** The Sentinels' own password, when they ask for one (sentinel requirepass). */
      readonly sentinelPassword: string | undefined;
    };

/** The Redis settings as the schema accepted them. */
interface RedisValues {
  readonly redisUrl?: string | undefined;
  readonly redisSentinels?: string | readonly string[] | undefined;
  readonly redisMaster?: string | undefined;
  readonly redisPassword?: string | undefined;
  readonly redisSentinelPassword?: string | undefined;
}

/** The variable of each Redis setting, for the messages. */
interface RedisVariables {
  readonly redisUrl: string;
  readonly redisSentinels: string;
  readonly redisMaster: string;
  readonly redisPassword: string;
  readonly redisSentinelPassword: string;
}

/**
 * The Redis target of the settings, or undefined without Redis. The URL and
 * the Sentinels are two ways to name one Redis, so both at once is refused,
 * as is half of the Sentinel pair or a password with nothing to use it. No
 * message repeats a password.
 */
export function redisTargetOf(
  value: RedisValues,
  variables: RedisVariables,
  problems: string[],
): RedisTarget | undefined {
  const { redisUrl: url, redisMaster: masterName, redisPassword, redisSentinelPassword } = value;
  const sentinels =
    value.redisSentinels === undefined
      ? undefined
      : parseSentinels(value.redisSentinels, variables.redisSentinels, problems);
  if (sentinels === undefined) {
    for (const [setting, variable] of [
      [masterName, variables.redisMaster],
      [redisPassword, variables.redisPassword],
      [redisSentinelPassword, variables.redisSentinelPassword],
    ] as const) {
      if (setting !== undefined)
        problems.push(
          `${variable}: set without ${variables.redisSentinels}; it belongs to Redis behind Sentinels (with ${variables.redisUrl}, the password goes in the URL)`,
        );
    }
    return url === undefined ? undefined : { kind: 'url', url };
  }
  if (url !== undefined)
    problems.push(
      `${variables.redisSentinels}: set together with ${variables.redisUrl}; name Redis one way: the Sentinels and ${variables.redisMaster}, or one server's URL`,
    );
  if (masterName === undefined)
    problems.push(
      `${variables.redisMaster}: missing; ${variables.redisSentinels} needs the name the Sentinels know the master by (sentinel monitor <name> ...)`,
    );
  if (masterName === undefined || sentinels.length === 0) return undefined;
  return {
    kind: 'sentinel',
    sentinels,
    masterName,
    password: redisPassword,
    sentinelPassword: redisSentinelPassword,
  };
}

/**
 * SSOGATE_REDIS_SENTINELS: host:port items separated by commas (a list in a
 * configuration file), an IPv6 address in brackets. Each item is reported
 * on its own; a name given twice is one Sentinel asked twice, so refused.
 */
function parseSentinels(
  raw: string | readonly string[],
  variable: string,
  problems: string[],
): SentinelAddress[] {
  const items = typeof raw === 'string' ? raw.split(',') : raw;
  const sentinels: SentinelAddress[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const text = item.trim();
    const address = sentinelAddressOf(text);
    if (address === undefined) {
      problems.push(
        `${variable}: '${text}' is not host:port with a port of 1-65535 (such as sentinel-1.corp.internal:26379, 10.0.0.5:26379 or [fd00::5]:26379)`,
      );
      continue;
    }
    const key = `${address.host.toLowerCase()} ${address.port}`;
    if (seen.has(key)) {
      problems.push(`${variable}: '${text}' is listed twice`);
      continue;
    }
    seen.add(key);
    sentinels.push(address);
  }
  return sentinels;
}

const hostName =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function sentinelAddressOf(text: string): SentinelAddress | undefined {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(text);
  if (match === null) return undefined;
  const [, bracketed, plain = '', portText = ''] = match;
  const port = Number(portText);
  if (port < 1 || port > 65_535) return undefined;
  if (bracketed !== undefined) return isIP(bracketed) === 6 ? { host: bracketed, port } : undefined;
  return isIP(plain) === 4 || hostName.test(plain) ? { host: plain, port } : undefined;
}
