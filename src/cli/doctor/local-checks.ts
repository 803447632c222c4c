import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../foundation/config/load-config.js';
import type { Finding } from './findings.js';
import { passed, problem } from './findings.js';

/** Permission bits of the group and of others (crypto/private-files.ts tightens the same). */
const groupAndOthers = 0o077;

/**
 * The data folder holds the generated key and the SQLite file of password
 * hashes: it must exist (or be creatable at start), be writable by the
 * gateway's user, and neither it nor anything in it may be readable or
 * enterable by the group or others.
 */
export async function dataFolderFindings(config: Config): Promise<Finding[]> {
  const check = 'data folder';
  const folder = config.dataDir;
  let mode: number;
  try {
    mode = (await stat(folder)).mode;
  } catch {
    // With PostgreSQL and SSOGATE_SECRET_KEY nothing is kept in the folder.
    const used = config.database.kind === 'sqlite' || config.secretKey === undefined;
    if (!used) return [passed(check, folder, 'absent, and not used by this configuration')];
    return [
      problem(
        'data_dir_missing',
        check,
        folder,
        'does not exist yet; the gateway creates it (0700) at its first start',
        `create it as the gateway's user: install -d -m 700 ${folder} (a read-only root needs it mounted)`,
      ),
    ];
  }
  const findings: Finding[] = [];
  const exposed = [];
  if ((mode & groupAndOthers) !== 0) exposed.push({ path: folder, mode });
  for (const name of await readdir(folder)) {
    const path = join(folder, name);
    const fileMode = (await stat(path)).mode;
    if ((fileMode & groupAndOthers) !== 0) exposed.push({ path, mode: fileMode });
  }
  for (const { path, mode: found } of exposed) {
    findings.push(
      problem(
        'data_dir_exposed',
        check,
        path,
        `the group or others may read it (mode ${octal(found)}); it holds the key and password hashes`,
        `chmod go-rwx ${path}`,
      ),
    );
  }
  try {
    await access(folder, constants.W_OK | constants.X_OK);
  } catch {
    findings.push(
      problem(
        'data_dir_not_writable',
        check,
        folder,
        'this user cannot write in it',
        `chown it to the gateway's user, or run the doctor as that user`,
      ),
    );
  }
  if (findings.length === 0) findings.push(passed(check, folder, `private (mode ${octal(mode)})`));
  return findings;
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The public URL decides the cookies: https gives them Secure and the
 * __Host- prefix. Behind TLS terminated by a proxy, the proxy's addresses
 * belong in SSOGATE_TRUSTED_PROXIES, or every client counts as the proxy.
 */
export function publicUrlFindings(config: Config, env: NodeJS.ProcessEnv): Finding[] {
  const check = 'public URL';
  const url = new URL(config.publicUrl);
  const findings: Finding[] = [];
  if (env.SSOGATE_PUBLIC_URL === undefined || env.SSOGATE_PUBLIC_URL === '') {
    findings.push(
      problem(
        'public_url_unset',
        check,
        'SSOGATE_PUBLIC_URL',
        `not set: the gateway assumes ${config.publicUrl}, which only this machine reaches`,
        'set SSOGATE_PUBLIC_URL to the https origin users open, such as https://sso.corp.example',
      ),
    );
  } else if (url.protocol === 'https:') {
    findings.push(
      passed(check, config.publicUrl, 'https: cookies are Secure and __Host- prefixed'),
    );
  } else if (config.allowInsecureHttp || loopbackHosts.has(url.host.replace(/:\d+$/, ''))) {
    findings.push(
      problem(
        'public_url_http',
        check,
        config.publicUrl,
        'http: cookies are not Secure (accepted for this machine or with SSOGATE_ALLOW_INSECURE_HTTP)',
        'serve the gateway over https and set SSOGATE_PUBLIC_URL=https://...',
      ),
    );
  } else {
    findings.push(
      problem(
        'public_url_insecure',
        check,
        config.publicUrl,
        'http on a host other than loopback: session cookies would travel in clear text',
        'terminate TLS in front of the gateway and set SSOGATE_PUBLIC_URL=https://...; or SSOGATE_ALLOW_INSECURE_HTTP=true on a closed test network',
      ),
    );
  }
  if (url.protocol === 'https:' && config.trustedProxies.length === 0) {
    findings.push(
      problem(
        'trusted_proxies_unset',
        check,
        'SSOGATE_TRUSTED_PROXIES',
        'an https URL means a proxy terminates TLS, but none is trusted: every client shares its address and rate limit',
        "set SSOGATE_TRUSTED_PROXIES to the proxy's addresses or range, such as 10.0.0.0/8",
      ),
    );
  } else if (config.trustedProxies.length > 0) {
    findings.push(
      passed(check, 'SSOGATE_TRUSTED_PROXIES', `trusted: ${config.trustedProxies.join(', ')}`),
    );
  }
  return findings;
}

/**
 * Hosts are compared with their port (docs/proxy.md#many-hosts): with the
 * public URL on a port of its own, a host listed without one
 * (`app1.localhost`) does not match what a browser on that port sends
 * (`app1.localhost:8080`), and is served as an unlisted host.
 */
export function servedHostFindings(config: Config): Finding[] {
  const { port } = new URL(config.publicUrl);
  if (port === '') return [];
  return config.hosts.others
    .filter((host) => !/:\d+$/.test(host))
    .map((host) =>
      problem(
        'host_port_missing',
        'hosts',
        host,
        `listed without a port while the public URL is on port ${port}: a browser reaching it on that port sends ${host}:${port}, which is not this host, gets the auth host's pages and a sign-in that fails (state_invalid)`,
        `list it with the port browsers send, such as ${host}:${port}, in SSOGATE_UPSTREAM or SSOGATE_FORWARD_AUTH_HOSTS`,
      ),
    );
}

/**
 * Instances sharing PostgreSQL must open each other's sealed secrets: with
 * no SSOGATE_SECRET_KEY each would generate a key of its own in its data folder.
 */
export function secretKeyFindings(config: Config): Finding[] {
  if (config.database.kind !== 'postgres') return [];
  const check = 'secret key';
  if (config.secretKey !== undefined) {
    return [passed(check, 'SSOGATE_SECRET_KEY', 'set, for every instance to share')];
  }
  return [
    problem(
      'secret_key_not_shared',
      check,
      'SSOGATE_SECRET_KEY',
      'not set with PostgreSQL: each instance would seal secrets with a key of its own',
      'generate one (openssl rand -base64 32) and give the same SSOGATE_SECRET_KEY to every instance',
    ),
  ];
}
