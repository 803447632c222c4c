import type { AccessRule } from '../../foundation/config/proxy-settings.js';
import { hostAllowed } from '../../foundation/config/proxy-settings.js';
import { SsogateError } from '../../core/index.js';
import type { CanonicalHost, LastHost } from '../../foundation/http/gateway-memory.js';
import type { SessionRecord, UserRecord } from '../../foundation/storage/types.js';
import { normaliseTarget } from './request-path.js';

/** `/` matches every path; `/app` matches `/app` and `/app/...`, not `/apple`. */
export function underPrefix(path: string, prefix: string): boolean {
  return prefix === '/' || path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The host of a request (or of a rule) in one spelling: lower-case, without
 * a trailing dot, the port as a number, and `:80` or `:443` dropped whatever
 * the scheme (the proxy in front routes by name, and the scheme it forwards
 * may be missing). Undefined for anything that is not a host name, an IPv4
 * or a bracketed IPv6 address with an optional port: a list, an escape,
 * a wildcard. With `last`, the gateway's memory of the last host read
 * (http/gateway-memory.ts): every proxied request asks for the same host or
 * nearly so, and the last answer is kept there.
 */
export function canonicalHost(host: string, last?: LastHost): CanonicalHost | undefined {
  if (last === undefined) return readHost(host);
  if (host === last.text) return last.canonical;
  const canonical = readHost(host);
  last.text = host;
  last.canonical = canonical;
  return canonical;
}

function readHost(host: string): CanonicalHost | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(?:\.[a-z0-9_-]+)*)\.?(?::(\d{1,5}))?$/.exec(
    host.trim().toLowerCase(),
  );
  if (match === null) return undefined;
  const name = match[1] ?? '';
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65_535) return undefined;
  return { name, port: port === 80 || port === 443 ? undefined : port };
}

/**
 * Whether a rule's host (`app.corp.example`, `*.corp.example`, either with a
 * port) covers a request's. A rule without a port covers its host on every
 * port: the proxy in front picks the application by name, so a client's
 * `Host: app.corp.example:8443` reaches the same application and must meet
 * the same rule. A rule with a port covers that port only.
 */
function ruleHostCovers(pattern: string, host: CanonicalHost): boolean {
  const wildcard = pattern.startsWith('*.');
  const wanted = canonicalHost(wildcard ? pattern.slice(2) : pattern);
  if (wanted === undefined) return false;
  if (wanted.port !== undefined && wanted.port !== host.port) return false;
  return hostAllowed([wildcard ? `*.${wanted.name}` : wanted.name], host.name);
}

/** The path as rules compare it: lower-case, `;parameters` dropped. */
function foldedPath(path: string): string {
  return path.toLowerCase().replace(/;[^/]*/g, '');
}

/**
 * The rule that decides a request: among the rules whose path covers it (and
 * whose host, if any, covers the request's), the one with a host before those
 * without, then the longest path. Rules compare case-insensitively and ignore
 * `;parameters` in segments, so a server that folds case or reads matrix
 * parameters cannot be reached around a rule.
 */
function ruleFor(
  rules: readonly AccessRule[],
  host: CanonicalHost | undefined,
  path: string,
): AccessRule | undefined {
  if (rules.length === 0) return undefined;
  const folded = foldedPath(path);
  let best: AccessRule | undefined;
  for (const rule of rules) {
    if (rule.host !== undefined && (host === undefined || !ruleHostCovers(rule.host, host)))
      continue;
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

/**
 * What the rules say of a signed-in request: let through, refused, or
 * refused until the session holds a second factor (given within the
 * rule's `within`, if it has one).
 */
type AccessVerdict = 'allow' | 'deny' | 'second-factor';

/**
 * The session's second factor as the rules judge it: the session read with
 * the request (its `factor`, no other read), and the time of the judgement.
 */
interface FactorCheck {
  readonly session: SessionRecord;
  readonly now: number;
}

/**
 * Whether the user may reach the path on the host (host[:port] as the
 * browser sent it, or undefined when the request does not say); paths no
 * rule covers are open to every signed-in user. A host that cannot be read
 * is refused, and so is a request without a host on a path that a rule with
 * a host covers: no spelling of a host gets around its rules. A rule asking
 * for a second factor (`factor: 2`) lets the users it lists through only
 * with one the session holds, recent enough for its `within`: else
 * 'second-factor'. Without `factor`, nothing counts as one.
 */
export function accessVerdict(
  rules: readonly AccessRule[],
  host: string | undefined,
  path: string,
  user: UserRecord,
  lastHost?: LastHost,
  factor?: FactorCheck,
): AccessVerdict {
  const canonical = host === undefined ? undefined : canonicalHost(host, lastHost);
  if (host !== undefined && canonical === undefined) return 'deny';
  if (canonical === undefined) {
    const folded = foldedPath(path);
    if (rules.some((rule) => rule.host !== undefined && underPrefix(folded, rule.path)))
      return 'deny';
  }
  const rule = ruleFor(rules, canonical, path);
  if (rule === undefined) return 'allow';
  const listed =
    rule.users.includes(user.userId) ||
    (user.department !== null && rule.departments.includes(user.department)) ||
    user.groups.some((group) => rule.groups.includes(group)) ||
    (rule.admins && user.isAdmin);
  if (!listed) return 'deny';
  if (rule.factor !== 2) return 'allow';
  return factorRecentEnough(factor, rule.withinMs) ? 'allow' : 'second-factor';
}

/**
 * Whether the session holds a second factor given no longer than `withinMs`
 * ago (undefined: at any time in the sign-in). The one judgement of a
 * factor's age, for the rules and for the console's own setting
 * (sessions/console-factor.ts).
 */
export function factorRecentEnough(
  check: FactorCheck | undefined,
  withinMs: number | undefined,
): boolean {
  const given = check?.session.factor;
  if (check === undefined || given === undefined) return false;
  return withinMs === undefined || check.now - given.at <= withinMs;
}

/** accessVerdict's 'allow' alone: a second factor missing refuses (a WebSocket cannot be sent to give one). */
export function accessAllowed(
  rules: readonly AccessRule[],
  host: string | undefined,
  path: string,
  user: UserRecord,
  lastHost?: LastHost,
  factor?: FactorCheck,
): boolean {
  return accessVerdict(rules, host, path, user, lastHost, factor) === 'allow';
}

/** What the rules say of a request: let through, a target refused, or a path denied. */
export type AccessDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly refused: string }
  | { readonly allowed: false; readonly deniedPath: string }
  | { readonly allowed: false; readonly secondFactorPath: string };

/**
 * The one decision of forward-auth (its full route and its fast path): the
 * rules, the host and the request target the proxy forwarded, and the user.
 * Without rules every signed-in user passes; otherwise the target is read
 * as the reverse proxy reads it (request-path.ts) and accessAllowed judges.
 */
export function accessDecision(
  rules: readonly AccessRule[],
  host: string | undefined,
  target: string,
  user: UserRecord,
  lastHost?: LastHost,
  factor?: FactorCheck,
): AccessDecision {
  if (rules.length === 0) return { allowed: true };
  const normalised = normaliseTarget(target);
  if ('refused' in normalised) return { allowed: false, refused: normalised.refused };
  const { path } = normalised;
  const verdict = accessVerdict(rules, host, path, user, lastHost, factor);
  if (verdict === 'allow') return { allowed: true };
  return verdict === 'deny'
    ? { allowed: false, deniedPath: path }
    : { allowed: false, secondFactorPath: path };
}

/**
 * The one refusal of a request whose rule asks for a second factor the
 * session does not hold (or not recently enough): a 401 like a request
 * without a session, which a page load is spared by being sent to give it.
 */
export function secondFactorNeeded(user: UserRecord, path: string): SsogateError {
  return new SsogateError(
    'second_factor_required',
    `${user.userId} needs a second factor for ${path}`,
  );
}

/**
 * The one refusal of a signed-in user whom the access rules keep from a
 * path, on forward-auth and the reverse proxy alike: `access_denied`, naming
 * the user and the path as the rules read it.
 */
export function accessDenied(user: UserRecord, path: string): SsogateError {
  return new SsogateError('access_denied', `${user.userId} may not reach ${path}`);
}
