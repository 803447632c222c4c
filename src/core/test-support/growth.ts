import assert from 'node:assert/strict';

/**
 * Checks that `work(size)` grows about linearly: the input is made eight
 * times longer and the work may grow by at most `factor` (eight for linear
 * work, sixty-four for quadratic). The work is measured as this process's
 * CPU time, not time on the clock, so waiting for a busy machine's cores
 * does not count; the two sizes are measured in turn, and each keeps its
 * best of several rounds, so a collection or a burst of other work on one
 * round does not decide. Nothing is compared with a fixed figure.
 */
export function assertLinearGrowth(
  label: string,
  work: (size: number) => unknown,
  size = 32 * 1024,
  factor = 24,
): void {
  const cpuMs = (n: number): number => {
    const started = process.cpuUsage();
    work(n);
    const { user, system } = process.cpuUsage(started);
    return (user + system) / 1000;
  };
  cpuMs(size); // warm-up, so compiling the code is not counted as the small size's work
  let small = Number.POSITIVE_INFINITY;
  let large = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round += 1) {
    small = Math.min(small, cpuMs(size));
    large = Math.min(large, cpuMs(8 * size));
  }
  // Below a millisecond the clock's grain and fixed costs dominate.
  small = Math.max(small, 1);
  assert.ok(
    large < small * factor,
    `${label}: 8x the input took ${(large / small).toFixed(1)}x the CPU time (${small.toFixed(1)} ms, ${large.toFixed(1)} ms)`,
  );
}

/** `unit` repeated to about `size` characters. */
export const repeatTo = (unit: string, size: number): string =>
  unit.repeat(Math.max(1, Math.floor(size / unit.length)));
