/**
 * Agent tabs draw at full rate while an agent works in them, without being shown: a background tab whose page draws
 * after its load event (a React app) ran requestAnimationFrame about once a second once its first debugger session
 * had ended (the idle detach), and stayed there on the next attach — menus rendered a second late. Now each session
 * keeps its tab drawing (capture/screencast.ts TabDrawing). Measured as a ratio, not a time: the agent's background
 * tab against the person's own visible tab, over the same second of the agent's calls. And the person's tab stays
 * what it was: the active tab, visible, focused as before, with no visibility or focus change seen.
 * Headful under Xvfb by default (E2E_HEADLESS=1 for the headless browser); `pnpm bench` measures the intervals.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID, startRelay, until, type Relay } from './harness.js';
import { open } from './helpers.js';

const IDLE_SECONDS = 2;
/** The page's own animation-frame record: the median interval since the last read (ms), and how many frames. */
const RAF_START = `window.__frames = []; const step = (t) => { window.__frames.push(t); requestAnimationFrame(step); }; requestAnimationFrame(step); true`;
const medianOf = (list: string): string =>
  `(() => { const a = ${list}.splice(0); const d = a.slice(1).map((t, i) => t - a[i]).sort((x, y) => x - y); return { frames: a.length, median: d.length === 0 ? null : d[d.length >> 1] }; })()`;

interface Frames {
  frames: number;
  median: number | null;
}

let relay: Relay;
let popup: Page;
let person: Page;
beforeAll(async () => {
  relay = await startRelay();
  // The person sets a short idle time (as in the options page), then goes back to their own tab and reads.
  popup = await relay.devtools.newPage();
  await popup.goto(`chrome-extension://${EXTENSION_ID}/popup.html`);
  const saved = await popup.evaluate((seconds) => chrome.runtime.sendMessage({ kind: 'saveSettings', settings: { blockedSites: [], agentTabsOnly: true, idleDetachSeconds: seconds } }), IDLE_SECONDS);
  expect(saved).toMatchObject({ ok: true });
  const [first] = await relay.devtools.pages();
  if (first === undefined) throw new Error('the browser has no tab');
  person = first;
  await person.goto(relay.server.url('/person.html'));
  await person.bringToFront();
});
afterAll(async () => {
  await relay?.stop();
});

async function attached(tabId: number): Promise<boolean> {
  const answer = (await popup.evaluate(() => chrome.runtime.sendMessage({ kind: 'state' }))) as { state: { tabs: { id: number; attached: boolean }[] } };
  return answer.state.tabs.some((tab) => tab.id === tabId && tab.attached);
}

async function js<T>(tabId: number, expression: string): Promise<T> {
  const result = await relay.cli('js', expression, '--tab', String(tabId));
  expect(result.code, result.stderr).toBe(0);
  return (result.json as { value: T }).value;
}

describe('an agent tab draws at full rate while the agent works in it', () => {
  it('after an idle detach, its animation frames come as often as the visible tab’s; the person’s tab is left as it was', async () => {
    const personBefore = await person.evaluate('window.state()');
    const tab = await open(relay, '/libs/radix-select.html');
    await until(async () => /combobox "Time zone"/.test((await relay.cli('snapshot', '--tab', String(tab.tabId))).stdout), 10_000, 'the app rendered');
    await js(tab.tabId, RAF_START);
    for (let round = 0; round < 3; round++) {
      // The agent pauses (its model thinks) past the idle time: the session ends.
      await until(async () => !(await attached(tab.tabId)), (IDLE_SECONDS + 10) * 1000, 'the idle detach');
      // Then it works again: these calls are what the tab draws for.
      await js(tab.tabId, medianOf('window.__frames'));
      await person.evaluate(medianOf('window.frames'));
      for (let call = 0; call < 4; call++) expect((await relay.cli('snapshot', '--tab', String(tab.tabId))).code).toBe(0);
      const agent = await js<Frames>(tab.tabId, medianOf('window.__frames'));
      const visible = (await person.evaluate(medianOf('window.frames'))) as Frames;
      expect(visible.median, 'the person’s visible tab draws').not.toBeNull();
      // Every frame, as the visible tab draws them (a hidden, throttled tab draws one a second: far over 3×).
      expect(agent.frames, `round ${round}: ${JSON.stringify({ agent, visible })}`).toBeGreaterThan(2);
      expect(agent.median ?? Infinity, `round ${round}: ${JSON.stringify({ agent, visible })}`).toBeLessThanOrEqual(3 * (visible.median ?? 0));
    }
    // The person's tab: still the active one, as visible and focused as before, and it saw no change.
    expect(await person.evaluate('window.state()')).toEqual(personBefore);
    // As the person's side sees the tabs (agents are not shown the person's own: `tabs` only counts it).
    const tabs = await popup.evaluate(() => chrome.tabs.query({}).then((all) => all.map((t) => ({ id: t.id ?? -1, active: t.active, url: t.url ?? t.pendingUrl ?? '' }))));
    expect(tabs.find((entry) => entry.id === tab.tabId)?.active).toBe(false);
    const personTab = tabs.find((entry) => entry.url.includes('/person.html'));
    expect(tabs.filter((entry) => entry.active).map((entry) => entry.id), JSON.stringify(tabs)).toEqual([personTab?.id]);
  });
});
