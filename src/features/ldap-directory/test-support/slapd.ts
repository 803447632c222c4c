import { execFile, spawn, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../test-support/free-port.js';
import { waitUntil } from '../../../test-support/wait-until.js';

const slapdBinary = ['/usr/sbin/slapd', '/usr/local/sbin/slapd'].find((path) => existsSync(path));
const ldapadd = ['/usr/bin/ldapadd', '/usr/local/bin/ldapadd'].find((path) => existsSync(path));
const ldapsearch = ['/usr/bin/ldapsearch', '/usr/local/bin/ldapsearch'].find((path) =>
  existsSync(path),
);

/** Why the directory tests cannot run here, or false when they can (for `test(..., { skip })`). */
export const slapdSkip: string | false =
  slapdBinary === undefined || ldapadd === undefined || ldapsearch === undefined
    ? 'no slapd (apt-get install slapd ldap-utils)'
    : false;

export const suffix = 'dc=example,dc=org';
export const rootDn = `cn=admin,${suffix}`;
export const rootPassword = 'directory admin secret';

/** A service account that may read the directory but is not its root. */
export const serviceDn = `cn=gateway,ou=services,${suffix}`;
export const servicePassword = 'service account secret';

/** The `ldap` settings that find a user's groups in this directory: groupOfNames naming the user. */
export const groupSearch = {
  groupFilter: '(&(objectClass=groupOfNames)(member={dn}))',
  groupBaseDn: `ou=groups,${suffix}`,
} as const;

/**
 * The input of an enabled LDAP entry that reads this directory's people as
 * the service account, with `ldap` settings of its own (its URL at least);
 * the test adds its id and name.
 */
export function serviceAccountEntry(ldap: Record<string, unknown>) {
  return {
    type: 'ldap',
    enabled: true,
    appsecret: servicePassword,
    ldap: {
      bindDn: serviceDn,
      baseDn: `ou=people,${suffix}`,
      connectTimeoutMs: 1000,
      ...ldap,
    },
  };
}

export interface DirectoryUser {
  readonly uid: string;
  readonly name: string;
  readonly email: string;
  readonly password: string;
  readonly groups: readonly string[];
}

export const directoryUsers: readonly DirectoryUser[] = [
  {
    uid: 'alice',
    name: 'Alice Liddell',
    email: 'alice@example.org',
    password: 'alice password 1',
    groups: ['engineers', 'gateway-admins'],
  },
  {
    uid: 'bob',
    name: 'Bob Builder',
    email: 'bob@example.org',
    password: 'bob password 2',
    groups: ['engineers'],
  },
];

/**
 * Groups within groups, as Active Directory nests them: `platform` holds the
 * group `engineers`, `staff` holds `platform`, and `platform` holds `staff`
 * back (a cycle a nested search must survive).
 */
export const nestedGroups: Readonly<Record<string, readonly string[]>> = {
  platform: ['engineers', 'staff'],
  staff: ['platform'],
};

export interface RunningSlapd {
  /** ldap://127.0.0.1:{port} */
  readonly url: string;
  readonly port: number;
  /** ldaps://127.0.0.1:{port}, when started with a certificate. */
  readonly ldapsUrl: string | undefined;
  /**
   * The connections slapd has open now, from its monitor
   * (`cn=Current,cn=Connections,cn=Monitor`), less the one that asks.
   */
  openConnections(): Promise<number>;
  /** Kills slapd (SIGKILL: no goodbye to its clients) and starts it again on its port, data kept. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A certificate for 127.0.0.1 and its key, in PEM: slapd then offers StartTLS and ldaps://. */
interface SlapdTls {
  readonly certificate: string;
  readonly key: string;
}

/**
 * A private slapd on a free loopback port, from a temporary directory with
 * its own configuration (slapd.conf read with `-f`, an mdb database, the
 * core, cosine and inetorgperson schemas, the memberof overlay), loaded with
 * `directoryUsers` and their groups by ldapadd. Stopped by its pid.
 */
export async function startSlapd(tls?: SlapdTls): Promise<RunningSlapd> {
  if (slapdBinary === undefined || ldapadd === undefined) throw new Error('no slapd');
  const dir = mkdtempSync(join(tmpdir(), 'ssogate-slapd-'));
  mkdirSync(join(dir, 'db'));
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = tls === undefined ? undefined : `ldaps://127.0.0.1:${await freePort()}`;
  if (tls !== undefined) {
    writeFileSync(join(dir, 'server.pem'), tls.certificate);
    writeFileSync(join(dir, 'server.key'), tls.key, { mode: 0o600 });
  }
  writeFileSync(join(dir, 'slapd.conf'), config(dir, tls !== undefined));
  writeFileSync(join(dir, 'users.ldif'), ldif());
  const listen = [url, ...(ldapsUrl === undefined ? [] : [ldapsUrl])].map((at) => `${at}/`);
  let errors = '';
  const run = () => {
    const started = spawn(
      slapdBinary,
      ['-f', join(dir, 'slapd.conf'), '-h', listen.join(' '), '-d', '0'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    started.stderr.setEncoding('utf8').on('data', (text: string) => {
      errors += text;
    });
    return started;
  };
  let child = run();
  const ended = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid, signal);
      await exited;
    }
  };
  const stop = async (): Promise<void> => {
    await ended('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await listening(port, () => child.exitCode !== null);
    const added = spawnSync(
      ldapadd,
      ['-x', '-H', url, '-D', rootDn, '-w', rootPassword, '-f', join(dir, 'users.ldif')],
      { encoding: 'utf8', input: '', timeout: 10_000, env: { ...process.env, LDAPNOINIT: '1' } },
    );
    if (added.status !== 0) throw new Error(`ldapadd failed: ${added.stderr}`);
  } catch (error) {
    await stop();
    throw new Error(`slapd did not start: ${String(error)}\n${errors}`, { cause: error });
  }
  return {
    url,
    port,
    ldapsUrl,
    stop,
    async restart() {
      await ended('SIGKILL');
      child = run();
      await listening(port, () => child.exitCode !== null);
    },
    async openConnections() {
      const { stdout } = await promisify(execFile)(
        ldapsearch ?? 'ldapsearch',
        [
          ...['-x', '-LLL', '-H', url, '-D', rootDn, '-w', rootPassword],
          ...['-b', 'cn=Current,cn=Connections,cn=Monitor', '-s', 'base', 'monitorCounter'],
        ],
        { timeout: 10_000, env: { ...process.env, LDAPNOINIT: '1' } },
      );
      const count = /^monitorCounter: (\d+)$/m.exec(stdout)?.[1];
      if (count === undefined) throw new Error(`no monitorCounter in ${stdout}`);
      return Number(count) - 1;
    },
  };
}

function config(dir: string, tls: boolean): string {
  return [
    ...(tls
      ? [
          `TLSCertificateFile ${join(dir, 'server.pem')}`,
          `TLSCertificateKeyFile ${join(dir, 'server.key')}`,
        ]
      : []),
    'include /etc/ldap/schema/core.schema',
    'include /etc/ldap/schema/cosine.schema',
    'include /etc/ldap/schema/inetorgperson.schema',
    `pidfile ${join(dir, 'slapd.pid')}`,
    `argsfile ${join(dir, 'slapd.args')}`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    'moduleload memberof',
    'database mdb',
    'maxsize 10485760',
    `suffix "${suffix}"`,
    `rootdn "${rootDn}"`,
    `rootpw "${rootPassword}"`,
    `directory ${join(dir, 'db')}`,
    // Users' groups are named on the user as memberOf, as Active Directory does.
    'overlay memberof',
    'access to attrs=userPassword by self write by anonymous auth by * none',
    // Users bound with their own password (a direct bind) may read the groups.
    `access to dn.subtree="ou=groups,${suffix}" by dn.exact="${serviceDn}" read by users read by * none`,
    `access to * by dn.exact="${serviceDn}" read by self read by * none`,
    // What a test counts of slapd's connections, read by its root only.
    'database monitor',
    `access to dn.subtree="cn=Monitor" by dn.exact="${rootDn}" read by * none`,
    '',
  ].join('\n');
}

function ldif(): string {
  const blocks = [
    `dn: ${suffix}\nobjectClass: dcObject\nobjectClass: organization\no: Example\ndc: example`,
    `dn: ou=people,${suffix}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${suffix}\nobjectClass: organizationalUnit\nou: groups`,
    `dn: ou=services,${suffix}\nobjectClass: organizationalUnit\nou: services`,
    `dn: ${serviceDn}\nobjectClass: person\ncn: gateway\nsn: gateway\nuserPassword: ${servicePassword}`,
    ...directoryUsers.map(
      (user) =>
        `dn: uid=${user.uid},ou=people,${suffix}\nobjectClass: inetOrgPerson\nuid: ${user.uid}\n` +
        `cn: ${user.name}\nsn: ${user.name.split(' ').at(-1) ?? user.uid}\n` +
        `mail: ${user.email}\nuserPassword: ${user.password}`,
    ),
    ...[...new Set(directoryUsers.flatMap((user) => user.groups))].map(
      (group) =>
        `dn: cn=${group},ou=groups,${suffix}\nobjectClass: groupOfNames\ncn: ${group}\n` +
        directoryUsers
          .filter((user) => user.groups.includes(group))
          .map((user) => `member: uid=${user.uid},ou=people,${suffix}`)
          .join('\n'),
    ),
    ...Object.entries(nestedGroups).map(
      ([group, members]) =>
        `dn: cn=${group},ou=groups,${suffix}\nobjectClass: groupOfNames\ncn: ${group}\n` +
        members.map((member) => `member: cn=${member},ou=groups,${suffix}`).join('\n'),
    ),
  ];
  return `${blocks.join('\n\n')}\n`;
}

/** Resolves once the port takes connections; rejects if the process ended or 10 s passed. */
async function listening(port: number, ended: () => boolean): Promise<void> {
  await waitUntil(
    async () => {
      if (ended()) throw new Error('slapd exited');
      return new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => {
          resolve(false);
        });
      });
    },
    { message: `slapd to listen on port ${String(port)}`, timeoutMs: 10_000, intervalMs: 50 },
  );
}
