/** The ports `npm run demo` listens on besides the gateway's (SSOGATE_PORT, default 8080). */
interface DemoPorts {
  /** The example OAuth2 server: SSOGATE_DEMO_PROVIDER_PORT, default 9090. */
  readonly provider: number;
  /** The example extension: SSOGATE_DEMO_EXTENSION_PORT, default 9191. */
  readonly extension: number;
  /** The server the example extension fronts: SSOGATE_DEMO_ACME_PORT, default 9292. */
  readonly acme: number;
}

const settings = {
  provider: ['SSOGATE_DEMO_PROVIDER_PORT', 9090],
  extension: ['SSOGATE_DEMO_EXTENSION_PORT', 9191],
  acme: ['SSOGATE_DEMO_ACME_PORT', 9292],
} as const;

/**
 * Reads the demo's ports from the environment, so a demo can run beside
 * something already on 9090. Each bad value is named; all are reported at once.
 */
export function demoPorts(env: NodeJS.ProcessEnv): DemoPorts {
  const problems: string[] = [];
  const read = ([name, fallback]: readonly [string, number]): number => {
    const text = env[name];
    if (text === undefined || text === '') return fallback;
    const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
    if (!(port >= 0 && port <= 65535)) {
      problems.push(
        `${name} must be a port number from 0 to 65535 (0: any free port), got "${text}"`,
      );
    }
    return port;
  };
  const ports = {
    provider: read(settings.provider),
    extension: read(settings.extension),
    acme: read(settings.acme),
  };
  if (problems.length > 0) throw new Error(problems.join('; '));
  return ports;
}
