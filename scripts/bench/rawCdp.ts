/**
 * The floor for a full-tree snapshot: `Accessibility.getFullAXTree` over a direct CDP connection (puppeteer-core),
 * in a browser of its own with the same binary and flags. chrome-relay's snapshot goes through the extension
 * and the native host; this is what the same tree costs with nothing in between.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { CHROMIUM } from './browserFlags.js';
import { sample, timed, type Plan, type Stats } from './timing.js';

export interface RawAxTree {
  stats: Stats;
  /** AX nodes in the tree, to show what was fetched. */
  nodes: number;
}

export async function measureRawAxTree(url: string, plan: Plan, flags: readonly string[], display: string | undefined): Promise<RawAxTree> {
  const root = mkdtempSync(join(tmpdir(), 'cr-bench-cdp-'));
  try {
    const browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: display === undefined,
      // puppeteer sets the mode itself from `headless`.
      args: flags.filter((f) => f !== '--headless=new'),
      userDataDir: join(root, 'profile'),
      env: { ...process.env, HOME: root, TMPDIR: root, ...(display ? { DISPLAY: display } : {}) },
      defaultViewport: null,
      pipe: true,
    });
    try {
      const page = await browser.newPage();
      await page.goto(url, { waitUntil: 'load' });
      const session = await page.createCDPSession();
      let nodes = 0;
      const stats = await sample(plan, {
        run: () =>
          timed(async () => {
            nodes = (await session.send('Accessibility.getFullAXTree')).nodes.length;
          }),
      });
      return { stats, nodes };
    } finally {
      await browser.close();
    }
  } finally {
    // Also when the browser never started: the profile directory is ours either way.
    rmSync(root, { recursive: true, force: true });
  }
}
