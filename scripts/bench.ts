/**
 * Performance baseline, measured in one run on this machine (ratios matter; absolute numbers are noisy).
 *   node scripts/run-ts.mjs scripts/bench.ts [runs=20]
 * Prints medians of: `node -e 0`, `chrome-relay --version` (CLI start cost), `tabs`, `click @ref`, `hover @ref`,
 * `snapshot` on a 1,500-row page, and the agent loop open → snapshot → click → snapshot on that page.
 */
import { execFile } from 'node:child_process';
import { CLI, startRelay, type Relay } from '../e2e/harness.js';

const runs = Number(process.argv[2] ?? '20');

function time(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, maxBuffer: 64 * 1024 * 1024 }, (err, _stdout, stderr) => {
      if (err) reject(new Error(`${args.join(' ')} failed: ${stderr}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

async function sample(label: string, fn: () => Promise<number>): Promise<number> {
  await fn(); // warm-up: page caches, first attach
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) xs.push(await fn());
  const m = median(xs);
  console.log(`${label.padEnd(44)} median ${m.toFixed(1).padStart(8)} ms   (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)}, n=${runs})`);
  return m;
}

const relay: Relay = await startRelay({ headless: process.env.BENCH_HEADFUL !== '1' });
try {
  const env = relay.env;
  const cli = (...args: string[]) => time(process.execPath, [CLI, ...args], env);
  const node0 = await sample('node -e 0', () => time(process.execPath, ['-e', '0'], env));
  const version = await sample('chrome-relay --version (no I/O)', () => cli('--version'));
  const tabs = await sample('chrome-relay tabs', () => cli('tabs'));

  const nav = (await relay.cli('navigate', relay.server.url('/rows?n=1500'))).json as { tabId: number };
  const tab = String(nav.tabId);
  const navigate = await sample('chrome-relay navigate --tab (1,500 rows, load)', () => cli('navigate', relay.server.url('/rows?n=1500'), '--tab', tab));
  // Navigation killed earlier refs: take the click target from a snapshot of the final document.
  const refreshed = (await relay.cli('snapshot', '--tab', tab)).stdout;
  const openRef = /button "Open" \[ref=(e\d+)\]/.exec(refreshed)?.[1];
  if (!openRef) throw new Error('no Open button ref');
  const snapshot = await sample('chrome-relay snapshot (1,500 rows)', () => cli('snapshot', '--tab', tab));
  const click = await sample('chrome-relay click @ref (1,500 rows)', () => cli('click', `@${openRef}`));
  const hover = await sample('chrome-relay hover @ref (1,500 rows)', () => cli('hover', `@${openRef}`));
  const loop = await sample('loop: navigate → snapshot → click → snapshot', async () => {
    const started = process.hrtime.bigint();
    const opened = (await relay.cli('navigate', relay.server.url('/rows?n=1500'), '--tab', tab)).json as { tabId: number };
    const text = (await relay.cli('snapshot', '--tab', String(opened.tabId))).stdout;
    const r = /button "Open" \[ref=(e\d+)\]/.exec(text)?.[1];
    if (!r) throw new Error('no ref in loop');
    await relay.cli('click', `@${r}`);
    await relay.cli('snapshot', '--tab', String(opened.tabId));
    return Number(process.hrtime.bigint() - started) / 1e6;
  });
  console.log('\nratios (same run):');
  console.log(`  --version / node -e 0 = ${(version / node0).toFixed(2)}×   (goal ≤ 1.15×)`);
  console.log(`  tabs / node -e 0      = ${(tabs / node0).toFixed(2)}×   (goal ≤ 1.3×)`);
  console.log(`  click / node -e 0     = ${(click / node0).toFixed(2)}×`);
  console.log(`  hover / click         = ${(hover / click).toFixed(2)}×   (goal ≤ 1.1×)`);
  console.log(`  snapshot 1,500 rows   = ${snapshot.toFixed(0)} ms; navigate = ${navigate.toFixed(0)} ms; loop = ${loop.toFixed(0)} ms (agent-browser ≈ 1,500 ms; goal ≤ 750 ms)`);
} finally {
  await relay.stop();
}
