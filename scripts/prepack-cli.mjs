#!/usr/bin/env node
// `pnpm pack` / `npm publish` of packages/cli run this first. The published package is self-contained:
// the CLI, host and extension are esbuild bundles (commander, zod and the protocol inside them, so the
// package has no runtime dependencies to fetch), plus the README, LICENSE and agent playbook copied from
// the repository root (the copies are git-ignored; the root files are the source).
import { copyFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'packages/cli');
execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
for (const file of ['README.md', 'LICENSE', 'SKILL.md']) copyFileSync(join(root, file), join(cli, file));
