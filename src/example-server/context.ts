import type { FastifyRequest } from 'fastify';
import { sessionCookie } from './defaults.js';
import type { FaultQueue } from './faults.js';
import type { ExampleState } from './state.js';
import type { ExampleUser } from './types.js';

/** What every route module needs. */
export interface RouteContext {
  readonly state: ExampleState;
  readonly faults: FaultQueue;
  /** Aborted when the server closes, to end injected delays. */
  readonly closing: AbortSignal;
}

/** A single string field of a query or body; repeated or non-text values count as absent. */
export function field(source: unknown, name: string): string | undefined {
  if (typeof source !== 'object' || source === null || !Object.hasOwn(source, name)) {
    return undefined;
  }
  const value: unknown = (source as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

export function signedInUser(
  request: FastifyRequest,
  context: RouteContext,
): ExampleUser | undefined {
  return context.state.sessionUser(readCookie(request, sessionCookie));
}

/** An absolute http(s) URL, or undefined: the server never redirects anywhere else. */
export function httpUrl(value: string | undefined): URL | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Adds parameters to a redirect URI, leaving out absent ones (a missing state stays missing). */
export function withParameters(url: URL, parameters: Record<string, string | undefined>): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) target.searchParams.append(name, value);
  }
  return target.href;
}
