import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../../foundation/config/load-config.js';
import { ConfigError, loadConfig } from '../../foundation/config/load-config.js';
import { demoSettingsFile, readDemoSettings } from '../../foundation/config/demo-settings.js';
import { entryFindings } from './entry-checks.js';
import type { Finding } from './findings.js';
import { passed, problem } from './findings.js';
import {
  dataFolderFindings,
  publicUrlFindings,
  secretKeyFindings,
  servedHostFindings,
} from './local-checks.js';
import { findingsJson, findingsTable } from './report.js';
import { databaseFindings, redisFindings } from './storage-checks.js';

const doctorUsage = `Usage: ssogate doctor [--json]

Checks what an operator checks by hand before and after a start, with the
configuration the gateway would read (the environment, SSOGATE_CONFIG_FILE):

  configuration   every problem at once
  database        reachable and migrated (read only); Redis when configured
  data folder     exists, writable, nothing in it readable by group or others
  public URL      https (cookies Secure), or http only with
                  SSOGATE_ALLOW_INSECURE_HTTP; proxies trusted behind TLS
  secret key      shared by every instance on PostgreSQL
  entries         for every enabled entry, each origin it calls: DNS, the
                  outbound address policy, TCP and TLS (chain, days to
                  expiry); for OpenID Connect the discovery document, the
                  key set and the clock against the provider's Date header

Each problem has a code and a fix (docs/doctor.md). Exit status: 0 when
every check passed, 1 on any warning or failure, 2 on a wrong command line.

  --json    the findings as JSON: {"ok": boolean, "findings": [...]}
  --help    this text
`;

interface DoctorIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env?: NodeJS.ProcessEnv;
}

/** `ssogate doctor`: runs every check, prints them, returns the exit status. */
export async function runDoctor(argv: readonly string[], io: DoctorIo): Promise<number> {
  let json: boolean;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help === true) {
      io.stdout.write(doctorUsage);
      return 0;
    }
    if (positionals.length > 0) throw new TypeError(`unexpected "${positionals.join(' ')}"`);
    json = values.json === true;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    io.stderr.write(`ssogate doctor: ${error.message}\n\n${doctorUsage}`);
    return 2;
  }
  const env = io.env ?? process.env;
  const findings = await diagnose(env);
  io.stdout.write(json ? findingsJson(findings) : findingsTable(findings));
  return findings.every((finding) => finding.status === 'ok') ? 0 : 1;
}

/** Every finding, in the order an operator would look: settings, storage, network. */
async function diagnose(env: NodeJS.ProcessEnv): Promise<Finding[]> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Nothing else can be checked without a configuration: each problem is a row.
    return error.problems.map((text) => {
      const variable = /^([A-Z_]+):/.exec(text)?.[1] ?? 'configuration';
      return problem(
        'config_invalid',
        'configuration',
        variable,
        text.slice(variable.length + 1).trim() || text,
        'correct the setting as the message says (docs/configuration.md)',
      );
    });
  }
  const findings: Finding[] = [passed('configuration', 'settings', 'valid')];
  // The demo's folder: its entries are judged with the allowance the demo runs with.
  const demo = await readDemoSettings(config.dataDir);
  const added = Object.entries(demo ?? {}).filter(([name]) => env[name] === undefined);
  if (added.length > 0) {
    config = loadConfig({ ...Object.fromEntries(added), ...env });
    findings.push(
      passed(
        'configuration',
        join(config.dataDir, demoSettingsFile),
        `the demo's own settings applied: ${added.map(([name, value]) => `${name}=${value}`).join(', ')}`,
      ),
    );
  }
  findings.push(...publicUrlFindings(config, env));
  findings.push(...servedHostFindings(config));
  findings.push(...secretKeyFindings(config));
  // Before the database: opening it never changes the folder, but the gateway's start would tighten it.
  findings.push(...(await dataFolderFindings(config)));
  const database = await databaseFindings(config);
  findings.push(...database.findings);
  findings.push(...(await redisFindings(config)));
  if (database.entries !== undefined) {
    if (database.entries.length === 0) findings.push(passed('entries', 'database', 'no entry yet'));
    findings.push(...(await entryFindings(config, database.entries)));
  }
  return findings;
}
