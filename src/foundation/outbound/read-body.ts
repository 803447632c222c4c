import type { Readable } from 'node:stream';
import { SsogateError } from '../../core/index.js';

/**
 * Reads a response body up to `maxBytes`, counting bytes as chunks arrive.
 * The moment the cap is passed the stream is destroyed, so a huge or endless
 * body costs at most one chunk beyond the cap and never the whole of it.
 */
export async function readCappedBody(
  body: Readable,
  maxBytes: number,
  call: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      total += bytes.length;
      if (total > maxBytes) throw tooLarge(call, maxBytes);
      chunks.push(bytes);
    }
  } finally {
    // Iteration ends the stream on success; on any failure the socket must
    // not stay busy with a body nobody reads.
    if (!body.readableEnded) body.destroy();
  }
  // TextDecoder replaces invalid sequences and drops a leading BOM, so a
  // JSON body with a BOM still parses.
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks, total));
}

export function tooLarge(call: string, maxBytes: number): SsogateError {
  return new SsogateError(
    'outbound_too_large',
    `${call}: the response body exceeds the limit of ${maxBytes} bytes`,
  );
}
