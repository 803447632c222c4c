import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../main.js', import.meta.url));
/** Prints, as the process ends, the flags it ended with, its process id and its arenas' setting. */
const report = `data:text/javascript,process.on('exit',()=>process.stderr.write(JSON.stringify({flags:process.execArgv,pid:process.pid,arenas:process.env.MALLOC_ARENA_MAX})+'\\n'))`;

async function ended(
  flags: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ flags: string[]; pid: number; arenas?: string; help: string; reports: number }> {
  const inherited = { ...process.env };
  delete inherited.MALLOC_ARENA_MAX;
  const { stdout, stderr } = await run(
    process.execPath,
    [...flags, '--import', report, main, '--help'],
    { env: { ...inherited, NODE_OPTIONS: '', ...env } },
  );
  const lines = stderr.split('\n').filter((line) => line.startsWith('{'));
  const last = JSON.parse(lines.at(-1) ?? '{}') as {
    flags: string[];
    pid: number;
    arenas?: string;
  };
  return { ...last, help: stdout, reports: lines.length };
}

const skip =
  typeof process.execve === 'function' ? false : 'process.execve needs Node.js 22.15 or 23.11';

test(
  'the gateway starts itself again with a young generation of 4 MiB a semi-space',
  { skip },
  async () => {
    const { flags, arenas, help, reports } = await ended([]);
    assert.equal(flags[0], '--max-semi-space-size=4');
    assert.equal(arenas, '2', "and the C library's allocator with two arenas");
    assert.ok(flags.includes('--import'), 'the flags it was given are kept');
    assert.equal(reports, 1, 'replaced, not run twice: only one process ended');
    assert.match(help, /ssogate/);
  },
);

test(
  "an operator's own size is kept, on the command line or in NODE_OPTIONS",
  { skip },
  async () => {
    assert.deepEqual((await ended(['--max-semi-space-size=8'])).flags, [
      '--max-semi-space-size=8',
      '--import',
      report,
    ]);
    const { flags } = await ended([], { NODE_OPTIONS: '--max-semi-space-size=8' });
    assert.deepEqual(flags, ['--import', report]);
  },
);

test(
  "an operator's own arenas are kept, and the young generation still capped",
  { skip },
  async () => {
    const { flags, arenas, reports } = await ended([], { MALLOC_ARENA_MAX: '8' });
    assert.equal(arenas, '8');
    assert.equal(flags[0], '--max-semi-space-size=4');
    assert.equal(reports, 1);
    const both = await ended(['--max-semi-space-size=8'], { MALLOC_ARENA_MAX: '8' });
    assert.deepEqual([both.flags[0], both.arenas], ['--max-semi-space-size=8', '8']);
  },
);
