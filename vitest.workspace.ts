// The test projects. The root vitest.config.ts feeds this list to `test.projects`
// (the workspace file itself is deprecated in Vitest 3.2+ and removed in 4).
export default [
  {
    test: {
      name: 'unit',
      include: ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
      environment: 'node',
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
