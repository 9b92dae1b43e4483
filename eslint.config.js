// Lint and package boundaries, by config (run by `pnpm test` through scripts/lint.mjs), over the packages, e2e/ and
// scripts/ alike:
// - typescript-eslint: no floating promises, type-only imports marked, no `any`;
// - boundaries: page-side code (extension/src/injected) uses no chrome.* and no Node; the protocol imports
//   nothing Node- or chrome-specific; the CLI never imports the host (nor the host the CLI), and neither
//   imports the extension;
// - floors inside the extension: a room imports only rooms on lower floors (packages/extension/floors.mjs, read by
//   scripts/eslintFloors.mjs: the role of Playwright's DEPS.list files), and only the one pointer-action path imports
//   the files that aim, arm and disarm the delivery guards (POINTER_PATH there).
import tseslint from 'typescript-eslint';
import { floorsPlugin } from './scripts/eslintFloors.mjs';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'net', 'child_process', 'crypto', 'url', 'module'];
const noNode = { group: nodeBuiltins, message: 'This code must not depend on Node.' };

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'packages/**/*.mjs', 'eslint.config.js', 'vitest.*', 'e2e/pages/**'] },
  {
    files: ['packages/*/src/**/*.ts', 'e2e/**/*.ts', 'e2e/libs/*.tsx', 'scripts/**/*.ts', 'scripts/**/*.mjs'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['packages/protocol/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: {
      'no-restricted-globals': ['error', 'chrome', 'process', 'Buffer', 'require', '__dirname'],
      'no-restricted-imports': ['error', { patterns: [noNode, { group: ['@chrome-relay/*'], message: 'The protocol is the bottom layer: it imports no other package.' }] }],
    },
  },
  {
    files: ['packages/cli/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@chrome-relay/native-host', '@chrome-relay/extension', '**/native-host/**', '**/extension/src/**'], message: 'The CLI never imports the host or the extension: they talk over the socket.' }] }],
    },
  },
  {
    files: ['packages/native-host/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@chrome-relay/cli', '@chrome-relay/extension', '**/cli/src/**', '**/extension/src/**'], message: 'The host never imports the CLI or the extension.' }] }],
    },
  },
  {
    files: ['packages/extension/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noNode, { group: ['@chrome-relay/cli', '@chrome-relay/native-host', '**/cli/src/**', '**/native-host/src/**'], message: 'The extension never imports the CLI or the host.' }] }],
    },
  },
  {
    files: ['packages/extension/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/extension/src/testing/**'],
    plugins: { floors: floorsPlugin },
    rules: { 'floors/imports': 'error', 'floors/pointer-path': 'error' },
  },
  // The person's limits at their choke points: input reaches a page only through input/ (which asks for the landing
  // check's proof), and pixels leave it only through capture/ (which masks what the person blocked).
  {
    files: ['packages/extension/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/extension/src/testing/**', 'packages/extension/src/input/**', 'packages/extension/src/capture/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Literal[value=/^Input\\.[a-zA-Z]/]', message: 'Input.* commands are sent only from input/, on a landing proof (input/landing.ts).' },
        { selector: 'Literal[value=/^Page\\.(captureScreenshot|startScreencast|stopScreencast|screencastFrame)/]', message: "A tab's pixels are asked for only in capture/ (capture/screencast.ts), which masks what the person blocked." },
      ],
    },
  },
  // After the extension-wide block: for a rule, the last matching block wins.
  {
    files: ['packages/extension/src/injected/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'chrome', message: 'Page-side code runs in the page: no chrome.* (see AGENTS.md).' }, 'process', 'Buffer', 'require'],
      'no-restricted-imports': ['error', { patterns: [noNode, { regex: '^(@chrome-relay/|\\.\\./)', message: 'Page-side code imports only its own folder (it is bundled into the page).' }] }],
    },
  },
);
