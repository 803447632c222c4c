import { readFileSync } from 'node:fs';

/** Clock ticks a second of /proc/PID/stat's times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/**
 * CPU milliseconds (user + system) a process has used so far, from
 * /proc/PID/stat: a figure that moves far less with other work on a busy
 * machine than requests per second do.
 */
export function cpuMs(pid: number): number {
  // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1000;
}
