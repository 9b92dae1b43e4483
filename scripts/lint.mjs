#!/usr/bin/env node
// `pnpm lint`: ESLint, then the dead-export checks (scripts/lintTasks.mjs says what each is), one after another.
// `pnpm test` runs the same tasks side by side with the typecheck (scripts/checks.mjs).
import { spawnSync } from 'node:child_process';
import { lintTasks, repoRoot } from './lintTasks.mjs';

const started = Date.now();
let failed = false;
for (const task of lintTasks) failed ||= (spawnSync(task.command, task.args, { cwd: repoRoot, stdio: 'inherit' }).status ?? 1) !== 0;
console.error(`lint: ${failed ? 'FAILED' : 'clean'} in ${Date.now() - started} ms`);
process.exit(failed ? 1 : 0);
