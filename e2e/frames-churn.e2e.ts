/**
 * A tab whose cross-origin frames come and go: several out-of-process iframes attached, clicked and removed, then
 * `navigate --tab` to a page that creates a cross-origin iframe at DOMContentLoaded, its load waited for, and a
 * snapshot. That snapshot hung 30 s ("page busy") in 3 of 5 runs of this sequence: every change of frames made the next
 * snapshot read the page's listeners again, and that read (on an isolated world's document) left the tab's renderer
 * to crash at a later garbage collection (page/listeners.ts). Eight rounds failed every run before the fix. Presses are
 * checked against the record the parent page keeps of what each frame told it (read through the DevTools observer's
 * main frame: its view of out-of-process frames lags navigations).
 */
import { describe, expect, it } from 'vitest';
import { until } from './harness.js';
import { crossSiteRig, okJson, okText, open, read, refFor } from './helpers.js';

const rig = crossSiteRig();

const ok = (...args: string[]): Promise<Record<string, unknown>> => okJson(rig.relay, ...args);

const text = (...args: string[]): Promise<string> => okText(rig.relay, ...args);

describe('cross-origin frames that come and go', () => {
  it('a snapshot after navigating to a page that makes a cross-origin frame at DOMContentLoaded answers, every round', async () => {
    const x = encodeURIComponent(rig.crossServer.origin);
    const tab = await open(rig.relay, `/frames-churn.html?x=${x}`);
    const t = String(tab.tabId);
    for (let round = 0; round < 8; round++) {
      if (round > 0) await ok('navigate', rig.relay.server.url(`/frames-churn.html?x=${x}&round=${round}`), '--tab', t);
      const page = await rig.relay.page(round > 0 ? `frames-churn.html?x=${x}&round=${round}` : tab.path);
      await until(async () => (await read<number>(page, 'window.loaded')) >= 3, 10_000, 'three frames loaded');
      let snap = await text('snapshot', '-i', '--tab', t);
      // A press in each frame lands there, once.
      for (let i = 0; i < 3; i++) await ok('click', refFor(snap, /button "Child button"/, i));
      await until(async () => Object.keys(await read<Record<string, number>>(page, 'window.pressed')).length === 3, 5000, 'three frames pressed');
      expect(await read<Record<string, number>>(page, 'window.pressed')).toEqual({ 1: 1, 2: 1, 3: 1 });
      await ok('click', refFor(snap, /button "Remove frames"/));
      await ok('click', refFor(snap, /button "Add frames"/));
      await until(async () => (await read<number>(page, 'window.loaded')) >= 6, 10_000, 'three new frames loaded');
      snap = await text('snapshot', '-i', '--tab', t);
      await ok('click', refFor(snap, /button "Child button"/, 2));
      await until(async () => (await read<Record<string, number>>(page, 'window.pressed'))[6] === 1, 5000, 'the sixth frame pressed');
      await ok('click', refFor(snap, /button "Remove frames"/));

      await ok('navigate', rig.relay.server.url(`/frames-late.html?x=${x}&round=${round}`), '--tab', t);
      await ok('wait', '--load', '--tab', t, '--timeout', '10000');
      snap = await text('snapshot', '--tab', t);
      expect(snap).toMatch(/iframe "Late frame"/);
      expect(snap).toMatch(/button "Child button" \[ref=e\d+\]/);
    }
  });
});
