#!/usr/bin/env node
// The static checks of `pnpm test`, run side by side: `pnpm typecheck` is nine tsc projects and `pnpm lint` an
// ESLint pass with type information, each mostly one busy core, and run one after another they took ~100 s of a
// run on a 2-core machine. Here they share the cores (one task per core), each task's output is held until it
// ends, so a failure prints whole and unmixed, and the run fails if any task did.
//
//   node scripts/checks.mjs            typecheck, lint and the docs check (what `pnpm test` runs first)
//   node scripts/checks.mjs typecheck  the tsc projects only (`pnpm typecheck`)
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintTasks } from './lintTasks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules/.bin/tsc');
const node = process.execPath;

// Longest first, so the slow ones are not left to run alone at the end (measured without ESLint's cache, as in a
// fresh clone: ESLint ~50 s, tsc of the extension and of the CLI ~20 s each, each dead-export check ~7 s).
const typecheck = ['packages/extension', 'packages/cli', 'e2e', 'scripts/torture', 'scripts/bench', 'scripts', 'packages/native-host', 'packages/protocol', 'packages/host-files'].map(
  (project) => ({ name: `tsc -p ${project}`, command: tsc, args: ['-p', project] }),
);
const docs = { name: 'docs --check', command: node, args: ['scripts/gen-docs.mjs', '--check'] };

const which = process.argv[2];
if (which !== undefined && which !== 'typecheck') {
  console.error(`usage: node scripts/checks.mjs [typecheck]`);
  process.exit(2);
}
const [eslint, ...otherLint] = lintTasks;
const tasks = which === 'typecheck' ? typecheck : [eslint, ...typecheck, ...otherLint, docs];

/** Run one task to its end; its output, held. */
function run(task) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(task.command, task.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => resolve({ task, ok: code === 0, status: signal ?? code, ms: Date.now() - started, output: Buffer.concat(output).toString() }));
  });
}

const started = Date.now();
const queue = [...tasks];
const results = [];
async function worker() {
  for (let task = queue.shift(); task !== undefined; task = queue.shift()) {
    const result = await run(task);
    results.push(result);
    const text = result.output.trimEnd();
    console.error(`checks: ${result.ok ? 'ok' : `FAILED (${result.status})`} ${task.name} in ${(result.ms / 1000).toFixed(1)} s`);
    if (text !== '' && !result.ok) console.error(text);
  }
}
await Promise.all(Array.from({ length: Math.min(tasks.length, Math.max(2, availableParallelism())) }, worker));
const failed = results.filter((result) => !result.ok);
console.error(`checks: ${failed.length === 0 ? 'all passed' : `${failed.length} FAILED (${failed.map((result) => result.task.name).join(', ')})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed.length === 0 ? 0 : 1);
