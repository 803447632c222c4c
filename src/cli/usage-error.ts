/** Thrown for a command line that does not parse: exit code 2 with the usage (run-cli.ts). */
export class UsageError extends Error {}
