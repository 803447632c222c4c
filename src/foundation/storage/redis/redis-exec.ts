import type { ChainableCommander } from 'ioredis';

/**
 * Runs a MULTI and returns each command's reply. ioredis reports a failed
 * command inside EXEC as an [error, reply] pair rather than a rejection, and
 * resolves null when EXEC was aborted; both become a thrown error here.
 */
export async function execOrThrow(multi: ChainableCommander): Promise<unknown[]> {
  const results = await multi.exec();
  if (results === null) throw new Error('Redis transaction aborted');
  return results.map(([error, reply]) => {
    if (error !== null) throw error;
    return reply;
  });
}
