/**
 * The servers of a PostgreSQL URL, several in libpq's own spelling
 * (https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-MULTIPLE-HOSTS):
 * `postgres://user@db1:5432,db2:5432/ssogate?target_session_attrs=read-write`.
 * node-postgres reads one host only, so each server gets a URL of its own,
 * everything else kept as written.
 */
interface PostgresHosts {
  /** One URL per server, in the order written: the order they are tried in. */
  readonly urls: readonly string[];
  /**
   * Whether a server must take writes to be used (libpq's
   * target_session_attrs=read-write): asked for, or implied by several
   * servers, of which the gateway must find the primary.
   */
  readonly readWrite: boolean;
}

/** libpq's values that ask for the primary; `any` keeps the first that answers. */
const readWriteValues = new Set(['read-write', 'primary']);
const knownValues = new Set([...readWriteValues, 'any']);

export function postgresHosts(url: string): PostgresHosts {
  const match = /^(postgres(?:ql)?:\/\/)((?:[^@/?#]*@)?)([^/?#]*)(.*)$/s.exec(url);
  if (match === null) throw new Error('a PostgreSQL URL must start with postgres://');
  const [, scheme = '', credentials = '', hostList = '', rest = ''] = match;
  const hosts = hostList.split(',');
  if (hosts.some((host) => host === ''))
    throw new Error('a PostgreSQL URL lists an empty server between its commas');
  const { tail, targetSessionAttrs } = withoutTargetSessionAttrs(rest);
  if (targetSessionAttrs !== undefined && !knownValues.has(targetSessionAttrs))
    throw new Error(
      `target_session_attrs=${targetSessionAttrs} is not supported: read-write, primary or any`,
    );
  return {
    urls: hosts.map((host) => `${scheme}${credentials}${host}${tail}`),
    readWrite:
      targetSessionAttrs === undefined ? hosts.length > 1 : readWriteValues.has(targetSessionAttrs),
  };
}

/** The path and query of a URL without target_session_attrs, which node-postgres does not know. */
function withoutTargetSessionAttrs(rest: string): {
  tail: string;
  targetSessionAttrs: string | undefined;
} {
  const queryAt = rest.indexOf('?');
  if (queryAt < 0) return { tail: rest, targetSessionAttrs: undefined };
  const params = new URLSearchParams(rest.slice(queryAt + 1));
  const targetSessionAttrs = params.get('target_session_attrs') ?? undefined;
  // Kept byte for byte when absent: re-encoding could change other values.
  if (targetSessionAttrs === undefined) return { tail: rest, targetSessionAttrs };
  params.delete('target_session_attrs');
  const query = params.toString();
  return {
    tail: `${rest.slice(0, queryAt)}${query === '' ? '' : `?${query}`}`,
    targetSessionAttrs,
  };
}
