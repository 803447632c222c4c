#!/usr/bin/env node
// The only static import: an older Node.js is told which versions to use,
// before the SQLite addon could crash it without a word (app/node-support.ts).
import { exitUnlessNodeSupported } from '../app/node-support.js';

exitUnlessNodeSupported();
const { runCli } = await import('./run-cli.js');
// The command's logic lives in run-cli.ts, so tests call it without a process.
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
});
