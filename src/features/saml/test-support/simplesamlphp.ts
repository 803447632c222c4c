import { execFile, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../../test-support/free-port.js';
import { waitUntil } from '../../../test-support/wait-until.js';

/** Where Debian's simplesamlphp package puts the IdP's public pages. */
const simpleSamlPhpWww = '/usr/share/simplesamlphp/www';

const phpAvailable = spawnSync('php', ['--version']).status === 0;

// CI installs Debian's simplesamlphp and php-cli (.ci/run); elsewhere the
// test says it is skipped. Under CI a missing one fails the test instead.
export const simpleSamlPhpSkip: string | false =
  (!phpAvailable || !existsSync(simpleSamlPhpWww)) && process.env.CI !== 'true'
    ? 'no SimpleSAMLphp (apt-get install simplesamlphp php-cli)'
    : false;

/** A person of the IdP's `exampleauth:UserPass` source; password `<username>-password`. */
export interface SamlTestUser {
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly groups: readonly string[];
}

/** A service provider the IdP knows: its entityID and its AssertionConsumerService. */
export interface SamlTestServiceProvider {
  readonly entityId: string;
  readonly acsUrl: string;
  /** Whether the IdP signs the assertion (default true, saml20.sign.assertion). */
  readonly signAssertion?: boolean;
  /**
   * A certificate (PEM) to encrypt the assertions to (assertion.encryption),
   * as the service provider's metadata would publish it; default none.
   */
  readonly encryptionCertificate?: string;
  /** Its SingleLogoutService (HTTP-Redirect binding), where the IdP's logout messages go. */
  readonly logoutUrl?: string;
  /** Whether the IdP signs its logout messages to it (default true, sign.logout). */
  readonly signLogout?: boolean;
  /**
   * The certificate (PEM) it signs its messages with: the IdP then requires
   * its AuthnRequests and logout messages signed by it (certData,
   * validate.authnrequest, validate.logout); default none, nothing required.
   */
  readonly signingCertificate?: string;
}

/** A private key (PEM, PKCS#8) and its self-signed certificate, made by openssl for this run. */
export interface TestKeyPair {
  readonly privateKey: string;
  readonly certificate: string;
}

/**
 * A fresh key (RSA 2048 unless `algorithm`, openssl's -newkey) and its
 * certificate for `name`, made by openssl in a temporary directory.
 */
export async function makeKeyPair(name: string, algorithm = 'rsa:2048'): Promise<TestKeyPair> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-keypair-'));
  try {
    await writeKeyPair(dir, 'key', name, algorithm);
    return {
      privateKey: await readFile(join(dir, 'key.key'), 'utf8'),
      certificate: await readFile(join(dir, 'key.crt'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `<base>.key` and `<base>.crt` in `dir`: an RSA 2048 key (or `algorithm`), unencrypted, and its certificate. */
async function writeKeyPair(
  dir: string,
  base: string,
  name: string,
  algorithm = 'rsa:2048',
): Promise<void> {
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    algorithm,
    '-nodes',
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-keyout',
    join(dir, `${base}.key`),
    '-out',
    join(dir, `${base}.crt`),
  ]);
}

export interface RunningSimpleSamlPhp {
  readonly url: string;
  /** The IdP's entityID (its metadata URL, as SimpleSAMLphp names a hosted IdP). */
  readonly entityId: string;
  /** The SingleSignOnService of the HTTP-Redirect binding. */
  readonly ssoUrl: string;
  /** The certificate the IdP signs with at its start, PEM. */
  readonly certificate: string;
  /**
   * Rolls its signing key over: a new key signs from now on, and its
   * metadata names only the new certificate, which is returned.
   */
  rollKey(): Promise<string>;
  /** Its key, PEM: for a test's own messages in the IdP's name. */
  readonly privateKey: string;
  /** Its metadata document (SingleSignOnService, SingleLogoutService, certificate). */
  readonly metadataUrl: string;
  /** Its SingleLogoutService (HTTP-Redirect binding). */
  readonly sloUrl: string;
  /** Where an IdP-initiated logout of the browser's IdP session starts, ending at `returnTo`. */
  idpLogoutUrl(returnTo: string): string;
  /** Where an IdP-initiated sign-in for that service provider starts (no AuthnRequest). */
  idpInitiatedUrl(spEntityId: string): string;
  /** The IdP's own log and the PHP server's output, for a failing test's message. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

/** A certificate as SimpleSAMLphp's certData: the base64 of its DER, in one line. */
function certData(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

/** PHP text of a value: strings quoted, arrays as PHP arrays. */
function php(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map(php).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `[${Object.entries(value)
      .map(([key, item]) => `${php(key)} => ${php(item)}`)
      .join(', ')}]`;
  }
  return 'null';
}

/**
 * A real SAML 2.0 identity provider: Debian's SimpleSAMLphp, configured in
 * a temporary directory of its own (SIMPLESAMLPHP_CONFIG_DIR; nothing of
 * /etc/simplesamlphp read) and served by PHP's built-in server on a free
 * loopback port. Its signing key and certificate are made by openssl for
 * this run; its users sign in with `exampleauth:UserPass`, their `uid`,
 * `displayName`, `mail` and `groups` released as attributes, the uid also
 * as the NameID. Stopped by its process id.
 */
export async function startSimpleSamlPhp(
  users: readonly SamlTestUser[],
  serviceProviders: readonly SamlTestServiceProvider[],
  options: {
    /** The name the browser reaches it by (a browser mapping it to loopback); default 127.0.0.1. */
    readonly host?: string;
  } = {},
): Promise<RunningSimpleSamlPhp> {
  const dir = await mkdtemp(join(tmpdir(), 'ssogate-simplesamlphp-'));
  const port = await freePort();
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const entityId = `${url}/saml2/idp/metadata.php`;
  for (const folder of ['cert', 'log', 'data', 'tmp', 'sessions', 'metadata']) {
    await mkdir(join(dir, folder));
  }
  await writeKeyPair(join(dir, 'cert'), 'idp', 'simplesamlphp.test');
  const certificate = await readFile(join(dir, 'cert', 'idp.crt'), 'utf8');
  const privateKey = await readFile(join(dir, 'cert', 'idp.key'), 'utf8');
  const salt = Math.random().toString(36).slice(2);
  await writeFile(
    join(dir, 'config.php'),
    `<?php
$config = ${php({
      baseurlpath: `${url}/`,
      certdir: `${dir}/cert/`,
      loggingdir: `${dir}/log/`,
      datadir: `${dir}/data/`,
      tempdir: `${dir}/tmp`,
      metadatadir: `${dir}/metadata/`,
      technicalcontact_name: 'ssogate tests',
      technicalcontact_email: 'tests@example.test',
      secretsalt: `salt-${salt}`,
      'auth.adminpassword': `admin-${salt}`,
      'admin.protectindexpage': false,
      'admin.protectmetadata': false,
      timezone: 'UTC',
      'logging.handler': 'file',
      'logging.logfile': 'simplesamlphp.log',
      'enable.saml20-idp': true,
      'module.enable': { exampleauth: true, core: true, saml: true },
      'store.type': 'phpsession',
      'session.cookie.secure': false,
      'session.phpsession.savepath': `${dir}/sessions`,
      'language.cookie.secure': false,
      production: false,
      showerrors: true,
      'metadata.sources': [{ type: 'flatfile' }],
      // Where an IdP-initiated logout may end (initSLO.php's RelayState): any
      // host of the test's, each on a port of its own.
      'trusted.url.regex': true,
      'trusted.url.domains': ['.+'],
    })};
$config['logging.level'] = SimpleSAML\\Logger::DEBUG;
$config['session.cookie.samesite'] = null;
$config['language.cookie.samesite'] = null;
`,
  );
  const accounts = Object.fromEntries(
    users.map((user) => [
      `${user.username}:${user.username}-password`,
      {
        uid: [user.username],
        displayName: [user.name],
        mail: [user.email],
        groups: [...user.groups],
      },
    ]),
  );
  await writeFile(
    join(dir, 'authsources.php'),
    `<?php
$config = ${php({ admin: ['core:AdminPassword'], 'example-userpass': { 0: 'exampleauth:UserPass', ...accounts } })};
`,
  );
  // The key pair in use is named by a plain file, read at every request: the
  // PHP metadata file itself may be served from PHP's opcode cache for a
  // moment after it changes (opcache.revalidate_freq), a plain file never is.
  const current = join(dir, 'cert', 'current');
  await writeFile(current, 'idp');
  await writeFile(
    join(dir, 'metadata', 'saml20-idp-hosted.php'),
    `<?php
$current = trim(file_get_contents(${php(current)}));
$metadata[${php(entityId)}] = ${php({
      host: '__DEFAULT__',
      auth: 'example-userpass',
      'attributes.NameFormat': 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
    })};
$metadata[${php(entityId)}]['privatekey'] = $current . '.key';
$metadata[${php(entityId)}]['certificate'] = $current . '.crt';
`,
  );
  let rolls = 0;
  const rollKey = async (): Promise<string> => {
    rolls += 1;
    const base = `idp-${rolls}`;
    await writeKeyPair(join(dir, 'cert'), base, `simplesamlphp-${rolls}.test`);
    await writeFile(current, base);
    return readFile(join(dir, 'cert', `${base}.crt`), 'utf8');
  };
  await writeFile(
    join(dir, 'metadata', 'saml20-sp-remote.php'),
    `<?php
${serviceProviders
  .map(
    (sp) =>
      `$metadata[${php(sp.entityId)}] = ${php({
        AssertionConsumerService: sp.acsUrl,
        NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
        'simplesaml.nameidattribute': 'uid',
        'simplesaml.attributes': true,
        'saml20.sign.assertion': sp.signAssertion ?? true,
        'saml20.sign.response': true,
        ...(sp.encryptionCertificate === undefined
          ? {}
          : {
              'assertion.encryption': true,
              certData: certData(sp.encryptionCertificate),
            }),
        // certData is the key of both uses (SimpleSAML\Configuration::getPublicKeys).
        ...(sp.signingCertificate === undefined
          ? {}
          : {
              certData: certData(sp.signingCertificate),
              'validate.authnrequest': true,
              'validate.logout': true,
            }),
        'sign.logout': sp.signLogout ?? true,
        ...(sp.logoutUrl === undefined
          ? {}
          : {
              SingleLogoutService: [
                {
                  Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
                  Location: sp.logoutUrl,
                },
              ],
            }),
      })};`,
  )
  .join('\n')}
`,
  );

  const server: ChildProcess = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', simpleSamlPhpWww], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: dir },
  });
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.once('error', (error) => (output += `${error.message}\n`));
  const exited = new Promise((resolve) => server.once('close', resolve));
  const log = async () =>
    `${output}${await readFile(join(dir, 'log', 'simplesamlphp.log'), 'utf8').catch(() => '')}`;
  const stop = async () => {
    if (server.pid !== undefined && server.exitCode === null && server.signalCode === null) {
      process.kill(server.pid, 'SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntil(
      async () => {
        // Its own metadata, which needs PHP's DOM (php-xml) as every SAML message does.
        const answered = await fetch(`http://127.0.0.1:${port}/saml2/idp/metadata.php`).then(
          async (response) => response.ok && (await response.text()).includes('EntityDescriptor'),
          () => false,
        );
        if (answered) return true;
        if (server.exitCode !== null || server.pid === undefined) throw new Error('exited');
        return false;
      },
      { message: 'SimpleSAMLphp to answer', timeoutMs: 15_000, intervalMs: 100 },
    );
  } catch {
    const said = await log();
    await stop();
    throw new Error(`SimpleSAMLphp did not start: ${said}`);
  }
  return {
    url,
    entityId,
    ssoUrl: `${url}/saml2/idp/SSOService.php`,
    certificate,
    rollKey,
    privateKey,
    metadataUrl: `${url}/saml2/idp/metadata.php`,
    sloUrl: `${url}/saml2/idp/SingleLogoutService.php`,
    idpLogoutUrl: (returnTo) =>
      `${url}/saml2/idp/initSLO.php?${new URLSearchParams({ RelayState: returnTo })}`,
    idpInitiatedUrl: (spEntityId) =>
      `${url}/saml2/idp/SSOService.php?${new URLSearchParams({ spentityid: spEntityId })}`,
    log,
    stop,
  };
}

/** The fields of the first form of an HTML page, and where it posts them. */
export function formOf(html: string): { action: string; fields: Record<string, string> } {
  const decode = (text: string) =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&#039;|&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (form === null) throw new Error(`no form in the page: ${html.slice(0, 2000)}`);
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input[^>]*>/gi)) {
    const tag = input[0];
    const name = /name="([^"]*)"/i.exec(tag)?.[1];
    const value = /value="([^"]*)"/i.exec(tag)?.[1] ?? '';
    if (name !== undefined) fields[decode(name)] = decode(value);
  }
  return { action: decode(form[1] ?? ''), fields };
}
