import { reasonedError, RelayError } from '@chrome-relay/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FramePointOutcome, GuardReport, PrepareClickOutcome } from '../injected/types.js';
import { FakePages } from '../testing/fakePage.js';
import type { FrameInfo } from '../page/frames.js';
import { Worlds } from '../page/worlds.js';
import { MemoryStore } from '../refs/memoryStore.js';
import { RefRegistry } from '../refs/registry.js';
import { blockedFramesTab } from '../testing/blockedFrames.js';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { meanwhile, pointerTarget, sameSize } from './pointerDelivery.js';
import { described } from './interceptorIdentity.js';
import { interceptedError, notVisibleError, openRef } from './refAction.js';
import { runTool, withRefs } from '../testing/toolContext.js';

beforeAll(() => {
  (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
});

describe('sameSize: has a frame’s layout caught up with its iframe?', () => {
  it('accepts sizes within a pixel of rounding', () => {
    expect(sameSize({ width: 420, height: 220 }, { width: 420, height: 220 })).toBe(true);
    expect(sameSize({ width: 420, height: 220 }, { width: 419.5, height: 220.75 })).toBe(true);
  });

  it('rejects a frame still laid out at another size (e.g. the 300×150 default before its iframe was sized)', () => {
    expect(sameSize({ width: 300, height: 150 }, { width: 420, height: 220 })).toBe(false);
    expect(sameSize({ width: 0, height: 0 }, { width: 420, height: 220 })).toBe(false);
  });
});

describe('pointerTarget: a ref inside an iframe', () => {
  /** A tab whose ref e5 lives in a same-process iframe CHILD; the page API answers for both frames. */
  async function setup(viewports: { width: number; height: number }[], outOfProcess = false) {
    const env = createFakeEnvironment();
    const pages = new FakePages(env.debugger);
    const session = new MemoryStore();
    const registry = new RefRegistry(session);
    const worlds = new Worlds(session);
    const tabId = env.browser.addTab({ active: true, url: 'https://x.test/' }).id ?? 0;
    const prepared: PrepareClickOutcome[] = viewports.map((viewport, i) => ({ status: 'ok', x: 50 + i, y: 20, healed: false, hitTest: 'passed', viewport, token: `c${i}` }));
    let calls = 0;
    const page = pages.open(tabId, {
      prepareClick: () => prepared[Math.min(calls++, prepared.length - 1)] ?? { status: 'not_visible', healed: false },
      deliveryReport: (): GuardReport => ({ armed: true, events: [] }),
    });
    page.installed = true;
    page.children = [{ frameId: 'CHILD', loaderId: 'LC' }];
    const owner: FramePointOutcome = { status: 'ok', x: 300, y: 400, scrolled: false, content: { width: 420, height: 220 }, token: 'p1' };
    env.debugger
      .handle('DOM.getFrameOwner', () => ({ backendNodeId: 7 }))
      .handle('DOM.resolveNode', () => ({ object: { type: 'object', objectId: 'owner-1' } }))
      .handle('Runtime.callFunctionOn', () => ({ result: { type: 'object', value: owner } }));
    const child = { frameId: 'CHILD', loaderId: 'LC' };
    const frameList: FrameInfo[] = [
      { frameId: page.frameId, loaderId: page.loaderId, url: 'https://x.test/' },
      { ...child, url: 'https://y.test/', parentId: page.frameId },
    ];
    await registry.replaceTab(tabId, { frameId: page.frameId, loaderId: page.loaderId }, [{ ref: 'e5', role: 'button', name: 'Child', frame: child }]);
    const deps = { registry, worlds, frames: { list: () => Promise.resolve(frameList), hasOutOfProcessFrames: () => Promise.resolve(outOfProcess), blockList: () => Promise.resolve([]), blocking: () => Promise.resolve(undefined) } };
    // A screencast delivers its first frame at once, as Chrome does for a tab it can draw.
    env.debugger.handle('Page.startScreencast', (_params, tab) => {
      setTimeout(() => env.debugger.emit(tab, 'Page.screencastFrame', { data: '', sessionId: 1, metadata: {} }), 1);
      return {};
    });
    const paints = () => env.debugger.sent.filter((c) => c.method === 'Runtime.evaluate' && JSON.stringify(c.params).includes('api.twoFrames()')).length;
    const draws = () => env.debugger.methods().filter((m) => m === 'Page.startScreencast').length;
    return { ...env, ctx: { ...env.ctx, ...deps }, page, deps, tabId, paints, draws, prepareCalls: () => calls };
  }

  it('measures again, a paint apart, while the frame is laid out at another size than its iframe', async () => {
    const { ctx, prepareCalls, paints } = await setup([
      { width: 300, height: 150 },
      { width: 420, height: 220 },
    ]);
    const site = await openRef(await withRefs(ctx, 'e5'), 'e5');
    const point = await pointerTarget(ctx, site, { tool: 'click' }, 'click');
    expect(prepareCalls()).toBe(2);
    // The point of the second, settled measurement; mapped by the parent.
    expect(point.local).toEqual({ x: 51, y: 20 });
    expect({ x: point.x, y: point.y }).toEqual({ x: 300, y: 400 });
    expect(point.guards.map((guard) => guard.token)).toEqual(['c1', 'p1']);
    // One paint waited for between the two measurements; no out-of-process frame, no other wait.
    expect(paints()).toBe(1);
  });

  it('goes ahead after a bounded number of tries when the sizes never agree (the guards still catch a miss)', async () => {
    const { ctx, prepareCalls } = await setup([{ width: 300, height: 150 }]);
    const site = await openRef(await withRefs(ctx, 'e5'), 'e5');
    await pointerTarget(ctx, site, { tool: 'click' }, 'click');
    expect(prepareCalls()).toBe(4);
  });

  it('waits for the page to lay out and the browser to draw it in a tab with an out-of-process frame', async () => {
    const { ctx, paints, draws, debugger: dbg } = await setup([{ width: 420, height: 220 }], true);
    const site = await openRef(await withRefs(ctx, 'e5'), 'e5');
    await pointerTarget(ctx, site, { tool: 'click' }, 'click');
    expect(paints()).toBe(1);
    expect(draws()).toBe(1);
    // The paint first, then the draw, then the screencast is stopped again.
    const order = dbg.methods().filter((m) => m === 'Page.startScreencast' || m === 'Page.stopScreencast');
    expect(order).toEqual(['Page.startScreencast', 'Page.stopScreencast']);
  });

  it('waits for neither in a tab without one', async () => {
    const { ctx, paints, draws } = await setup([{ width: 420, height: 220 }]);
    const site = await openRef(await withRefs(ctx, 'e5'), 'e5');
    await pointerTarget(ctx, site, { tool: 'click' }, 'click');
    expect(paints()).toBe(0);
    expect(draws()).toBe(0);
  });
});

describe('pointerTarget: a point over the iframe of a blocked site', () => {
  it('fails site_blocked, ends its arming, and sends no input', async () => {
    const tab = blockedFramesTab({
      api: {
        prepareClick: () => ({ status: 'ok', x: 40, y: 30, healed: false, hitTest: 'passed', viewport: { width: 800, height: 600 }, token: 'g1', intoFrame: true }),
        deliveryReport: (): GuardReport => ({ armed: true, events: [] }),
      },
    });
    tab.page.objects.inputFrame = () => 'el:BANK';
    await tab.registry.replaceTab(tab.tabId, { frameId: tab.page.frameId, loaderId: tab.page.loaderId }, [{ ref: 'e5', role: 'generic', name: 'Card' }]);
    const site = await openRef(await withRefs(tab.ctx, 'e5'), 'e5');
    await expect(pointerTarget(tab.ctx, site, { tool: 'click' }, 'click')).rejects.toMatchObject({ details: { reason: 'site_blocked', ref: 'e5', x: 40, y: 30 } });
    expect(tab.page.calls.find((call) => call.method === 'deliveryReport')?.args).toMatchObject({ token: 'g1', disarm: true });
    expect(tab.inputEvents()).toEqual([]);
  });
});

describe('meanwhile: waiting for an element that gave way to be drawn again', () => {
  const toolbar = described({ tag: 'div', nodeName: 'DIV', candidate: 1, id: 'toolbar', className: '', role: '', name: 'Toolbar' });

  it('waits while it has no size', () => {
    expect(meanwhile(notVisibleError('click', 'e1', 3))).toBe(true);
  });

  it('does not wait out anything else: a cover that came meanwhile, past the edge, a click that was sent, a stale ref, a page that is gone', () => {
    expect(meanwhile(interceptedError('click', 'e1', 3, { x: 1, y: 2, healed: false, when: 'before_pointer', sent: false, interceptor: toolbar }))).toBe(false);
    expect(meanwhile(notVisibleError('click', 'e1', 3, true))).toBe(false);
    expect(meanwhile(interceptedError('click', 'e1', 3, { x: 1, y: 2, healed: false, when: 'after_pointer', sent: true, interceptor: toolbar }))).toBe(false);
    expect(meanwhile(reasonedError('stale_ref', 'navigated', 'Ref @e1 is gone.', { tool: 'click', phase: 'resolve' }))).toBe(false);
    expect(meanwhile(new RelayError('cdp_error', 'Target closed', { tool: 'click', phase: 'act' }))).toBe(false);
  });
});
