import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { loggerOptions } from '../foundation/logging/logger.js';

/** A logger with the gateway's options whose lines a test can read back. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: pino(loggerOptions('debug'), stream), lines };
}
