import type { IncomingHttpHeaders } from 'node:http';
import type { AccessDecision } from '../access-rules/access-rules.js';
import { accessDecision } from '../access-rules/access-rules.js';
import type { Gateway } from '../http/gateway.js';
import type { UserRecord } from '../storage/types.js';

/** A single-valued forwarded header; a repeated one is not trusted. */
export function forwarded(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The access rules' decision on the request a proxy asks about, read from
 * X-Forwarded-Host and X-Forwarded-Uri (or X-Original-URI, nginx's habit).
 */
export function forwardedAccess(
  gateway: Gateway,
  headers: IncomingHttpHeaders,
  user: UserRecord,
): AccessDecision {
  const uri = forwarded(headers, 'x-forwarded-uri') ?? forwarded(headers, 'x-original-uri') ?? '/';
  return accessDecision(
    gateway.config.accessRules,
    forwarded(headers, 'x-forwarded-host'),
    uri,
    user,
  );
}
