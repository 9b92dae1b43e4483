/**
 * Frames: elements of a same-origin iframe and of a cross-origin (out-of-process) iframe
 * appear in the snapshot with refs that click and fill. The cross-origin child is served by a
 * second fixture server on 127.0.0.2 (another site, so Chromium puts it in its own process).
 * Every assertion reads the frame's own state through the DevTools observer (page.frames()).
 */
import type { Frame, Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { until } from './harness.js';
import { crossSiteRig, okJson, open, refFor, snapshot, type Opened } from './helpers.js';

const rig = crossSiteRig();

const ok = (...args: string[]): Promise<Record<string, unknown>> => okJson(rig.relay, ...args);

interface FramePage {
  tab: Opened;
  page: Page;
  same: () => Frame;
  cross: () => Frame;
}

async function openParent(): Promise<FramePage> {
  const tab = await open(rig.relay, `/frame-parent.html?x=${encodeURIComponent(rig.crossServer.url('/frame-child.html'))}`);
  const page = await rig.relay.page(tab.path);
  const find = (host: string) => (): Frame => {
    const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().startsWith(host));
    if (frame === undefined) throw new Error(`no frame on ${host}: ${page.frames().map((f) => f.url()).join(', ')}`);
    return frame;
  };
  const framePage: FramePage = { tab, page, same: find(rig.relay.server.origin), cross: find(rig.crossServer.origin) };
  await until(async () => {
    try {
      return (await framePage.cross().evaluate('document.readyState')) === 'complete' && (await framePage.same().evaluate('document.readyState')) === 'complete';
    } catch {
      return false;
    }
  }, 10_000, 'both frames loaded');
  return framePage;
}

describe('frames', () => {
  it('snapshot shows both frames under their iframe nodes, with refs', async () => {
    const { tab } = await openParent();
    const snap = await snapshot(rig.relay, tab.tabId);
    expect(snap).toMatch(/iframe "Same origin frame"/);
    expect(snap).toMatch(/iframe "Cross origin frame"/);
    expect(snap.split('\n').filter((line) => /button "Child button" \[ref=e\d+\]/.test(line))).toHaveLength(2);
    expect(snap.split('\n').filter((line) => /textbox "Child field" \[ref=e\d+\]/.test(line))).toHaveLength(2);
    // The child's content sits under (indented below) its iframe node.
    const lines = snap.split('\n');
    const frameLine = lines.findIndex((line) => line.includes('iframe "Same origin frame"'));
    const childLine = lines.findIndex((line) => line.includes('Child button'));
    expect(childLine).toBeGreaterThan(frameLine);
    expect(childLine - frameLine).toBeLessThan(5);
    expect((lines[childLine] ?? '').search(/\S/)).toBeGreaterThan((lines[frameLine] ?? '').search(/\S/));
  });

  it('clicks land in the same-origin and the cross-origin frame (trusted), parent scrolled and frames offset', async () => {
    const { tab, page, same, cross } = await openParent();
    const snap = await snapshot(rig.relay, tab.tabId);
    const sameButton = refFor(snap, /Child button/, 0);
    const crossButton = refFor(snap, /Child button/, 1);
    await ok('click', sameButton);
    expect(await same().evaluate('window.clicks')).toBe(1);
    expect(await same().evaluate('window.trusted')).toEqual([true]);
    // The cross-origin frame sits below the fold: the parent scrolls, and the point must follow.
    const clicked = await ok('click', crossButton);
    expect(await cross().evaluate('window.clicks')).toBe(1);
    expect(await cross().evaluate('window.trusted')).toEqual([true]);
    expect(await page.evaluate('window.scrollY')).toBeGreaterThan(0);
    // The point is inside the cross frame's content box in the top-level viewport.
    const box = await page.evaluate(`(() => { const r = document.getElementById('cross').getBoundingClientRect(); return [r.left + 12, r.top + 12, r.right - 12, r.bottom - 12]; })()`) as number[];
    expect(clicked.x as number).toBeGreaterThan(box[0] ?? 0);
    expect(clicked.y as number).toBeGreaterThan(box[1] ?? 0);
    // Now the same-origin frame is above the fold of the scrolled parent: it must come back.
    await ok('click', sameButton);
    expect(await same().evaluate('window.clicks')).toBe(2);
    expect(await page.evaluate('window.clicks')).toBe(0);
  });

  it('fill works in both frames', async () => {
    const { tab, same, cross } = await openParent();
    const snap = await snapshot(rig.relay, tab.tabId);
    await ok('fill', refFor(snap, /Child field/, 0), 'same origin');
    await ok('fill', refFor(snap, /Child field/, 1), 'cross origin');
    expect(await same().evaluate(`document.getElementById('field').value`)).toBe('same origin');
    expect(await cross().evaluate(`document.getElementById('field').value`)).toBe('cross origin');
  });

  it('a child frame that navigates kills only its own refs', async () => {
    const { tab, page, same, cross } = await openParent();
    const snap = await snapshot(rig.relay, tab.tabId);
    const sameButton = refFor(snap, /Child button/, 0);
    const crossButton = refFor(snap, /Child button/, 1);
    const parentButton = refFor(snap, /Parent button/);
    await ok('click', refFor(snap, /Next child page/, 0));
    await until(() => same().url().includes('/frame-next.html'), 10_000, 'child frame navigated');
    const stale = await rig.relay.cli('click', sameButton);
    expect(stale.error?.code, stale.stderr).toBe('stale_ref');
    expect(stale.error?.details.reason).toBe('navigated');
    await ok('click', parentButton);
    expect(await page.evaluate('window.clicks')).toBe(1);
    await ok('click', crossButton);
    expect(await cross().evaluate('window.clicks')).toBe(1);
    // A fresh snapshot sees the new child document.
    const again = await snapshot(rig.relay, tab.tabId);
    expect(again).toMatch(/Next page button" \[ref=e\d+\]/);
  });
});
