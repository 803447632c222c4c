#!/usr/bin/env node
import { runCli } from './run-cli.js';

// The command's logic lives in run-cli.ts, so tests call it without a process.
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
});
