/**
 * What idle detach costs the agent: the first command after chrome-relay detached an idle tab (so that Chrome's
 * "started debugging this browser" bar goes) against the same command on an attached tab, for a read (`get
 * title`) and a click, each timed as the agent's whole CLI call. A browser of its own, started like the main
 * one plus a DevTools port: the person's side sets a short idle time in the extension's settings and watches,
 * from the popup, that the tab was detached before each cold call. Only the extension's own page is attached
 * to (targetFilter): the measured tab carries no second client. Ratios are what to read; a test asserts none.
 */
import type { Browser } from 'puppeteer-core';
import { CLI } from '../../e2e/harness.js';
import { CommandFailed, execTimed } from './exec.js';
import type { Bench } from './measure.js';
import { requireRef } from './refs.js';
import { na, NONE, time, type Row, type Section } from './report.js';
import { personPopup, startIdleBrowser, untilDetached } from './idleRig.js';
import { tabIdOf } from './relayTool.js';
import { stats } from './timing.js';

const TITLE = 'Re-attaching after an idle detach (a fresh browser, idle time 2 s; ratio: first call after the detach ÷ warm)';

export async function idleSection(bench: Bench, flags: string[], headful: boolean, display: string | undefined): Promise<Section> {
  const runs = Math.max(3, Math.min(bench.plan.runs, 8));
  bench.log(`idle detach: ${runs} detaches per command`);
  const relay = await startIdleBrowser(flags, headful, display);
  let devtools: Browser | undefined;
  try {
    const person = await personPopup(relay);
    devtools = person.devtools;
    const popup = person.popup;
    const opened = await relay.run({ kind: 'open', url: bench.url('/idle.html') });
    const tabId = tabIdOf(opened.stdout);
    const ref = requireRef((await relay.run({ kind: 'snapshot', interactive: true })).stdout, 'button', 'Increment');
    const samples = { read: { warm: [] as number[], cold: [] as number[] }, click: { warm: [] as number[], cold: [] as number[] } };
    const read = async (): Promise<number> => {
      const result = await execTimed(process.execPath, [CLI, 'get', 'title', '--tab', String(tabId)], { env: relay.env });
      if (result.code !== 0) throw new CommandFailed(['chrome-relay', 'get', 'title'], result);
      return result.ms;
    };
    const call = async (kind: 'read' | 'click'): Promise<number> => (kind === 'read' ? read() : (await relay.run({ kind: 'click', ref })).ms);
    for (let i = 0; i < runs; i++) {
      for (const kind of ['read', 'click'] as const) {
        // Two warm calls (the second is the sample: the first may still pay for the previous detach's aftermath).
        await call(kind);
        samples[kind].warm.push(await call(kind));
        await untilDetached(popup, tabId);
        samples[kind].cold.push(await call(kind));
      }
    }
    const clicks = await relay.evaluate('window.clicks');
    if (clicks !== runs * 3) throw new Error(`the page counted ${JSON.stringify(clicks)} clicks, not ${runs * 3}`);
    const rows: Row[] = [];
    for (const [kind, label] of [['read', 'get title'], ['click', 'click @ref']] as const) {
      const warm = stats(samples[kind].warm);
      rows.push({ label: `${label}, tab attached (warm)`, relay: time(warm), peer: NONE });
      rows.push({ label: `${label}, first call after an idle detach`, relay: time(stats(samples[kind].cold)), peer: NONE, ratioTo: { name: 'warm', value: warm.median } });
    }
    return { title: TITLE, rows };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    bench.log(`idle detach not measured: ${why}`);
    return { title: TITLE, rows: [{ label: 'first call after an idle detach', relay: na(why), peer: NONE }] };
  } finally {
    await devtools?.disconnect().catch(() => undefined);
    await relay.stop();
  }
}
