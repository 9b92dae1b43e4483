/** What every phase gets: the seed's generator, the report, scratch space, and (live phases) the browser. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Relay } from '../../e2e/harness.js';
import type { Rng } from '@chrome-relay/protocol/src/testing/prng.js';
import type { Report } from './report.js';

export interface Suite {
  rng: Rng;
  report: Report;
  /** Scratch directory of this run (removed at the end). */
  scratch: string;
  /** Concurrent CLI processes where a phase runs many. */
  workers: number;
  log(line: string): void;
}

export interface LiveSuite extends Suite {
  relay: Relay;
  headless: boolean;
}

/** The live host of the relay: pid and socket, from its descriptor. */
export function liveHost(relay: Relay): { pid: number; socket: string } {
  const pid = relay.hostPid();
  const descriptor = JSON.parse(readFileSync(join(relay.home, 'run', `host-${pid}.json`), 'utf8')) as { socket: string };
  return { pid, socket: descriptor.socket };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Poll until `check` is truthy; the elapsed ms, or null at the deadline. */
export async function within(ms: number, check: () => Promise<boolean> | boolean, everyMs = 50): Promise<number | null> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) return null;
    await sleep(everyMs);
  }
}
