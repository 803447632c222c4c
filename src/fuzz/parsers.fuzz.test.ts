/**
 * Every parser a remote party or an administrator reaches returns, or throws
 * a coded error (SsogateError, its subclasses included), for any input; and
 * handles a hostile input of about 1 MB (deep nesting, one long token, many
 * parameters) in linear time, checked with a generous bound of seconds.
 * FUZZ_RUNS sets the runs per parser: 300 in the suite, 100000 for
 * `npm run fuzz` (docs/reliability.md).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isSsogateError } from '../core/index.js';
import { parserTargets } from './test-support/parser-properties.js';

const runs = Number(process.env.FUZZ_RUNS ?? '300');
const hostileSize = 1024 * 1024;
/** Far above what linear work on 1 MB takes, even on a loaded machine; quadratic work takes hours. */
const hostileBoundMs = 60_000;

async function onlyCodedErrors(run: () => unknown): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!isSsogateError(error))
      throw new Error(`threw an uncoded error: ${String(error)}`, { cause: error });
  }
}

describe('parsers under fuzzing', () => {
  for (const target of parserTargets) {
    test(`${target.name}: ${runs} random inputs, only coded errors`, async () => {
      await fc.assert(
        fc.asyncProperty(target.input, (input) => onlyCodedErrors(() => target.run(input))),
        { numRuns: runs },
      );
    });

    test(`${target.name}: hostile inputs of 1 MB (or the field's limit) in linear time`, async () => {
      for (const input of target.hostile(Math.min(hostileSize, target.inputLimit ?? hostileSize))) {
        const started = performance.now();
        await onlyCodedErrors(() => target.run(input));
        const took = performance.now() - started;
        assert.ok(took < hostileBoundMs, `${target.name} took ${Math.round(took)} ms on 1 MB`);
      }
    });
  }
});
