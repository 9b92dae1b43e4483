#!/usr/bin/env node
// Writes the generated docs from the protocol's error table and tool registry (and the CLI's skill text):
//   docs/errors.md   ← ERROR_TABLE, NOTICE_CODES         (packages/cli/src/docsRender.ts)
//   docs/tools.md    ← TOOLS (descriptions, param schemas)
//   SKILL.md         ← the same text `chrome-relay skill` prints (packages/cli/src/skill.ts)
//
//   node scripts/gen-docs.mjs           write them
//   node scripts/gen-docs.mjs --check   write nothing; exit 1 naming every stale file
//
// The renderers are TypeScript importing the protocol source, so they are bundled on the fly with esbuild
// (zod included: under pnpm it only resolves from inside the protocol package) and imported from memory.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

const bundle = await build({
  stdin: {
    contents: [
      "import { renderErrorsDoc, renderToolsDoc } from './packages/cli/src/docsRender.ts';",
      "import { renderSkill } from './packages/cli/src/skill.ts';",
      "export const files = { 'docs/errors.md': renderErrorsDoc(), 'docs/tools.md': renderToolsDoc(), 'SKILL.md': renderSkill() };",
    ].join('\n'),
    resolveDir: root,
    loader: 'ts',
    sourcefile: 'gen-docs-entry.ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // commander is CommonJS (docsRender reads the CLI's output flags through it): give the bundle a real require.
  banner: { js: `import { createRequire as __relayCreateRequire } from 'node:module'; const require = __relayCreateRequire(${JSON.stringify(join(root, 'package.json'))});` },
  write: false,
  logLevel: 'warning',
});
const code = bundle.outputFiles[0]?.text;
if (code === undefined) throw new Error('gen-docs: esbuild produced no output');
const { files } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);

const stale = [];
for (const [relative, content] of Object.entries(files)) {
  const path = join(root, relative);
  let current = null;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current === content) continue;
  stale.push(relative);
  if (!check) writeFileSync(path, content);
}

if (check) {
  if (stale.length > 0) {
    console.error(`gen-docs: stale: ${stale.join(', ')}. Run \`node scripts/gen-docs.mjs\` and commit the result.`);
    process.exit(1);
  }
  console.error('gen-docs: docs are up to date');
} else {
  console.error(stale.length > 0 ? `gen-docs: wrote ${stale.join(', ')}` : 'gen-docs: nothing changed');
}
