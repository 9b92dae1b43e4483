#!/usr/bin/env node
// The README's first command: launch the embedded default (a dedicated Chromium profile with our extension and
// host), open a sample page, snapshot it, click a ref, show the page changed, and `stop` it. Uses only the built CLI.
// Headful (launch keeps an Xvfb of its own on a Linux machine without a display), headless only when neither a
// display nor Xvfb is there. Stops the browser at the end unless --keep.

import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = join(dirname(fileURLToPath(import.meta.url)), '../packages/cli/dist/chrome-relay.cjs');
const keep = process.argv.includes('--keep');

const page = `<!doctype html><title>chrome-relay demo</title><h1>Hello from chrome-relay</h1>
<p id="out">Not clicked yet</p><button onclick="document.getElementById('out').textContent='Clicked by chrome-relay!'">Click me</button>
<a href="https://example.com">A link</a>`;
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/`;

async function run(...args) {
  console.log(`\n$ chrome-relay ${args.join(' ')}`);
  // Async so this process's little web server keeps answering while the CLI works.
  const { execFile } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, ...args], (err, stdout, stderr) => {
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      if (err) reject(new Error(`chrome-relay ${args[0]} failed`));
      else resolve(stdout);
    });
  });
}

const xvfb = (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, 'Xvfb')));
const headless = process.platform === 'linux' && !process.env.DISPLAY && !xvfb;
let started = false;
try {
  // What each command prints is its short text (the lines an agent reads): the first line says what happened.
  started = (await run('launch', ...(headless ? ['--headless'] : []))).startsWith('started:');
  const tabId = /^(?:navigated|opened) tab (\d+)/.exec(await run('navigate', url))?.[1];
  if (!tabId) throw new Error('navigate named no tab');
  const nav = { tabId };
  const snap = await run('snapshot', '--tab', String(nav.tabId));
  const ref = /button "Click me" \[ref=(e\d+)\]/.exec(snap)?.[1];
  if (!ref) throw new Error('the snapshot has no ref for the button');
  await run('click', `@${ref}`);
  const after = await run('snapshot', '--tab', String(nav.tabId));
  if (!after.includes('Clicked by chrome-relay!')) throw new Error('the click did not change the page');
  console.log('\ndemo: the page changed after `click` — the whole CLI → host → extension → CDP path works.');
} finally {
  server.close();
  // A browser that was already running is the person's to stop.
  if (started && !keep) await run('stop');
}
