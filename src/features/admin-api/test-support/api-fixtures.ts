import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AppOptions } from '../../../app/build-app.js';
import { buildApp } from '../../../app/build-app.js';
import { createGateway } from '../../../app/create-gateway.js';
import type { Gateway } from '../../../foundation/http/gateway.js';
import { openStorage } from '../../../app/open-storage.js';
import { loadConfig } from '../../../foundation/config/load-config.js';
import { sha256Base64url } from '../../../foundation/crypto/hash.js';
import { createSession, csrfTokenFor } from '../../sessions/session-service.js';
import type { GatewayStorage } from '../../../app/open-storage.js';
import { testBackend } from '../../../test-support/test-backend.js';
import { cookieNames } from '../../../foundation/web/index.js';

/** Test helpers for the admin API: a real app on the suite's backend (test-backend.ts), real sessions. */

export const apiToken = 'ssg_test-token-0123456789abcdefghijklmnopqrstuv';
/** The app secret of every factory entry (../../core/test-support/entries.ts), for "never the secret" scans. */
export { canarySecret } from '../../../core/test-support/entries.js';

export interface ApiFixture {
  readonly app: FastifyInstance;
  readonly gateway: Gateway;
  readonly storage: GatewayStorage;
  /** Advances the frozen clock. */
  tick(ms: number): void;
  /** Headers of a call with the API token. */
  readonly token: Record<string, string>;
  /** Signs a user in and returns the cookie header and CSRF header of their session. */
  signIn(
    userId: string,
    isAdmin: boolean,
  ): Promise<{ cookie: Record<string, string>; csrf: Record<string, string> }>;
  /** Every response body seen, for the "never the secret" scan. */
  readonly bodies: string[];
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

export async function withApi(
  run: (fixture: ApiFixture) => Promise<void>,
  appOptions: AppOptions = {},
  /** More settings, such as SSOGATE_OUTBOUND_ALLOW. */
  env: Readonly<Record<string, string>> = {},
): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ssogate-api-'));
  const backend = await testBackend();
  let config;
  let storage;
  try {
    config = loadConfig({
      ...backend.env,
      SSOGATE_DATA_DIR: dataDir,
      SSOGATE_LOG_LEVEL: 'silent',
      ...env,
    });
    storage = await openStorage(config);
  } catch (error) {
    await backend.cleanup();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  let now = Date.parse('2024-05-01T12:00:00Z');
  const gateway = createGateway(config, storage, { clock: () => now });
  const app = await buildApp(gateway, appOptions);
  await storage.apiTokens.create({
    id: 'tok1',
    name: 'ci',
    tokenHash: sha256Base64url(apiToken),
    createdAt: now,
    // As `ssogate token create --name ci` makes it: owned by the service "cli".
    owner: { kind: 'service', name: 'cli' },
  });
  const bodies: string[] = [];
  try {
    await run({
      app,
      gateway,
      storage,
      tick: (ms) => (now += ms),
      token: { authorization: `Bearer ${apiToken}` },
      bodies,
      async signIn(userId, isAdmin) {
        const { user } = await storage.users.insertIfAbsent(
          { userId, sourceEntryId: null, isAdmin },
          now,
        );
        const sessionId = await createSession(gateway.sessions, user, null, undefined);
        return {
          cookie: { cookie: `${cookieNames(false).session}=${sessionId}` },
          csrf: { 'x-csrf-token': csrfTokenFor(sessionId) },
        };
      },
      async inject(options) {
        const response = await app.inject(options);
        bodies.push(response.body);
        return response;
      },
    });
  } finally {
    await app.close();
    await storage.close();
    await backend.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The parsed JSON body of a response, typed as the test expects it to be. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- a typed cast, on purpose
export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json<T>();
}
