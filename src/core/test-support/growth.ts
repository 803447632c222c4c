import assert from 'node:assert/strict';

/**
 * Checks that `work(size)` grows about linearly: the input is made eight
 * times longer and the time may grow by at most `factor` (eight for linear
 * work, sixty-four for quadratic). Times are compared with each other, never
 * with a fixed figure, and each is the best of a few runs, so a busy machine
 * slows both sides alike instead of failing the check.
 */
export function assertLinearGrowth(
  label: string,
  work: (size: number) => unknown,
  size = 16 * 1024,
  factor = 24,
): void {
  const best = (n: number): number => {
    let fastest = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 3; round += 1) {
      const started = performance.now();
      work(n);
      fastest = Math.min(fastest, performance.now() - started);
    }
    return fastest;
  };
  best(size); // warm-up, so compiling the code is not counted as the small size's work
  const small = Math.max(best(size), 0.5);
  const large = best(8 * size);
  assert.ok(
    large < small * factor,
    `${label}: 8x the input took ${(large / small).toFixed(1)}x the time (${small.toFixed(1)} ms, ${large.toFixed(1)} ms)`,
  );
}

/** `unit` repeated to about `size` characters. */
export const repeatTo = (unit: string, size: number): string =>
  unit.repeat(Math.max(1, Math.floor(size / unit.length)));
