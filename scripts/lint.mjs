#!/usr/bin/env node
// `pnpm lint` (and `pnpm test`): ESLint with typescript-eslint and the package boundaries (eslint.config.js),
// then dead exports (ts-unused-exports over tsconfig.exports.json, which sees every package, the tests, e2e and
// scripts at once; types are left alone):
// - everywhere: an export no module uses — not even its own file — is dead code;
// - in the CLI and host-files: an export no other module imports is not an export (strict; the other packages
//   are held to it as they are next reworked).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules/.bin', name);
const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

const started = Date.now();
let failed = run(bin('eslint'), ['--cache', '--cache-location', 'node_modules/.cache/eslint/', 'packages']);
// Entry points, and what packages/cli/build.mjs's generated stand-ins import (fast/schemas.ts).
const entries = ['packages/cli/src/main.ts', 'packages/cli/src/fast/main.ts', 'packages/cli/src/fast/schemas.ts', 'packages/native-host/src/main.ts', 'packages/extension/src/background.ts', 'scripts/bench.ts'];
failed ||= run(bin('ts-unused-exports'), ['tsconfig.exports.json', '--allowUnusedTypes', '--ignoreLocallyUsed', `--excludePathsFromReport=${entries.join(';')}`]);
const lenientYet = ['packages/extension', 'packages/native-host', 'packages/protocol', 'e2e', 'scripts'];
failed ||= run(bin('ts-unused-exports'), ['tsconfig.exports.json', '--allowUnusedTypes', `--excludePathsFromReport=${[...entries, ...lenientYet].join(';')}`]);
console.error(`lint: ${failed ? 'FAILED' : 'clean'} in ${Date.now() - started} ms`);
process.exit(failed ? 1 : 0);
