import type { CliIo } from '../run-cli.js';
import { runCli } from '../run-cli.js';

/** Runs the command with a frozen clock, capturing what it prints. */
export async function runCommand(
  argv: string[],
  io: Partial<CliIo> = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    clock: () => Date.parse('2024-05-01T12:00:00Z'),
    ...io,
  });
  return { code, out, err };
}
