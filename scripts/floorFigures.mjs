#!/usr/bin/env node
// The extension's floor-plan figures, reproducible at any revision:
//   node scripts/floorFigures.mjs            the working tree
//   node scripts/floorFigures.mjs --rev REV  a commit (read with git archive into a temporary folder)
//   --list                                   also name the files behind each figure
// Figures (non-test files of packages/extension/src; the plan is packages/extension/floors.mjs of the working tree,
// so two revisions are measured against the same plan):
//   - imports that reach up or sideways (a room importing its own floor or a higher one; types count);
//   - files outside cdp/ that read Chrome's error text (its phrases, in a pattern or a string). browserApi.ts reads
//     chrome.tabs' own errors and is counted apart;
//   - files that send Input.* commands, and files that capture pixels (Page.captureScreenshot, Page.startScreencast);
//   - files outside injected/ with page code: an expression or function text handed to Runtime.evaluate or
//     Runtime.callFunctionOn, a function serialised for the page, or a function handed to the old isolated-world
//     runner (callInPage) to run there. Not counted: page/pageCall.ts, the one page-call
//     path (its expression only names a typed PageApi method), and pageState/mainWorld.ts, the main-world evaluation
//     of the agent's own code for `js` and `wait --fn` (the one exception: it holds no page code of ours);
//   - the files a `click @e12` enters: the extension modules reachable by value imports from tools/click.ts (type-only
//     imports run nothing);
//   - `disarm` and `pointerTarget` called outside the one pointer-action path (floors.mjs POINTER_PATH), and
//     `setCurrentTab` called in tools/: aiming, ending armings and remembering the tab by hand;
//   - one `click @e12` run through the worker as it runs in Chrome (the dispatcher, the person's limits, the tool
//     registry) over the unit tests' fakes, every function of the extension instrumented to record its file when it is
//     called (scripts/figures/clickWalk.ts, bundled from the measured revision's sources): the ref registry's lookups
//     and the chrome.tabs.get calls of the measured (second, warm) click, and its walk — the files it enters, the rooms
//     they are in (floors.mjs), its stays in those rooms (a run of calls in one room is one stay), the returns to a
//     room it had left (stays − rooms), and how often it enters page/pageCall.ts from another file.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { exempt, FLOORS, POINTER_PATH, roomOf } from '../packages/extension/floors.mjs';
import { walkPlugin } from './figures/walkPlugin.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const list = args.includes('--list');
const revAt = args.indexOf('--rev');
const rev = revAt === -1 ? undefined : args[revAt + 1];
let root = repo;
let scratch;
if (rev !== undefined) {
  scratch = mkdtempSync(join(tmpdir(), 'floor-figures-'));
  execFileSync('sh', ['-c', `git archive ${JSON.stringify(rev)} packages/extension/src packages/protocol/src | tar -x -C ${JSON.stringify(scratch)}`], { cwd: repo });
  root = scratch;
}
const src = join(root, 'packages/extension/src');

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}
const files = walk(src).map((path) => relative(src, path)).filter((file) => file.endsWith('.ts') && !exempt(file)).sort();
const text = new Map(files.map((file) => [file, readFileSync(join(src, file), 'utf8')]));

/** Every relative import or re-export of a file, resolved to a path under src/ (with `values`: none that is type-only). */
function importsOf(file, values = false) {
  const found = [];
  for (const match of text.get(file).matchAll(/(?:^|\n)\s*((?:import|export)\s[^;]*?)from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/g)) {
    if (values && match[1] !== undefined && /^(import|export)\s+type\s/.test(match[1])) continue;
    const spec = match[2] ?? match[3];
    found.push(relative(src, resolve(src, dirname(file), spec)).replace(/\.js$/, '.ts'));
  }
  return found;
}

const upward = [];
for (const file of files) {
  const room = roomOf(file);
  for (const target of importsOf(file)) {
    const to = roomOf(target);
    if (to === room || target.startsWith('..')) continue;
    const bad = room === 'injected' || FLOORS[room] === undefined || FLOORS[to] === undefined || FLOORS[to] >= FLOORS[room];
    if (bad) upward.push(`${file} → ${target}`);
  }
}

const CHROME_PHRASES = /cannot find context|execution context was destroyed|cannot find default execution context|no frame for given id|frame with the given id|could not compute|inspected target navigated|no dialog is showing|debugger is not attached|not attached to an active page|no node with given id|node is detached|another debugger is already attached|no tab with (given )?id|chrome-extension:\\?\/\\?\/ url of different extension/i;
const errorText = files.filter((file) => !file.startsWith('cdp/') && file !== 'browserApi.ts' && CHROME_PHRASES.test(stripComments(text.get(file))));
const input = files.filter((file) => /['"`]Input\.[a-z]\w*['"`]/.test(stripComments(text.get(file))));
const pixels = files.filter((file) => /['"`]Page\.(captureScreenshot|startScreencast)['"`]/.test(stripComments(text.get(file))));
const PAGE_CODE = /\b(expression|functionDeclaration)\s*:\s*(?!expression\b|functionDeclaration\b|source\b|code\b|params\.)[^,}\n]+|\.toString\(\)\s*,?\s*$/m;
const RUN_IN_PAGE = /\bcallInPage\(\s*ctx,\s*[^,()]+,\s*[A-Za-z_$][\w$]*/;
const pageCode = files.filter((file) => {
  if (file.startsWith('injected/') || file === 'page/pageCall.ts' || file === 'pageState/mainWorld.ts') return false;
  const source = stripComments(text.get(file));
  return PAGE_CODE.test(source) || RUN_IN_PAGE.test(source);
});

function stripComments(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Modules reachable by value imports from a tool file: what of the extension runs when the tool does. */
function closure(start) {
  const seen = new Set();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file) || !text.has(file)) continue;
    seen.add(file);
    queue.push(...importsOf(file, true));
  }
  return [...seen].sort();
}
const click = existsSync(join(src, 'tools/click.ts')) ? closure('tools/click.ts') : [];

/** Each call of one of `names` (not its definition) in a file, as `file: name`. */
function callsOf(names, where) {
  const found = [];
  for (const file of files.filter(where)) {
    const source = stripComments(text.get(file));
    for (const match of source.matchAll(new RegExp(`(?<!function |\\.)\\b(${names.join('|')})\\(`, 'g'))) found.push(`${file}: ${match[1]}`);
  }
  return found;
}
// Aiming at an element and ending the guards' armings, by hand, outside the one pointer-action path.
const handAimed = callsOf(['disarm', 'pointerTarget'], (file) => !POINTER_PATH.files.includes(file));
// The tools remembering the tab by hand (the dispatcher does it since issue 36: rememberTab in dispatcher.ts).
const handRemembered = callsOf(['setCurrentTab', 'rememberTab'], (file) => file.startsWith('tools/'));

/**
 * One `click @e12` run through the worker over the unit tests' fakes (scripts/figures/clickWalk.ts, bundled with the
 * measured revision's sources, every function of the extension instrumented to record its file when called).
 */
async function clickWalk() {
  const out = join(root === repo ? mkdtempSync(join(tmpdir(), 'floor-walk-')) : root, 'walk.mjs');
  const entry = join(root, 'scripts/figures/clickWalk.ts');
  if (root !== repo) {
    mkdirSync(dirname(entry), { recursive: true });
    copyFileSync(join(repo, 'scripts/figures/clickWalk.ts'), entry);
  }
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'error',
    alias: { '@chrome-relay/protocol': join(root, 'packages/protocol/src/index.ts') },
    nodePaths: [join(repo, 'node_modules'), join(repo, 'packages/protocol/node_modules'), join(repo, 'packages/extension/node_modules')],
    plugins: [walkPlugin(src, exempt)],
  });
  const printed = execFileSync(process.execPath, ['--input-type=module', '-e', `globalThis.__walker = { on: false, files: [] }; await import(${JSON.stringify(pathToFileURL(out).href)});`], { encoding: 'utf8' });
  if (root === repo) rmSync(dirname(out), { recursive: true, force: true });
  const measured = JSON.parse(printed.trim().split('\n').pop());
  const runs = (steps) => steps.filter((step, i) => step !== steps[i - 1]);
  const rooms = measured.walk.map(roomOf);
  return {
    ...measured,
    files: [...new Set(measured.walk)].sort(),
    rooms: [...new Set(rooms)].sort(),
    roomStays: runs(rooms),
    pageCallEntries: runs(measured.walk).filter((file) => file === 'page/pageCall.ts'),
  };
}
const traced = await clickWalk();

const figures = [
  ['imports that reach up or sideways', upward],
  ['files outside cdp/ that read Chrome error text', errorText],
  ['files that send Input.*', input],
  ['  of them outside input/', input.filter((file) => !file.startsWith('input/'))],
  ['files that capture pixels', pixels],
  ['  of them outside capture/', pixels.filter((file) => !file.startsWith('capture/'))],
  ['files outside injected/ with page code', pageCode],
  ['files a click @e12 enters (value-import closure of tools/click.ts)', click],
  ['disarm and pointerTarget calls outside the one pointer path (floors.mjs POINTER_PATH)', handAimed],
  ['  files they are in', [...new Set(handAimed.map((call) => call.split(':')[0]))]],
  ['setCurrentTab calls in tools/ (the remembered tab set by hand)', handRemembered],
  ['registry lookups per click @e12 (traced: scripts/figures/clickWalk.ts)', Array.from({ length: traced.lookups }, (_, i) => `lookup ${i + 1}`)],
  ['chrome.tabs.get per click @e12 (traced)', Array.from({ length: traced.tabsGet }, (_, i) => `get ${i + 1}`)],
  ['files a click @e12 enters on its walk (traced)', traced.files],
  ['  rooms they are in (floors.mjs: a folder of src/, or a file at its top)', traced.rooms],
  ['  stays in those rooms (a run of calls in one room is one stay)', traced.roomStays],
  ['  returns to a room it had left (stays − rooms)', traced.roomStays.slice(0, traced.roomStays.length - traced.rooms.length)],
  ['  entries into page/pageCall.ts (from another file)', traced.pageCallEntries],
  // Issue 36's other half adds its figures here (ref grammars, import circles), with the same shape: a name and the
  // items behind the number (`--list` prints them).
];
console.log(`floor figures at ${rev ?? 'the working tree'} (plan: packages/extension/floors.mjs)`);
for (const [name, items] of figures) {
  console.log(`${String(items.length).padStart(4)}  ${name}`);
  if (list) for (const item of items) console.log(`        ${item}`);
}
if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
