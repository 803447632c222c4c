/**
 * Whether an error means PostgreSQL or Redis cannot be reached right now, as
 * opposed to a bug or a bad request: such failures become 503
 * service_unavailable (try again later), not 500. Drivers wrap the socket
 * error in various ways, so the cause chain and AggregateError members are
 * searched too.
 */
export function isBackendUnavailable(error: unknown): boolean {
  return search(error, 0, new Set());
}

/** Node system error codes of a socket or DNS lookup that failed. */
const systemCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLSTATE: the server is shutting down or cannot accept connections now
 * (57P01-57P03), or is a standby, or a primary demoted to one, that takes
 * no writes (25006 read_only_sql_transaction): the primary is elsewhere or
 * being switched (postgres/failover-pool.ts).
 */
const sqlStates = new Set(['57P01', '57P02', '57P03', '25006']);

/** Messages of pg's pool/client and ioredis when the connection is gone. */
const messagePatterns = [
  /^Connection terminated/, // pg: "Connection terminated unexpectedly", "... due to connection timeout"
  /timeout exceeded when trying to connect/, // pg-pool connectionTimeoutMillis
  /Client has encountered a connection error/, // pg: a client reused after its socket broke
  /^Connection is closed/, // ioredis
  /^Stream isn't writeable/, // ioredis with enableOfflineQueue: false
  /^Command timed out/, // ioredis commandTimeout
  /^Reached the max retries per request limit/, // ioredis MaxRetriesPerRequestError
  // A write that reached a replica: the master it was sent to has just been
  // demoted by the Sentinels (the connection then finds the new one), and
  // Redis's own refusal with min-replicas-to-write while no replica answers.
  /^READONLY /,
  /^NOREPLICAS /,
];

const maxDepth = 8;

function search(error: unknown, depth: number, seen: Set<unknown>): boolean {
  if (typeof error !== 'object' || error === null || depth > maxDepth || seen.has(error)) {
    return false;
  }
  seen.add(error);
  if (matches(error)) return true;
  // ioredis: a MULTI whose commands Redis refused (NOREPLICAS, READONLY)
  // fails as EXECABORT, the refusals in previousErrors.
  const { cause, errors, previousErrors } = error as {
    cause?: unknown;
    errors?: unknown;
    previousErrors?: unknown;
  };
  if (search(cause, depth + 1, seen)) return true;
  return [errors, previousErrors].some(
    (list) => Array.isArray(list) && list.some((inner) => search(inner, depth + 1, seen)),
  );
}

function matches(error: object): boolean {
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (systemCodes.has(code)) return true;
    // pg gives SQLSTATE in `code`; class 08 is "connection exception".
    if (/^[0-9A-Z]{5}$/.test(code) && (code.startsWith('08') || sqlStates.has(code))) return true;
  }
  if (name === 'MaxRetriesPerRequestError') return true;
  // A Redis write no replica confirmed in time: it may not survive a
  // failover, so not a success (redis/replica-confirmed-writes.ts).
  if (name === 'ReplicaUnconfirmedError') return true;
  return typeof message === 'string' && messagePatterns.some((pattern) => pattern.test(message));
}
