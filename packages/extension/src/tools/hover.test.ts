import { beforeAll, describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import type { DeliveryArgs, GuardReport } from '../injected/types.js';
import { FakePages } from '../testing/fakePage.js';
import { Worlds } from '../page/worlds.js';
import { MemoryStore } from '../refs/memoryStore.js';
import { RefRegistry } from '../refs/registry.js';
import { NO_BLOCKED_FRAMES } from '../testing/blockedFrames.js';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { hoverTool } from './hover.js';
import { runTool } from '../testing/toolContext.js';
import type { PointerContext } from '../actions/toolContext.js';
import { Recorder } from '../capture/recorder.js';
import { unmasked } from '../capture/recordMask.js';
import { TabDrawing } from '../capture/screencast.js';
import { MainFrames } from '../page/mainFrames.js';
import { DialogTracker } from '../pageState/dialogs.js';
import { RefCounter } from '../refs/counter.js';

beforeAll(() => {
  (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
});

async function setup(report: (args: DeliveryArgs) => GuardReport) {
  const env = createFakeEnvironment();
  const pages = new FakePages(env.debugger);
  const session = new MemoryStore();
  const registry = new RefRegistry(session);
  const drawing = new TabDrawing();
  // What hover uses (its entry's `uses`: the pointer path's services), and nothing else.
  const ctx: PointerContext = {
    cdp: env.cdp,
    browser: env.browser,
    deadline: Date.now() + 5_000,
    target: { kind: 'none' },
    refs: new Map(),
    registry,
    worlds: new Worlds(session),
    frames: NO_BLOCKED_FRAMES,
    mainFrames: new MainFrames(env.cdp),
    dialogs: new DialogTracker(env.cdp, env.browser),
    counter: new RefCounter(new MemoryStore()),
    recorder: new Recorder(unmasked, drawing),
    drawing,
  };
  const tabId = env.browser.addTab({ active: true, url: 'https://x.test/' }).id ?? 0;
  const page = pages.open(tabId, {
    prepareClick: () => ({ status: 'ok', x: 30, y: 40, healed: false, hitTest: 'passed', viewport: { width: 800, height: 600 }, token: 'h1' }),
    deliveryReport: report,
  });
  page.installed = true;
  await registry.replaceTab(tabId, { frameId: page.frameId, loaderId: page.loaderId }, [{ ref: 'e5', role: 'button', name: 'Menu' }]);
  return { ...env, ctx, page, tool: hoverTool, tabId };
}

const moved = [
  { type: 'pointerover', phase: 'pointer' as const, ok: true },
  { type: 'pointermove', phase: 'pointer' as const, ok: true },
];

describe('hover tool', () => {
  it('moves with input unbuffered (no wait for an animation frame) and restores the page afterwards', async () => {
    const { tool, ctx, debugger: dbg, page } = await setup(() => ({ armed: true, events: moved, probe: { reaches: true, hovered: true } }));
    const result = await runTool(tool, { ref: 'e5' }, ctx);
    expect(result).toMatchObject({ ref: 'e5', x: 30, y: 40 });
    const methods = dbg.methods().filter((m) => /^(DOM|Overlay)\.|Input\./.test(m));
    expect(methods).toEqual(['DOM.enable', 'Overlay.enable', 'Input.dispatchMouseEvent', 'Overlay.disable', 'DOM.disable']);
    expect(page.calls.map((c) => c.method)).toEqual(['prepareClick', 'deliveryReport']);
    expect(page.calls[1]?.args).toEqual({ token: 'h1', disarm: true, probe: { x: 30, y: 40 } });
  });

  it('an overlay that took the point once the pointer arrived is click_intercepted (after_pointer), not a success', async () => {
    const ad = { tag: 'div', nodeName: 'DIV', candidate: 1, id: 'gate', className: '', role: 'generic', name: 'Interstitial ad' };
    const { tool, ctx } = await setup(() => ({ armed: true, events: moved, probe: { reaches: false, hovered: true, hit: ad } }));
    const error = await runTool(tool, { ref: 'e5' }, ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).code).toBe('click_intercepted');
    expect((error as RelayError).details).toMatchObject({ when: 'after_pointer', interceptor: { nodeName: 'DIV', id: 'gate', name: 'Interstitial ad' } });
  });
});
