import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';
import { writeCertificateChain } from '../../../test-support/certificate-chain.js';
import { waitUntil } from '../../../test-support/wait-until.js';

/*
 * A real Active Directory domain controller for the tests: Samba's, started
 * from a temporary directory. Samba serves LDAP on the fixed ports 389
 * (StartTLS), 636 (ldaps) and the global catalog's 3268/3269, with no
 * setting to move them, and listens only on addresses that an interface
 * carries (its `interfaces` setting is matched against the interfaces'
 * addresses, not bound as such). So each domain controller gets a loopback
 * address of its own, 127.x.y.z, added to `lo` for its lifetime: the ports
 * are then its own, beside the other tests' servers on 127.0.0.1.
 */

const sambaBinary = ['/usr/sbin/samba', '/usr/local/sbin/samba'].find((path) => existsSync(path));
const sambaTool = ['/usr/bin/samba-tool', '/usr/local/bin/samba-tool'].find((path) =>
  existsSync(path),
);
const ipBinary = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'].find((path) =>
  existsSync(path),
);
/** Samba's schema files, which `samba-tool domain provision` reads (Debian's samba-ad-provision). */
const adSchema = '/usr/share/samba/setup/ad-schema';

const packages = 'apt-get install samba samba-ad-provision samba-dsdb-modules samba-vfs-modules';

/** Why the Active Directory tests cannot run here, or false when they can. */
export const sambaSkip: string | false =
  sambaBinary === undefined || sambaTool === undefined
    ? `no Samba (${packages})`
    : !existsSync(adSchema)
      ? `no Samba domain provisioning files (${packages})`
      : process.getuid?.() !== 0
        ? "Samba's domain controller and its loopback address need root"
        : ipBinary === undefined
          ? 'no ip command (apt-get install iproute2) to give the domain controller an address'
          : false;

export const realm = 'CORP.TEST';
export const netbiosDomain = 'CORP';
export const domainDn = 'DC=corp,DC=test';
const netbiosName = 'DC1';
const administratorPassword = 'Administrator-pass-1';

/** A plain domain user, which may read users and groups: the gateway's service account. */
export const serviceAccount = {
  sAMAccountName: 'ssogate',
  dn: `CN=ssogate,CN=Users,${domainDn}`,
  password: 'Service-account-pass-1',
} as const;

export interface DomainUser {
  readonly sAMAccountName: string;
  /** The entry's DN, as the domain controller writes it. */
  readonly dn: string;
  readonly displayName: string;
  readonly mail: string;
  readonly password: string;
  /** The groups naming the user as a member (memberOf); the primary group, Domain Users, is not among them. */
  readonly groups: readonly string[];
  readonly disabled: boolean;
}

export const domainUsers = {
  alice: {
    sAMAccountName: 'alice',
    dn: `CN=Alice Liddell,CN=Users,${domainDn}`,
    displayName: 'Alice Liddell',
    mail: 'alice@corp.test',
    password: 'Alice-pass-1',
    groups: ['engineers', 'gateway-admins'],
    disabled: false,
  },
  /** A common name with a comma, as "Surname, Given name" directories name people. */
  bob: {
    sAMAccountName: 'bob',
    dn: `CN=Builder\\, Bob,CN=Users,${domainDn}`,
    displayName: 'Bob Builder',
    mail: 'bob@corp.test',
    password: 'Bob-pass-12',
    groups: [],
    disabled: false,
  },
  carol: {
    sAMAccountName: 'carol',
    dn: `CN=Carol Danvers,CN=Users,${domainDn}`,
    displayName: 'Carol Danvers',
    mail: 'carol@corp.test',
    password: 'Carol-pass-1',
    groups: ['engineers'],
    disabled: true,
  },
} as const satisfies Record<string, DomainUser>;

/**
 * Groups within groups: `platform` holds the group `engineers`, `staff`
 * holds `platform`, and `platform` holds `staff` back (Active Directory
 * allows the cycle; LDAP_MATCHING_RULE_IN_CHAIN must survive it).
 */
export const nestedDomainGroups: Readonly<Record<string, readonly string[]>> = {
  platform: ['engineers', 'staff'],
  staff: ['platform'],
};

/** The samba-tool commands that fill a freshly provisioned domain, in order. */
function seedCommands(): string[][] {
  const { alice, bob, carol } = domainUsers;
  const named = (user: DomainUser, given: string, surname: string) => [
    'user',
    'create',
    user.sAMAccountName,
    user.password,
    `--given-name=${given}`,
    `--surname=${surname}`,
    `--mail-address=${user.mail}`,
  ];
  return [
    // A template kept for weeks must not see its passwords expire (42 days by default).
    ['domain', 'passwordsettings', 'set', '--max-pwd-age=0'],
    [
      'user',
      'create',
      serviceAccount.sAMAccountName,
      serviceAccount.password,
      '--use-username-as-cn',
    ],
    named(alice, 'Alice', 'Liddell'),
    [...named(bob, 'Bob', 'Builder'), '--use-username-as-cn'],
    // samba-tool writes the new CN into a DN as given, so the comma comes escaped (RFC 4514 §2.4).
    ['user', 'rename', bob.sAMAccountName, '--force-new-cn=Builder\\, Bob'],
    named(carol, 'Carol', 'Danvers'),
    ['user', 'disable', carol.sAMAccountName],
    ['group', 'add', 'engineers'],
    ['group', 'add', 'gateway-admins'],
    ['group', 'add', 'platform'],
    ['group', 'add', 'staff'],
    ['group', 'addmembers', 'engineers', `${alice.sAMAccountName},${carol.sAMAccountName}`],
    ['group', 'addmembers', 'gateway-admins', alice.sAMAccountName],
    ...Object.entries(nestedDomainGroups).map(([group, members]) => [
      'group',
      'addmembers',
      group,
      members.join(','),
    ]),
  ];
}

const provisionArguments = [
  'domain',
  'provision',
  `--realm=${realm}`,
  `--domain=${netbiosDomain}`,
  `--host-name=${netbiosName.toLowerCase()}`,
  '--host-ip=127.0.0.1',
  '--server-role=dc',
  // No DNS server: the tests name the domain controller by address.
  '--dns-backend=NONE',
  '--use-rfc2307',
  `--adminpass=${administratorPassword}`,
];

export interface RunningDomainController {
  /** The loopback address the domain controller has to itself, such as 127.113.4.20. */
  readonly address: string;
  /** ldaps://{address} (port 636) */
  readonly ldapsUrl: string;
  /** ldap://{address} (port 389), for StartTLS */
  readonly ldapUrl: string;
  /** The PEM certificate of the CA that issued the domain controller's certificate. */
  readonly caCertificate: string;
  stop(): Promise<void>;
}

/**
 * A Samba Active Directory domain controller for the domain CORP.TEST,
 * holding `serviceAccount`, `domainUsers` and their groups. The provisioned
 * and filled domain is made once per Samba version and set of users, under
 * the system's temporary directory (about 25 s on an idle machine), and
 * copied for each start (2 to 5 s). Its TLS certificate, for its address, comes from a CA made
 * for the start. Samba runs in the foreground with its standard input a
 * pipe from this process: it ends when that closes, even if this process
 * is killed; `stop` ends it and removes its address and directory.
 */
export async function startSambaAd(): Promise<RunningDomainController> {
  if (sambaSkip !== false || sambaBinary === undefined || ipBinary === undefined) {
    throw new Error(sambaSkip || 'no Samba');
  }
  const template = provisionedTemplate();
  const dir = mkdtempSync(join(tmpdir(), 'ssogate-samba-ad-'));
  const address = await freeLoopbackAddress();
  let addressAdded = false;
  const removeAddress = () => {
    if (addressAdded) run(ipBinary, ['addr', 'del', `${address}/32`, 'dev', 'lo']);
    addressAdded = false;
  };
  try {
    cpSync(template, join(dir, 'dc'), { recursive: true });
    const caCertificate = makeCertificate(join(dir, 'dc', 'private', 'tls'), address);
    writeFileSync(join(dir, 'dc', 'etc', 'smb.conf'), smbConf(join(dir, 'dc'), address));
    run(ipBinary, ['addr', 'add', `${address}/32`, 'dev', 'lo']);
    addressAdded = true;
    const child = spawn(
      sambaBinary,
      ['--interactive', '--model=single', '-s', join(dir, 'dc', 'etc', 'smb.conf')],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let output = '';
    const keep = (text: string) => {
      output = (output + text).slice(-20_000);
    };
    child.stdout.setEncoding('utf8').on('data', keep);
    child.stderr.setEncoding('utf8').on('data', keep);
    let failed: Error | undefined;
    child.once('error', (error) => {
      failed = error;
    });
    const stop = async (): Promise<void> => {
      if (
        failed === undefined &&
        child.exitCode === null &&
        child.signalCode === null &&
        child.pid !== undefined
      ) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      child.stdin.destroy();
      removeAddress();
      rmSync(dir, { recursive: true, force: true });
    };
    const ldapUrl = `ldap://${address}`;
    try {
      await answering(ldapUrl, () => {
        if (failed !== undefined) throw failed;
        return child.exitCode !== null || child.signalCode !== null;
      });
    } catch (error) {
      await stop();
      throw new Error(`samba did not start: ${String(error)}\n${output}`, { cause: error });
    }
    return { address, ldapsUrl: `ldaps://${address}`, ldapUrl, caCertificate, stop };
  } catch (error) {
    removeAddress();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The provisioned and filled domain's directory, made when absent. Made
 * aside and renamed into place, so two test processes making it at once
 * each end with a whole one.
 */
function provisionedTemplate(): string {
  if (sambaTool === undefined || sambaBinary === undefined) throw new Error('no Samba');
  const version = run(sambaBinary, ['--version']).trim();
  const key = createHash('sha256')
    .update(JSON.stringify([version, provisionArguments, seedCommands()]))
    .digest('hex')
    .slice(0, 16);
  const template = join(tmpdir(), `ssogate-samba-ad-template-${key}`);
  if (existsSync(join(template, 'private', 'sam.ldb'))) return template;
  const staging = mkdtempSync(join(tmpdir(), 'ssogate-samba-ad-provision-'));
  try {
    const target = join(staging, 'dc');
    run(sambaTool, [...provisionArguments, `--targetdir=${target}`]);
    const conf = join(target, 'etc', 'smb.conf');
    for (const command of seedCommands()) run(sambaTool, [...command, '-s', conf]);
    try {
      renameSync(target, template);
    } catch (error) {
      // Another process put its own in place meanwhile: that one serves.
      if (!existsSync(join(template, 'private', 'sam.ldb'))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return template;
}

/**
 * The domain controller's settings, written anew for each copy (the
 * provisioned one names the directory it was made in): only the LDAP
 * service, on the one address; simple binds only over TLS, as Active
 * Directory requires by default.
 */
function smbConf(dir: string, address: string): string {
  const lines = {
    'netbios name': netbiosName,
    workgroup: netbiosDomain,
    realm,
    'server role': 'active directory domain controller',
    'server services': 'ldap',
    'disable netbios': 'yes',
    interfaces: address,
    'bind interfaces only': 'yes',
    'ldap server require strong auth': 'yes',
    'tls enabled': 'yes',
    'tls keyfile': join(dir, 'private', 'tls', 'key.pem'),
    'tls certfile': join(dir, 'private', 'tls', 'cert.pem'),
    'tls cafile': join(dir, 'private', 'tls', 'ca.pem'),
    'private dir': join(dir, 'private'),
    'lock directory': dir,
    'state directory': join(dir, 'state'),
    'cache directory': join(dir, 'cache'),
    'binddns dir': join(dir, 'bind-dns'),
    'log file': join(dir, 'log.%m'),
    'idmap_ldb:use rfc2307': 'yes',
  };
  return `[global]\n${Object.entries(lines)
    .map(([name, value]) => `\t${name} = ${value}\n`)
    .join('')}`;
}

/**
 * A private CA and a certificate it signed for the address
 * (writeCertificateChain), written where smbConf points; the CA's
 * certificate is returned.
 * Samba would make itself one for its host name, which the tests cannot
 * resolve.
 */
function makeCertificate(dir: string, address: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const at = (name: string) => join(dir, name);
  const host = `${netbiosName.toLowerCase()}.${realm.toLowerCase()}`;
  writeCertificateChain(dir, {
    caName: 'ssogate test domain CA',
    caDays: 2,
    commonName: host,
    subjectAltName: `DNS:${host},IP:${address}`,
    days: 2,
  });
  rmSync(at('ca.key'));
  return readFileSync(at('ca.pem'), 'utf8');
}

/**
 * A loopback address no interface carries, whose LDAP ports no server
 * holds (one listening on every address, say): 127.100-199.x.y, away from
 * 127.0.0.1, Debian's 127.0.1.1 and systemd-resolved's 127.0.0.53.
 */
async function freeLoopbackAddress(): Promise<string> {
  const carried = ipBinary === undefined ? '' : run(ipBinary, ['-o', 'addr', 'show']);
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const random = (below: number) => Math.floor(Math.random() * below);
    const address = `127.${String(100 + random(100))}.${String(random(256))}.${String(1 + random(254))}`;
    if (carried.includes(` ${address}/`)) continue;
    if ((await canListen(address, 389)) && (await canListen(address, 636))) return address;
  }
  throw new Error('no free loopback address with ports 389 and 636 free');
}

async function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => {
      resolve(false);
    });
    server.listen({ host, port, exclusive: true }, () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
}

/** Resolves once the domain controller answers a read of its root DSE (RFC 4512 §5.1). */
async function answering(url: string, ended: () => boolean): Promise<void> {
  await waitUntil(
    async () => {
      if (ended()) throw new Error('samba exited');
      const client = new Client({ url, connectTimeout: 1000, timeout: 2000 });
      try {
        const { searchEntries } = await client.search('', {
          scope: 'base',
          filter: '(objectClass=*)',
          attributes: ['defaultNamingContext'],
        });
        return searchEntries.length === 1;
      } catch {
        return false;
      } finally {
        await client.unbind().catch(() => undefined);
      }
    },
    { message: `samba to answer at ${url}`, timeoutMs: 60_000, intervalMs: 100 },
  );
}

/**
 * Runs a command to its end; its output, or an error with what it said.
 * The error names the command's first two words only: the rest may hold a password.
 */
function run(command: string, args: readonly string[]): string {
  const done = spawnSync(command, args, {
    encoding: 'utf8',
    input: '',
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (done.status !== 0) {
    throw new Error(
      `${command} ${args.slice(0, 2).join(' ')} failed (${String(done.status ?? done.signal)}): ${done.stderr}${done.stdout}`,
    );
  }
  return done.stdout;
}
