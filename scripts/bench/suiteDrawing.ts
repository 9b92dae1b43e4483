/**
 * How often an agent's background tab draws while the agent works in it: the median requestAnimationFrame interval
 * of a React page (it draws after its load event, as apps do) in a background tab, over the agent's first calls after
 * each idle detach — the moment a tab that is not kept drawing runs one frame a second (capture/screencast.ts
 * TabDrawing says what was measured). Headless and headful (Xvfb), each a browser of its own, started like the main
 * one plus a DevTools port through which the person's side sets a short idle time and watches the tab detach; only
 * the extension's own pages are attached to (targetFilter), so the measured tab carries no second client. The
 * ratio is to a visible tab's 16.7 ms (60 Hz, what the person's own tab draws at here). Target: ≤ 50 ms.
 */
import type { Browser } from 'puppeteer-core';
import { startXvfb } from '../../e2e/harness.js';
import { commonFlags } from './browserFlags.js';
import type { Bench } from './measure.js';
import { na, NONE, time, type Row, type Section } from './report.js';
import { personPopup, startIdleBrowser, untilDetached } from './idleRig.js';
import { tabIdOf } from './relayTool.js';
import { stats } from './timing.js';

const TITLE = 'Drawing in an agent’s background tab while it acts (median requestAnimationFrame interval over the first calls after each idle detach; target ≤ 50 ms)';
/** The React page measured (e2e/libs/radix-select.tsx), served and bundled by the fixture server. */
const PAGE = '/libs/radix-select.html';
/** The agent's calls after each detach, over which the frames are counted: at least this many, for at least this long. */
const CALLS = 4;
const ACTING_MS = 3000;

const RAF_START = `window.__frames = []; const step = (t) => { window.__frames.push(t); requestAnimationFrame(step); }; requestAnimationFrame(step); true`;
const RAF_MEDIAN = `(() => { const a = window.__frames.splice(0); const d = a.slice(1).map((t, i) => t - a[i]).sort((x, y) => x - y); return d.length === 0 ? null : d[d.length >> 1]; })()`;

async function measure(bench: Bench, headful: boolean, display: string | undefined, rounds: number): Promise<number[]> {
  const relay = await startIdleBrowser(commonFlags(headful), headful, display);
  let devtools: Browser | undefined;
  try {
    const person = await personPopup(relay);
    devtools = person.devtools;
    const popup = person.popup;
    const opened = await relay.run({ kind: 'open', url: bench.url(PAGE) });
    const tabId = tabIdOf(opened.stdout);
    // The app renders after its bundle loads (the first request bundles it).
    for (let tries = 0; !/combobox/.test((await relay.run({ kind: 'snapshot', interactive: true })).stdout); tries++) {
      if (tries > 50) throw new Error(`${PAGE} did not render`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await relay.evaluate(RAF_START);
    const medians: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await untilDetached(popup, tabId);
      await relay.evaluate(RAF_MEDIAN);
      const started = Date.now();
      for (let call = 0; call < CALLS || Date.now() - started < ACTING_MS; call++) await relay.run({ kind: 'snapshot', interactive: true });
      const median = await relay.evaluate(RAF_MEDIAN);
      if (typeof median !== 'number') throw new Error(`round ${round}: fewer than two animation frames while the agent acted`);
      medians.push(median);
    }
    return medians;
  } finally {
    await devtools?.disconnect().catch(() => undefined);
    await relay.stop();
  }
}

export async function drawingSection(bench: Bench, display: string | undefined): Promise<Section> {
  const rounds = Math.max(3, Math.min(bench.plan.runs, 6));
  const rows: Row[] = [];
  let xvfb: Awaited<ReturnType<typeof startXvfb>> | undefined;
  try {
    for (const headful of [false, true]) {
      const label = `rAF interval, background agent tab, ${headful ? 'headful (Xvfb)' : 'headless'}`;
      bench.log(`drawing: ${label}, ${rounds} idle detaches`);
      try {
        if (headful && display === undefined && xvfb === undefined) xvfb = await startXvfb();
        rows.push({ label, relay: time(stats(await measure(bench, headful, display ?? xvfb?.display, rounds))), peer: NONE, ratioTo: { name: 'a visible tab (16.7 ms at 60 Hz)', value: 1000 / 60 } });
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        bench.log(`drawing not measured (${label}): ${why}`);
        rows.push({ label, relay: na(why), peer: NONE });
      }
    }
  } finally {
    xvfb?.process.kill();
  }
  return { title: TITLE, rows };
}
