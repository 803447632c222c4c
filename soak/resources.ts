import { readFile, readdir } from 'node:fs/promises';
import type { GatewayInstance } from './processes.js';

/** One reading of an instance's memory and open file descriptors (Linux /proc). */
export interface ResourceSample {
  readonly at: number;
  readonly instance: string;
  readonly pid: number;
  readonly rssKb: number;
  readonly openFds: number;
}

async function sample(instance: GatewayInstance): Promise<ResourceSample | undefined> {
  const pid = instance.pid;
  if (pid === undefined) return undefined;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN);
    const openFds = (await readdir(`/proc/${pid}/fd`)).length;
    return { at: Date.now(), instance: instance.name, pid, rssKb, openFds };
  } catch {
    // The process ended between the check and the read (a kill under way).
    return undefined;
  }
}

/** Samples every instance every `everyMs` until stopped. */
export function sampleResources(
  instances: readonly GatewayInstance[],
  everyMs: number,
): { readonly samples: ResourceSample[]; stop(): Promise<void> } {
  const samples: ResourceSample[] = [];
  const state = { running: true };
  const loop = (async () => {
    while (state.running) {
      for (const instance of instances) {
        const reading = await sample(instance);
        if (reading !== undefined) samples.push(reading);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    samples,
    async stop() {
      state.running = false;
      await loop;
    },
  };
}
