import assert from 'node:assert/strict';

/**
 * Checks that `work(size)` grows about linearly: the input is made sixteen
 * times longer and the work may grow by at most `factor`. Linear work grows
 * sixteen times in principle, but more once its data outgrows the
 * processor's caches: from 32 KiB to 512 KiB, up to 85 times was measured
 * on one machine, with another process thrashing the caches beside it.
 * Quadratic work grows 256 times (272 measured for a scan that searches the
 * rest of the text again from every `${`), so the bound is 128, half-way
 * in ratio. Smaller sizes stay in the caches but hide such a scan: the
 * search runs at memory speed and is a small part of the work on a short
 * input. The work is measured as this process's CPU time, not time on the
 * clock, so waiting for a busy machine's cores does not count; each size
 * runs as many times as fills `minMs` of CPU time, and its time per call is
 * the best of several rounds, measured in turn, so a collection or a burst
 * of other work on one round does not decide. Nothing is compared with a
 * fixed figure.
 */
export function assertLinearGrowth(
  label: string,
  work: (size: number) => unknown,
  size = 32 * 1024,
  factor = 128,
  minMs = 10,
): void {
  const msPerCall = (n: number): number => {
    const started = process.cpuUsage();
    const spentMs = (): number => {
      const { user, system } = process.cpuUsage(started);
      return (user + system) / 1000;
    };
    let calls = 0;
    do {
      work(n);
      calls += 1;
    } while (spentMs() < minMs);
    return spentMs() / calls;
  };
  msPerCall(size); // warm-up, so compiling the code is not counted as the small size's work
  let small = Number.POSITIVE_INFINITY;
  let large = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round += 1) {
    small = Math.min(small, msPerCall(size));
    large = Math.min(large, msPerCall(16 * size));
  }
  assert.ok(
    large < small * factor,
    `${label}: 16x the input took ${(large / small).toFixed(1)}x the CPU time (${small.toFixed(3)} ms, ${large.toFixed(3)} ms a call)`,
  );
}

/** `unit` repeated to about `size` characters. */
export const repeatTo = (unit: string, size: number): string =>
  unit.repeat(Math.max(1, Math.floor(size / unit.length)));
