import { posix } from 'node:path';
import type { AccessRule } from '../config/proxy-settings.js';
import type { UserRecord } from '../storage/types.js';

/**
 * The path a request's target means to the application behind the gateway,
 * for matching upstream prefixes and access rules: dot segments resolved,
 * percent-escapes decoded, repeated slashes and backslashes folded. An
 * application that decodes `/%61dmin` or collapses `//admin` must not reach
 * `/admin` past a rule that guards it. Undefined when the target cannot be
 * read (bad escapes, a NUL).
 */
export function matchPath(target: string): string | undefined {
  const pathname = targetUrl(target)?.pathname;
  if (pathname === undefined) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  return posix.normalize(decoded.replace(/\\/g, '/'));
}

/**
 * An origin-form request target (`/path?query`) as a URL whose path keeps
 * leading `//` (resolving it against a base would read `//x` as a host).
 */
export function targetUrl(target: string): URL | undefined {
  if (!target.startsWith('/')) return undefined;
  try {
    return new URL(`http://gateway.invalid${target}`);
  } catch {
    return undefined;
  }
}

/** `/` matches every path; `/app` matches `/app` and `/app/...`, not `/apple`. */
export function underPrefix(path: string, prefix: string): boolean {
  return prefix === '/' || path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The rule that decides a request: among the rules whose path covers it (and
 * whose host, if any, is the request's), the one with a host before those
 * without, then the longest path. Rules compare case-insensitively and ignore
 * `;parameters` in segments, so a server that folds case or reads matrix
 * parameters cannot be reached around a rule.
 */
export function ruleFor(
  rules: readonly AccessRule[],
  host: string | undefined,
  path: string,
): AccessRule | undefined {
  if (rules.length === 0) return undefined;
  const folded = path.toLowerCase().replace(/;[^/]*/g, '');
  const wantedHost = host?.toLowerCase();
  let best: AccessRule | undefined;
  for (const rule of rules) {
    if (rule.host !== undefined && rule.host !== wantedHost) continue;
    if (!underPrefix(folded, rule.path)) continue;
    if (
      best === undefined ||
      (rule.host !== undefined && best.host === undefined) ||
      ((rule.host === undefined) === (best.host === undefined) &&
        rule.path.length > best.path.length)
    )
      best = rule;
  }
  return best;
}

/** Whether the user may reach the path; paths no rule covers are open to every signed-in user. */
export function accessAllowed(
  rules: readonly AccessRule[],
  host: string | undefined,
  path: string,
  user: UserRecord,
): boolean {
  const rule = ruleFor(rules, host, path);
  if (rule === undefined) return true;
  return (
    rule.users.includes(user.userId) ||
    (user.department !== null && rule.departments.includes(user.department)) ||
    (rule.admins && user.isAdmin)
  );
}
