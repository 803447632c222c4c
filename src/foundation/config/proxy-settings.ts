import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseYaml } from './parse-yaml.js';

/**
 * The settings of the reverse proxy and of forward-auth, parsed once at start
 * (load-config.ts): every problem is pushed to `problems`, each naming the
 * variable and the offending part, so one start reports them all.
 */

/** An application behind the gateway, the host it answers on and the path prefix it serves. */
export interface Upstream {
  /**
   * The host (lower-case host[:port], served-hosts.ts normaliseHost) of a
   * host-keyed upstream (`wiki.corp.example=URL`); absent for the path-only
   * form, which answers on any host that has no upstream of its own.
   */
  readonly host?: string;
  /** `/` or a path without a trailing slash, such as `/wiki`. */
  readonly prefix: string;
  /** The upstream's origin, such as `http://127.0.0.1:3000`. */
  readonly origin: string;
}

/**
 * Who may reach a path prefix (and, if given, on a host): a signed-in
 * user passes when any of the lists names them. A rule with empty lists and
 * `admins: false` lets nobody in.
 */
export interface AccessRule {
  /** Lower-case host[:port] or `*.domain[:port]` the rule is limited to, or undefined for any. */
  readonly host: string | undefined;
  /** `/` or a path without a trailing slash, compared case-insensitively. */
  readonly path: string;
  readonly users: readonly string[];
  readonly departments: readonly string[];
  /** Groups an entry mapped for the user (docs/entries.md#groups-and-administrators). */
  readonly groups: readonly string[];
  readonly admins: boolean;
  /**
   * `2` when the rule asks for a second factor besides the sign-in
   * (docs/security.md#second-factor); absent for the sign-in alone.
   */
  readonly factor?: 2;
  /**
   * With `factor: 2`, how long ago the second factor may have been given
   * (`within: 15m`): older asks for it again (step-up). Absent: once per sign-in.
   */
  readonly withinMs?: number;
}

/**
 * One URL, `KEY=URL` pairs separated by commas, a JSON object
 * `{"KEY": "URL"}` in the variable, or that object in the configuration
 * file. A key is a path prefix (`/wiki`), a host (`wiki.corp.example`,
 * meaning its `/`), or a host and a prefix (`git.corp.example/api`).
 * Sorted host-keyed upstreams first, then longest prefix first: the order of
 * matching (reverse-proxy/proxy-target.ts).
 */
export function parseUpstreams(
  raw: unknown,
  variable: string,
  problems: string[],
): readonly Upstream[] {
  if (raw === undefined) return [];
  let pairs: [string, unknown][];
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    pairs = Object.entries(raw);
  } else if (typeof raw !== 'string') {
    problems.push(`${variable}: must be a URL, PREFIX=URL pairs or a JSON object`);
    return [];
  } else if (raw.trim().startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      problems.push(`${variable}: is not valid JSON (${(error as Error).message})`);
      return [];
    }
    return parseUpstreams(
      typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : [],
      variable,
      problems,
    );
  } else if (!raw.includes('=')) {
    pairs = [['/', raw.trim()]];
  } else {
    pairs = raw.split(',').map((part): [string, unknown] => {
      const eq = part.indexOf('=');
      return eq === -1
        ? [part.trim(), undefined]
        : [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    });
  }
  if (pairs.length === 0) problems.push(`${variable}: names no upstream`);
  const upstreams: Upstream[] = [];
  for (const [key, url] of pairs) {
    const where = `${variable}: prefix '${key}'`;
    const keyed = key.startsWith('/') ? undefined : hostKey(key, where, problems);
    if (keyed === null) continue;
    const prefix = checkPrefix(keyed?.path ?? key, where, problems);
    const origin = checkOrigin(url, `${variable}: upstream of '${key}'`, problems);
    if (prefix === undefined || origin === undefined) continue;
    const host = keyed?.host;
    if (upstreams.some((other) => other.prefix === prefix && other.host === host)) {
      const named = host === undefined ? prefix : `${host}${prefix === '/' ? '' : prefix}`;
      problems.push(`${variable}: the prefix '${named}' is listed twice`);
      continue;
    }
    upstreams.push(host === undefined ? { prefix, origin } : { host, prefix, origin });
  }
  return upstreams.sort(
    (a, b) =>
      Number(a.host === undefined) - Number(b.host === undefined) ||
      b.prefix.length - a.prefix.length,
  );
}

const hostName = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/**
 * A host-keyed upstream's key, `host[:port]` then an optional path; null
 * (and a problem) when the host is not a plain dotted name: no wildcard, no
 * scheme.
 */
function hostKey(
  key: string,
  where: string,
  problems: string[],
): { host: string; path: string } | null {
  const slash = key.indexOf('/');
  const host = normaliseHost(slash === -1 ? key : key.slice(0, slash));
  // A dot is asked for, so that a prefix missing its slash (`app=URL`) is
  // reported rather than read as a host.
  if (!hostName.test(host) || !host.includes('.')) {
    problems.push(
      `${where}: must be a path starting with / or a host such as wiki.corp.example, optionally followed by a path (git.corp.example/api)`,
    );
    return null;
  }
  return { host, path: slash === -1 ? '/' : key.slice(slash) };
}

/**
 * A host as compared everywhere: lower-case, without a trailing dot, with
 * the default ports `:80` and `:443` dropped whatever the scheme (the same
 * reading as the access rules' hosts).
 */
export function normaliseHost(raw: string): string {
  const host = raw.trim().toLowerCase();
  const port = /:\d+$/.exec(host)?.[0] ?? '';
  const name = host.slice(0, host.length - port.length);
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  return port === ':80' || port === ':443' ? bare : bare + port;
}

/**
 * A host without its port. Browsers keep cookies per host name, not per
 * port (RFC 6265 §8.5): hosts that differ by their port alone share cookies.
 */
export function withoutPort(host: string): string {
  return host.replace(/:\d+$/, '');
}

/** Comma-separated host[:port] names, lower-cased; `*.corp.example` matches its subdomains. */
export function parseHosts(raw: unknown, variable: string, problems: string[]): readonly string[] {
  if (raw === undefined) return [];
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
  if (items === undefined) {
    problems.push(`${variable}: must be a comma-separated list of host names`);
    return [];
  }
  const hosts: string[] = [];
  for (const item of items) {
    const host = typeof item === 'string' ? item.trim().toLowerCase() : '';
    if (
      !/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/.test(
        host,
      )
    ) {
      problems.push(
        `${variable}: '${String(item)}' is not a host name (such as app.corp.example, app.corp.example:8443 or *.corp.example)`,
      );
      continue;
    }
    hosts.push(host);
  }
  return hosts;
}

/** Whether `host` (host[:port] as a browser sends it) is one of `allowed`. */
export function hostAllowed(allowed: readonly string[], host: string): boolean {
  const wanted = host.toLowerCase();
  return allowed.some((pattern) =>
    pattern.startsWith('*.')
      ? wanted.endsWith(pattern.slice(1)) && wanted.length > pattern.length - 1
      : wanted === pattern,
  );
}

/**
 * A JSON array of rules in the variable (or a YAML list in the configuration
 * file), or the path of a JSON or YAML file holding one. Each rule:
 * `{"path": "/admin", "host"?: "app.corp.example", "users"?: [...],
 * "departments"?: [...], "admins"?: true}`.
 */
export function parseAccessRules(
  raw: unknown,
  variable: string,
  cwd: string,
  problems: string[],
): readonly AccessRule[] {
  if (raw === undefined) return [];
  let list: unknown = raw;
  if (typeof raw === 'string') {
    const text = raw.trim();
    let source = text;
    let where = 'the value';
    if (!text.startsWith('[')) {
      where = text;
      try {
        source = readFileSync(resolve(cwd, text), 'utf8');
      } catch (error) {
        problems.push(
          `${variable}: cannot read ${text} (${(error as NodeJS.ErrnoException).code ?? 'error'}); give a JSON list or a file of rules`,
        );
        return [];
      }
    }
    try {
      list = parseYaml(source); // YAML reads JSON too.
    } catch (error) {
      problems.push(
        `${variable}: ${where} is not valid JSON or YAML (${(error as Error).message.split('\n')[0] ?? ''})`,
      );
      return [];
    }
  }
  if (!Array.isArray(list)) {
    problems.push(`${variable}: must be a list of rules`);
    return [];
  }
  const rules: AccessRule[] = [];
  list.forEach((item: unknown, index) => {
    const rule = parseRule(item, `${variable}: rule ${index + 1}`, problems);
    if (rule === undefined) return;
    if (rules.some((other) => other.path === rule.path && other.host === rule.host)) {
      problems.push(`${variable}: rule ${index + 1} repeats the path '${rule.path}'`);
      return;
    }
    rules.push(rule);
  });
  return rules;
}

const ruleKeys = new Set([
  'path',
  'host',
  'users',
  'departments',
  'groups',
  'admins',
  'factor',
  'within',
]);

const durationUnits: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000 };

/** `factor` (1 or 2) and `within` (`90s`, `15m`, `8h`; with factor 2 only) of a rule. */
function factorFields(
  fields: Record<string, unknown>,
  where: string,
  problems: string[],
): { factor?: 2; withinMs?: number } {
  const { factor, within } = fields;
  if (factor !== undefined && factor !== 1 && factor !== 2) {
    problems.push(`${where}: factor must be 1 or 2`);
    return {};
  }
  if (within === undefined) return factor === 2 ? { factor } : {};
  const match = typeof within === 'string' ? /^(\d{1,6})([smh])$/.exec(within) : null;
  const amount = Number(match?.[1] ?? 0);
  if (match === null || amount === 0) {
    problems.push(`${where}: within must be a duration such as 90s, 15m or 8h`);
    return {};
  }
  if (factor !== 2) {
    problems.push(`${where}: within needs factor: 2`);
    return {};
  }
  return { factor, withinMs: amount * (durationUnits[match[2] ?? 's'] ?? 1000) };
}

function parseRule(item: unknown, where: string, problems: string[]): AccessRule | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    problems.push(`${where}: must be an object with path and users, departments, groups or admins`);
    return undefined;
  }
  const fields = item as Record<string, unknown>;
  const before = problems.length;
  for (const key of Object.keys(fields)) {
    if (!ruleKeys.has(key))
      problems.push(`${where}: '${key}' is not a rule field; known: ${[...ruleKeys].join(', ')}`);
  }
  const path = checkPrefix(fields.path ?? '/', `${where}: path`, problems);
  const hosts =
    fields.host === undefined ? [] : parseHosts([fields.host], `${where}: host`, problems);
  const users = stringList(fields.users, `${where}: users`, problems);
  const departments = stringList(fields.departments, `${where}: departments`, problems);
  const groups = stringList(fields.groups, `${where}: groups`, problems);
  if (fields.admins !== undefined && typeof fields.admins !== 'boolean')
    problems.push(`${where}: admins must be true or false`);
  const factor = factorFields(fields, where, problems);
  if (problems.length > before || path === undefined) return undefined;
  return {
    host: hosts[0],
    path: path.toLowerCase(),
    users,
    departments,
    groups,
    admins: fields.admins === true,
    ...factor,
  };
}

function stringList(value: unknown, where: string, problems: string[]): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item !== '')) {
    problems.push(`${where}: must be a list of non-empty strings`);
    return [];
  }
  return value as string[];
}

function checkPrefix(raw: unknown, where: string, problems: string[]): string | undefined {
  if (typeof raw !== 'string' || !/^\/[\x21-\x7e]*$/.test(raw) || raw.includes('//')) {
    problems.push(`${where}: must be a path starting with /, such as /app`);
    return undefined;
  }
  const prefix = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
  if (prefix.toLowerCase() === '/_sso' || prefix.toLowerCase().startsWith('/_sso/')) {
    problems.push(`${where}: paths under /_sso are the gateway's own`);
    return undefined;
  }
  if (/[?#%]|\/\.\.?(\/|$)/.test(prefix)) {
    problems.push(`${where}: must be a plain path, without ?, #, % or dot segments`);
    return undefined;
  }
  return prefix;
}

function checkOrigin(raw: unknown, where: string, problems: string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    problems.push(`${where}: '${String(raw)}' is not a URL; expected http(s)://host:port`);
    return undefined;
  }
  if (!/^https?:$/.test(url.protocol)) {
    problems.push(`${where}: must be http or https`);
    return undefined;
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '') {
    problems.push(
      `${where}: must be an origin only (scheme, host and port); the request's path is sent as it is`,
    );
    return undefined;
  }
  return url.origin;
}
