import type { RunningProxy } from './proxy-process.js';
import { findBinary, proxySkip, startProxy } from './proxy-process.js';

const caddyBinary = findBinary(['/usr/bin/caddy', '/usr/local/bin/caddy'], ['version']);

export const caddySkip = proxySkip(caddyBinary, 'no caddy (apt-get install caddy)');

/**
 * Caddy running `sites` (Caddyfile site blocks), with its admin endpoint and
 * automatic HTTPS off and its home in its own temporary directory; resolves
 * once `readyUrl` answers.
 */
export async function startCaddy(sites: string, readyUrl: string): Promise<RunningProxy> {
  return startProxy({
    name: 'caddy',
    binary: caddyBinary ?? 'caddy',
    config: { file: 'Caddyfile', text: () => `{\n\tadmin off\n\tauto_https off\n}\n\n${sites}` },
    args: (dir) => ['run', '--adapter', 'caddyfile', '--config', `${dir}/Caddyfile`],
    env: (dir) => ({ ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir }),
    readyUrl,
  });
}
