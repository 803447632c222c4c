import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { waitUntil } from './wait-until.js';

describe('waitUntil', () => {
  test('returns the first truthy answer, sync or async', async () => {
    let asks = 0;
    const found = await waitUntil(
      () => {
        asks += 1;
        return asks === 3 ? { asks } : undefined;
      },
      { message: 'the third ask', intervalMs: 1 },
    );
    assert.deepEqual(found, { asks: 3 });
    assert.equal(await waitUntil(() => Promise.resolve('now'), { message: 'an answer' }), 'now');
  });

  test('fails at the deadline, naming what it awaited and the last answer', async () => {
    let asks = 0;
    const started = performance.now();
    await assert.rejects(
      waitUntil(
        () => {
          asks += 1;
          return asks > 1000 ? 'never' : 0;
        },
        { message: 'the count to pass 1000', timeoutMs: 100, intervalMs: 10 },
      ),
      {
        message: 'timed out after 100 ms waiting for the count to pass 1000; the last answer was 0',
      },
    );
    assert.ok(performance.now() - started >= 95);
    // Asked again after the last pause, at the deadline.
    assert.ok(asks >= 2 && asks <= 12, `${asks} asks`);
  });

  test('a message given as a function is read at the failure', async () => {
    const seen: string[] = [];
    await assert.rejects(
      waitUntil(
        () => {
          seen.push('x');
          return false;
        },
        { message: () => `a y among ${seen.join('')}`, timeoutMs: 30, intervalMs: 10 },
      ),
      /waiting for a y among x+; the last answer was false$/,
    );
  });

  test('an error the condition throws ends the wait at once', async () => {
    const started = performance.now();
    await assert.rejects(
      waitUntil(
        () => {
          throw new Error('the process exited');
        },
        { message: 'the process to listen', timeoutMs: 10_000 },
      ),
      { message: 'the process exited' },
    );
    assert.ok(performance.now() - started < 1000);
  });
});
