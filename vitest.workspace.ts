// The test projects. The root vitest.config.ts feeds this list to `test.projects`
// (the workspace file itself is deprecated in Vitest 3.2+ and removed in 4).
export default [
  {
    test: {
      name: 'unit',
      include: ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
      environment: 'node',
      // Files share each worker's module cache instead of importing everything again per file: the unit
      // project went from ~90 s to ~25 s on 2 cores, nearly all of it import time. Safe because unit tests
      // build their fakes per test (no module-level state is relied on across files); checked with
      // `--sequence.shuffle` on several seeds.
      isolate: false,
    },
  },
  {
    test: {
      name: 'e2e',
      include: ['e2e/**/*.e2e.ts'],
      environment: 'node',
      // One browser per file; files run one at a time (2-core machines, real Chromium).
      fileParallelism: false,
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  },
];
