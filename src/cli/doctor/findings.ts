/**
 * What `ssogate doctor` reports: one finding per thing checked, each problem
 * with a stable code (docs/doctor.md lists every one; a test compares the two)
 * and the fix an operator would type or change.
 */
type FindingStatus = 'ok' | 'warn' | 'fail';

export interface Finding {
  readonly status: FindingStatus;
  /** The area checked: configuration, database, data folder, an entry's origin... */
  readonly check: string;
  /** What was checked within it: a setting, a path, an origin. */
  readonly subject: string;
  /** Set on every warning and failure; absent on a pass. */
  readonly code?: DoctorCode;
  readonly detail: string;
  /** How to put it right; set on every warning and failure. */
  readonly fix?: string;
}

/** Every code the doctor reports, with whether it fails the run or warns. */
export const doctorCodes = {
  config_invalid: 'fail',
  database_unreachable: 'fail',
  database_not_migrated: 'fail',
  database_newer: 'fail',
  database_in_memory: 'warn',
  redis_unreachable: 'fail',
  data_dir_missing: 'warn',
  data_dir_exposed: 'fail',
  data_dir_not_writable: 'fail',
  secret_key_not_shared: 'warn',
  public_url_unset: 'warn',
  public_url_insecure: 'fail',
  public_url_http: 'warn',
  trusted_proxies_unset: 'warn',
  host_port_missing: 'warn',
  entry_unreadable: 'fail',
  insecure_http_refused: 'fail',
  dns_unresolved: 'fail',
  address_refused: 'fail',
  connect_failed: 'fail',
  tls_certificate_invalid: 'fail',
  tls_certificate_expiring: 'warn',
  discovery_failed: 'fail',
  key_set_failed: 'fail',
  clock_skew: 'warn',
} as const satisfies Record<string, Exclude<FindingStatus, 'ok'>>;

type DoctorCode = keyof typeof doctorCodes;

export function passed(check: string, subject: string, detail: string): Finding {
  return { status: 'ok', check, subject, detail };
}

/** A problem; whether it fails or warns is the code's, so the docs can say it once. */
export function problem(
  code: DoctorCode,
  check: string,
  subject: string,
  detail: string,
  fix: string,
): Finding {
  return { status: doctorCodes[code], check, subject, code, detail, fix };
}

/** The message of an error and of its causes, which name the socket-level reason. */
export function reasonOf(error: unknown): string {
  const parts: string[] = [];
  for (let at: unknown = error; at instanceof Error && parts.length < 4; at = at.cause) {
    const code = (at as NodeJS.ErrnoException).code;
    const text = at.message !== '' ? at.message : (code ?? at.name);
    if (!parts.some((part) => part.includes(text))) parts.push(text);
  }
  return parts.length === 0 ? String(error) : parts.join(': ');
}
