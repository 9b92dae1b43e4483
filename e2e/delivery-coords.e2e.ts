/**
 * A click at coordinates and the drop of a drag are verified like a ref click.
 * The fixtures record every handler that ran; the tests read them through the DevTools observer and
 * hold the CLI's exit code to them: a press or a drop that went elsewhere is click_intercepted, the
 * element that would have taken it hears nothing, and a success names what got the click.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type CliResult, type Relay } from './harness.js';
import { open, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

const ROUNDS = 20;

async function run(tabId: number, ...args: string[]): Promise<CliResult> {
  return relay.cli('--json', ...args, '--tab', String(tabId));
}

function expectIntercepted(result: CliResult, when: string, interceptor: RegExp): void {
  expect(result.code, result.stdout).toBe(1);
  expect(result.error?.code, result.stderr).toBe('click_intercepted');
  expect(result.error?.details.when, result.stderr).toBe(when);
  expect(JSON.stringify(result.error?.details.interceptor), result.stderr).toMatch(interceptor);
}

async function fixture(path: string): Promise<{ tabId: number; page: Page }> {
  const tab = await open(relay, path);
  return { tabId: tab.tabId, page: await relay.page(tab.path) };
}

/** The centre of an element in viewport CSS px, as the page lays it out (observation only). */
async function centreOf(page: Page, selector: string): Promise<[string, string]> {
  const { x, y } = await read<{ x: number; y: number }>(page, `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2) }; })()`);
  return [String(x), String(y)];
}

describe('click --x --y: verified like a ref click', () => {
  it('a plain button: success names it, and the page counted exactly one click', async () => {
    const { tabId, page } = await fixture('/button.html');
    const [x, y] = await centreOf(page, '#inc');
    const result = await run(tabId, 'click', '--x', x, '--y', y);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({ tabId, x: Number(x), y: Number(y), target: { tag: 'button', id: 'inc', name: 'Increment' } });
    expect(await read(page, 'window.clicks')).toBe(1);
    expect(await read(page, 'window.trusted')).toEqual([true]);
  });

  it('an overlay shown on mouseover: click_intercepted, none of its handlers ran, the button was not clicked', async () => {
    const { tabId, page } = await fixture('/delivery-over.html');
    const [x, y] = await centreOf(page, '#target');
    for (let round = 0; round < 3; round++) {
      await run(tabId, 'js', 'reset()');
      const result = await run(tabId, 'click', '--x', x, '--y', y);
      expectIntercepted(result, 'after_pointer', /Interstitial ad/);
      expect(JSON.stringify(result.error?.details.target)).toMatch(/Hover trap/);
      expect(await read(page, 'window.record')).toEqual({ targetClicks: 0, gate: [] });
    }
  });

  it(`a decoy swapped in on pointermove, ${ROUNDS} clicks: none reported as success, the decoy never hears of one`, async () => {
    const { tabId, page } = await fixture('/delivery-swap.html');
    const [x, y] = await centreOf(page, '#target');
    for (let round = 0; round < ROUNDS; round++) {
      await run(tabId, 'js', 'reset()');
      expectIntercepted(await run(tabId, 'click', '--x', x, '--y', y), 'after_pointer', /Decoy button/);
    }
    const record = await read<{ targetClicks: number; decoy: string[] }>(page, 'window.record');
    expect(record.targetClicks).toBe(0);
    expect(record.decoy).toEqual([]);
  });

  it('a point over an iframe: the click goes into the frame, and the result names the iframe', async () => {
    const { tabId, page } = await fixture('/frame-parent.html');
    const frame = page.frames().find((candidate) => candidate.url().includes('/frame-child.html'));
    if (frame === undefined) throw new Error('no child frame');
    await frame.waitForSelector('#inc');
    const box = await read<{ left: number; top: number }>(page, `(() => { const r = document.getElementById('same').getBoundingClientRect(); return { left: r.left + 12, top: r.top + 12 }; })()`);
    const inner = (await frame.evaluate(`(() => { const r = document.getElementById('inc').getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`)) as { x: number; y: number };
    const result = await run(tabId, 'click', '--x', String(Math.round(box.left + inner.x)), '--y', String(Math.round(box.top + inner.y)));
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({ target: { tag: 'iframe', id: 'same' } });
    expect(await frame.evaluate('window.clicks')).toBe(1);
  });

  it('a point outside the viewport is invalid_arguments naming the coordinate, and nothing is clicked', async () => {
    const { tabId, page } = await fixture('/button.html');
    const { width, height } = await read<{ width: number; height: number }>(page, '({ width: innerWidth, height: innerHeight })');
    const wide = await run(tabId, 'click', '--x', String(width + 5), '--y', '10');
    expect(wide.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'x' } });
    const tall = await run(tabId, 'click', '--x', '10', '--y', String(height + 5));
    expect(tall.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'y' } });
    expect(await read(page, 'window.clicks')).toBe(0);
  });
});

describe('drag: the drop side is verified', () => {
  async function dropFixture(): Promise<{ tabId: number; page: Page; card: string; handle: string; zone: string }> {
    const { tabId, page } = await fixture('/delivery-drop.html');
    const snap = await snapshot(relay, tabId);
    return { tabId, page, card: refFor(snap, /button "Card"/), handle: refFor(snap, /button "Handle"/), zone: refFor(snap, /button "Drop zone"/) };
  }

  it('HTML5 drag onto a target a decoy covers on dragenter: click_intercepted on_drop, the decoy hears nothing, no drop happens', async () => {
    const { tabId, page, card, zone } = await dropFixture();
    expectIntercepted(await run(tabId, 'drag', card, zone), 'on_drop', /Decoy zone/);
    expect(await read(page, 'window.record')).toEqual({ drops: [], releases: [], decoy: [] });
  });

  it('pointer drag onto a target a decoy covers on pointermove: click_intercepted on_drop, the decoy never gets the release', async () => {
    const { tabId, page, handle, zone } = await dropFixture();
    expectIntercepted(await run(tabId, 'drag', handle, zone), 'on_drop', /Decoy zone/);
    expect(await read(page, 'window.record')).toEqual({ drops: [], releases: [], decoy: [] });
  });

  it('without the decoy both drags land on the target and succeed', async () => {
    const { tabId, page, card, handle, zone } = await dropFixture();
    await run(tabId, 'js', 'reset(false)');
    const html5 = await run(tabId, 'drag', card, zone);
    expect(html5.code, html5.stderr).toBe(0);
    const pointer = await run(tabId, 'drag', handle, zone);
    expect(pointer.code, pointer.stderr).toBe(0);
    expect(await read(page, 'window.record')).toEqual({ drops: ['card'], releases: ['zone'], decoy: [] });
  });

  it("a pointer drag whose ghost follows the pointer and takes the release (as drag libraries do): the drop lands and succeeds", async () => {
    const { tabId, page } = await fixture('/delivery-ghost.html');
    const snap = await snapshot(relay, tabId);
    const result = await run(tabId, 'drag', refFor(snap, /button "Item"/), refFor(snap, /button "Drop zone"/));
    expect(result.code, result.stderr).toBe(0);
    // The ghost under the pointer got the release and the page ended the drag over the zone.
    expect(await read(page, 'window.record')).toEqual({ drops: ['item'], ghostReleases: 1 });
  });
});
