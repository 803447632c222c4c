/**
 * Imported first by main.ts, before any other module loads: starts this
 * process again, in its place, with V8's young generation capped at
 * `semiSpaceMiB` per semi-space (docs/benchmarks.md#the-young-generation)
 * and the C library's allocator at `mallocArenas` arenas (below).
 *
 * V8 sizes its young generation when the process starts and lets it grow
 * (to 64 MiB a semi-space on Node.js 24); the gateway's start-up allocations
 * grow it to 16 MiB and it never shrinks back, so an idle gateway holds
 * about 32 MiB of it, nearly all empty. v8.setFlagsFromString cannot change
 * the size once the heap exists, so the flag must be on the command line:
 * process.execve (Node.js 22.15 and 23.11 on) replaces the process with the
 * same one given the flag. The process id, the open descriptors and the
 * environment stay.
 *
 * 4 MiB, not less: at 1 MiB the checks fill the young generation every few
 * milliseconds, so what a sign-in keeps across its calls out survives its
 * collections and is promoted, three times as much per sign-in as at 4 MiB,
 * and the old generation swells with it (272 MiB of memory after 10,000
 * sign-ins against 171). 4 MiB costs an idle gateway 2 to 3 MiB more than
 * 1 MiB; 8 and 16 MiB cost 10 and 16 MiB more and saved nothing measured.
 *
 * The same start also gives the C library's allocator at most
 * `mallocArenas` arenas (`MALLOC_ARENA_MAX`, read by glibc when a process
 * starts; ignored elsewhere). By default glibc gives each thread that
 * allocates an arena of its own, up to eight per core: libuv's thread
 * pool, V8's helper threads and SQLite's checkpoint thread each hold pages
 * of one that are seldom given back, 62 MiB more after 100,000 sign-ins
 * than with two (docs/benchmarks.md#the-c-librarys-arenas). The event loop
 * allocates nearly everything, so two arenas leave it nothing to wait for.
 *
 * Nothing is done for a setting the command line, NODE_OPTIONS or the
 * environment already gives (an operator's own choice, and every worker of
 * SSOGATE_WORKERS, which inherits the primary's flags and environment), or
 * when process.execve is missing.
 */
const semiSpaceMiB = 4;
const flag = '--max-semi-space-size';
const mallocArenas = '2';

const semiSpaceSet =
  process.execArgv.some((argument) => argument.startsWith(flag)) ||
  (process.env.NODE_OPTIONS ?? '').includes(flag);
const arenasSet = process.env.MALLOC_ARENA_MAX !== undefined;

if ((!semiSpaceSet || !arenasSet) && typeof process.execve === 'function') {
  process.execve(
    process.execPath,
    [
      process.execPath,
      ...(semiSpaceSet ? [] : [`${flag}=${semiSpaceMiB}`]),
      ...process.execArgv,
      ...process.argv.slice(1),
    ],
    arenasSet ? process.env : { ...process.env, MALLOC_ARENA_MAX: mallocArenas },
  );
}

export {};
