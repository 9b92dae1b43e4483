// What `pnpm lint` runs, as data: scripts/lint.mjs runs the tasks one after another, scripts/checks.mjs side by side
// with the typecheck (each is one busy core; ESLint with type information is the longest task of the checks).
// - ESLint with typescript-eslint and the package boundaries (eslint.config.js);
// - dead exports (ts-unused-exports over tsconfig.exports.json, which sees every package, the tests, e2e and
//   scripts at once):
//   - everywhere: an export no module uses — not even its own file — is dead code, a type as much as a value, and a
//     use by a unit test alone does not keep it alive (--ignoreTestFiles: an export only a test imports is there for
//     the test, not the program; what a test needs of a module it reaches through what the module does);
//   - in the CLI and host-files: an export no other module imports is not an export (strict, types left alone; the
//     other packages are held to it as they are next reworked);
// - import circles (scripts/importCircles.mjs): no two files, and no two areas (a package, e2e/, scripts/), import
//   each other, directly or round a loop.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules/.bin', name);

// Entry points, and what packages/cli/build.mjs's generated stand-ins import (fast/schemas.ts).
const entries = ['packages/cli/src/main.ts', 'packages/cli/src/fast/main.ts', 'packages/cli/src/fast/schemas.ts', 'packages/native-host/src/main.ts', 'packages/extension/src/background.ts', 'scripts/bench.ts'];
const lenientYet = ['packages/extension', 'packages/native-host', 'packages/protocol', 'e2e', 'scripts'];

/** Each task: a name for reports, and the command run from the repository root. */
export const lintTasks = [
  { name: 'eslint', command: bin('eslint'), args: ['--cache', '--cache-location', 'node_modules/.cache/eslint/', 'packages', 'e2e', 'scripts'] },
  { name: 'unused exports', command: bin('ts-unused-exports'), args: ['tsconfig.exports.json', '--ignoreLocallyUsed', '--ignoreTestFiles', `--excludePathsFromReport=${entries.join(';')}`] },
  { name: 'import circles', command: process.execPath, args: ['scripts/importCircles.mjs'] },
  { name: 'exports used elsewhere', command: bin('ts-unused-exports'), args: ['tsconfig.exports.json', '--allowUnusedTypes', `--excludePathsFromReport=${[...entries, ...lenientYet].join(';')}`] },
];

export const repoRoot = root;
