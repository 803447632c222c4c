/**
 * Imported first by main.ts, before any other module loads: starts this
 * process again, in its place, with V8's young generation capped at
 * `semiSpaceMiB` per semi-space (docs/benchmarks.md#memory).
 *
 * V8 sizes its young generation when the process starts and lets it grow to
 * 16 MiB per semi-space; the gateway's start-up allocations grow it that far
 * and it never shrinks back, so an idle gateway holds about 32 MiB of it,
 * nearly all empty. v8.setFlagsFromString cannot change the size once the
 * heap exists, so the flag must be on the command line: process.execve
 * (Node.js 22.15 and 23.11 on) replaces the process with the same one given
 * the flag. The process id, the open descriptors and the environment stay.
 *
 * Nothing is done when the command line or NODE_OPTIONS already sets the
 * size (an operator's own choice, and every worker of SSOGATE_WORKERS,
 * which inherits the primary's flags), or when process.execve is missing.
 */
const semiSpaceMiB = 1;
const flag = '--max-semi-space-size';

const alreadySet =
  process.execArgv.some((argument) => argument.startsWith(flag)) ||
  (process.env.NODE_OPTIONS ?? '').includes(flag);

if (!alreadySet && typeof process.execve === 'function') {
  process.execve(
    process.execPath,
    [process.execPath, `${flag}=${semiSpaceMiB}`, ...process.execArgv, ...process.argv.slice(1)],
    process.env,
  );
}

export {};
