import { RelayError } from '@chrome-relay/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ArmPointOutcome, DeliveryArgs, GuardEvent, GuardReport, PrepareClickOutcome } from '../injected/types.js';
import { moveTo } from '../input/mouse.js';
import { Worlds } from '../page/worlds.js';
import { MemoryStore } from '../refs/memoryStore.js';
import { RefRegistry } from '../refs/registry.js';
import { NO_BLOCKED_FRAMES } from '../testing/blockedFrames.js';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { FakePages, type FakePageApi } from '../testing/fakePage.js';
import { click, hover, pointerAction, type PointAct, type PressAct } from './pointerAction.js';
import { enablePage, openRef } from './refAction.js';
import { runTool, withRefs } from '../testing/toolContext.js';
import { failure } from '../testing/failure.js';

beforeAll(() => {
  (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
});

const event = (type: string, phase: GuardEvent['phase'], ok = true): GuardEvent => ({ type, phase, ok });
const POINTER = [event('pointerover', 'pointer'), event('pointermove', 'pointer')];
const PRESS = [...POINTER, event('pointerdown', 'press'), event('mousedown', 'press')];
const CLICKED = [...PRESS, event('pointerup', 'release'), event('mouseup', 'release'), event('click', 'release')];
const aimed = (x: number, y: number, token = 't1'): PrepareClickOutcome => ({ status: 'ok', x, y, healed: false, hitTest: 'passed', viewport: { width: 800, height: 600 }, token });
const toolbar = { tag: 'div', nodeName: 'DIV', candidate: 2, id: 'toolbar', className: '', role: 'toolbar', name: 'Tools' };

/** A tab with refs e5 (and e6) in its top document; the page API is the test's. */
async function setup(api: FakePageApi) {
  const env = createFakeEnvironment();
  const pages = new FakePages(env.debugger);
  const session = new MemoryStore();
  const registry = new RefRegistry(session);
  const tabId = env.browser.addTab({ active: true, url: 'https://x.test/' }).id ?? 0;
  const page = pages.open(tabId, api);
  page.installed = true;
  await registry.replaceTab(tabId, { frameId: page.frameId, loaderId: page.loaderId }, [
    { ref: 'e5', role: 'button', name: 'Save' },
    { ref: 'e6', role: 'listitem', name: 'Drop here' },
  ]);
  const ctx = { ...env.ctx, registry, worlds: new Worlds(session), frames: NO_BLOCKED_FRAMES };
  const mouse = () => env.debugger.sent.filter((c) => c.method === 'Input.dispatchMouseEvent').map((c) => (c.params as { type: string }).type);
  const calls = (method?: string) => page.calls.filter((c) => method === undefined || c.method === method);
  return { ...env, ctx, pages, page, tabId, mouse, calls };
}

describe('pointerAction: a click on a ref', () => {
  it('aims (arming the guard for the click), sends, reads the press before the release and the whole click after it', async () => {
    const { ctx, calls, mouse } = await setup({ prepareClick: () => aimed(40, 12), deliveryReport: (args) => ({ armed: true, events: args.disarm ? CLICKED : PRESS }) });
    const done = await pointerAction(ctx, { ref: await openRef(await withRefs(ctx, 'e5'), 'e5') }, click('click'));
    expect(done).toMatchObject({ x: 40, y: 12, healed: false });
    expect(calls('prepareClick')[0]?.args).toEqual({ ref: 'e5', arm: ['pointer', 'press', 'release'] });
    expect(calls('deliveryReport').map((c) => (c.args as DeliveryArgs).disarm)).toEqual([false, true]);
    expect(mouse()).toEqual(['mouseMoved', 'mousePressed', 'mouseReleased']);
  });

  it('says what a press that visibly acted did, when the release then went elsewhere (releaseHeld)', async () => {
    const listbox = { tag: 'ul', nodeName: 'UL', candidate: 4, id: '', className: '', role: 'listbox', name: '' };
    const report = (args: DeliveryArgs): GuardReport =>
      args.disarm ? { armed: true, events: [...PRESS, event('pointerup', 'release', false)], interceptor: listbox, acted: { what: 'opened', popup: { role: 'listbox', name: 'Fruit' } } } : { armed: true, events: PRESS };
    const { ctx } = await setup({ prepareClick: () => aimed(40, 12), deliveryReport: report });
    const done = await pointerAction(ctx, { ref: await openRef(await withRefs(ctx, 'e5'), 'e5') }, click('click'));
    expect(done).toMatchObject({ acted: { what: 'opened' }, releaseHeld: true });
  });

  it('clicks again, aimed anew, when the element gave way under the arriving pointer, and answers with the point that landed', async () => {
    let looks = 0;
    let reads = 0;
    const { ctx, mouse } = await setup({
      prepareClick: () => aimed(40, ++looks === 1 ? 12 : 30, `t${looks}`),
      deliveryReport: (args): GuardReport => {
        if (!args.disarm) return { armed: true, events: args.token === 't1' ? [] : PRESS };
        reads++;
        return args.token === 't1' ? { armed: true, events: [event('pointerover', 'pointer', false)], interceptor: toolbar, gaveWay: true } : { armed: true, events: CLICKED };
      },
    });
    const done = await pointerAction(ctx, { ref: await openRef(await withRefs(ctx, 'e5'), 'e5') }, click('click'));
    expect(done).toMatchObject({ x: 40, y: 30 });
    expect(looks).toBe(2);
    expect(reads).toBe(2);
    expect(mouse()).toEqual(['mouseMoved', 'mousePressed', 'mouseReleased', 'mouseMoved', 'mousePressed', 'mouseReleased']);
  });

  it('an element that keeps giving way is click_intercepted (gaveWay), after a bounded number of attempts', async () => {
    let looks = 0;
    const { ctx } = await setup({
      prepareClick: () => aimed(40, 12, `t${++looks}`),
      deliveryReport: (args): GuardReport => (args.disarm ? { armed: true, events: [event('pointerover', 'pointer', false)], interceptor: toolbar, gaveWay: true } : { armed: true, events: [] }),
    });
    const error = await failure(pointerAction(ctx, { ref: await openRef(await withRefs(ctx, 'e5'), 'e5') }, click('click', { clickCount: 2 })));
    expect(error.code).toBe('click_intercepted');
    expect(error.details).toMatchObject({ gaveWay: true, when: 'before_pointer' });
    expect(error.message).toMatch(/^Double-click on @e5 was not delivered: it gave way/);
    expect(looks).toBeGreaterThan(1);
    expect(looks).toBeLessThanOrEqual(9);
  });

  it('input that fails ends the arming before the error goes up', async () => {
    const { ctx, calls, debugger: dbg } = await setup({ prepareClick: () => aimed(40, 12), deliveryReport: () => ({ armed: true, events: [] }) });
    dbg.handle('Input.dispatchMouseEvent', () => {
      throw new RelayError('cdp_error', 'Input.dispatchMouseEvent failed', { phase: 'act' });
    });
    const error = await failure(pointerAction(ctx, { ref: await openRef(await withRefs(ctx, 'e5'), 'e5') }, click('click')));
    expect(error.code).toBe('cdp_error');
    expect(calls('deliveryReport').map((c) => c.args)).toEqual([{ token: 't1', disarm: true }]);
  });

  it('a dialog the click opened is the answer when the press reached the element; one whose press went astray is click_intercepted', async () => {
    const dialog = { type: 'alert' as const, message: 'Saved', url: 'https://x.test/' };
    const opened = async () => ({ dialog });
    for (const [events, code] of [
      [PRESS, undefined],
      [[event('pointerdown', 'press', false)], 'click_intercepted'],
    ] as const) {
      const { ctx } = await setup({ prepareClick: () => aimed(40, 12), deliveryReport: () => ({ armed: true, events: [...events], ...(code === undefined ? {} : { interceptor: toolbar }) }) });
      const run = async (work: () => Promise<void>) => {
        await work();
        return opened();
      };
      const outcome = pointerAction(ctx, { ref: await openRef(await withRefs(ctx, 'e5'), 'e5') }, click('click', {}, run));
      if (code === undefined) expect(await outcome).toMatchObject({ dialog });
      else expect((await failure(outcome)).code).toBe(code);
    }
  });

  it('a document replaced before the record could be read: the press decides, and with no press record the click may have happened', async () => {
    const pressedThenGone = await setup({ prepareClick: () => aimed(40, 12) });
    pressedThenGone.page.api.deliveryReport = () => {
      pressedThenGone.pages.navigate(pressedThenGone.tabId);
      return { armed: true, events: PRESS };
    };
    const site = await openRef(await withRefs(pressedThenGone.ctx, 'e5'), 'e5');
    expect(await pointerAction(pressedThenGone.ctx, { ref: site }, click('click'))).toMatchObject({ x: 40, y: 12 });

    const goneAtPress = await setup({ prepareClick: () => aimed(40, 12), deliveryReport: () => ({ armed: true, events: PRESS }) });
    const other = await openRef(await withRefs(goneAtPress.ctx, 'e5'), 'e5');
    goneAtPress.debugger.handle('Input.dispatchMouseEvent', (params) => {
      if ((params as { type: string }).type === 'mousePressed') goneAtPress.pages.navigate(goneAtPress.tabId);
      return {};
    });
    const error = await failure(pointerAction(goneAtPress.ctx, { ref: other }, click('click')));
    expect(error.code).toBe('stale_ref');
    expect(error.details).toMatchObject({ reason: 'navigated' });
    expect(error.retryable).toBe(false);
  });
});

describe('pointerAction: a click at a point', () => {
  const target = { tag: 'button', nodeName: 'BUTTON', candidate: 1, id: 'go', className: '', role: 'button', name: 'Go' };
  const arm = (): ArmPointOutcome => ({ status: 'ok', token: 'p1', target, frame: false });

  it('arms for what is there, clicks, and names it', async () => {
    const { ctx, tabId, calls, mouse } = await setup({ armPoint: arm, deliveryReport: (args) => ({ armed: true, events: args.disarm ? CLICKED : PRESS }) });
    const before = await enablePage(ctx, tabId);
    const done = await pointerAction(ctx, { point: { tabId, before, x: 10, y: 20 } }, click('click'));
    expect(done).toMatchObject({ tabId, x: 10, y: 20, healed: false, target: { id: 'go' } });
    expect(calls('armPoint')[0]?.args).toEqual({ x: 10, y: 20, arm: ['pointer', 'press', 'release'], purpose: 'click' });
    expect(mouse()).toEqual(['mouseMoved', 'mousePressed', 'mouseReleased']);
  });

  it('is never aimed again when what was there gave way: a point names whatever is there', async () => {
    const { ctx, tabId, calls } = await setup({
      armPoint: arm,
      deliveryReport: (args): GuardReport => (args.disarm ? { armed: true, events: [event('pointerover', 'pointer', false)], interceptor: toolbar, gaveWay: true } : { armed: true, events: [] }),
    });
    const before = await enablePage(ctx, tabId);
    const error = await failure(pointerAction(ctx, { point: { tabId, before, x: 10, y: 20 } }, click('click')));
    expect(error.code).toBe('click_intercepted');
    expect(error.details).toMatchObject({ gaveWay: true, x: 10, y: 20 });
    expect(calls('armPoint')).toHaveLength(1);
  });

  it('a hover is only ever aimed at a ref', async () => {
    const { ctx, tabId } = await setup({ armPoint: arm });
    const before = await enablePage(ctx, tabId);
    expect((await failure(pointerAction(ctx, { point: { tabId, before, x: 1, y: 2 } }, hover('hover')))).code).toBe('internal_error');
  });
});

describe('pointerAction: the action is a parameter', () => {
  it('any input a tool sends is aimed, proven and disarmed the same way (here a bare move, judged like a hover)', async () => {
    const { ctx, calls, mouse } = await setup({ prepareClick: () => aimed(7, 8), deliveryReport: () => ({ armed: true, events: POINTER, probe: { reaches: true, hovered: true } }) });
    const sent: { x: number; y: number }[] = [];
    const glide: PointAct = {
      tool: 'hover',
      checks: 'hover',
      send: async (c, at) => {
        sent.push({ x: at.input.x, y: at.input.y });
        await moveTo(c, at.landed, at.input.target, at.input.x, at.input.y);
      },
    };
    expect(await pointerAction(ctx, { ref: await openRef(await withRefs(ctx, 'e5'), 'e5') }, glide)).toMatchObject({ x: 7, y: 8 });
    expect(sent).toEqual([{ x: 7, y: 8 }]);
    expect(mouse()).toEqual(['mouseMoved']);
    expect(calls('deliveryReport').map((c) => c.args)).toEqual([{ token: 't1', disarm: true, probe: { x: 7, y: 8 } }]);
  });
});

describe('pointerAction: the ends of a drag', () => {
  function press(sent: string[], extra: Partial<PressAct> = {}): PressAct {
    return {
      tool: 'drag',
      checks: 'press',
      send: async () => {
        sent.push('press');
      },
      letGo: async () => {
        sent.push('let go');
      },
      ...extra,
    };
  }

  it('a press that went elsewhere is let go while the guard still holds, then disarmed, then click_intercepted', async () => {
    const order: string[] = [];
    const { ctx } = await setup({
      prepareClick: () => aimed(40, 12),
      deliveryReport: (args): GuardReport => {
        order.push(args.disarm ? 'disarm' : 'read');
        return { armed: true, events: [event('pointerdown', 'press', false)], interceptor: toolbar };
      },
    });
    const error = await failure(pointerAction(ctx, { ref: await openRef(await withRefs(ctx, 'e5'), 'e5') }, press(order)));
    expect(error.code).toBe('click_intercepted');
    expect(order).toEqual(['press', 'read', 'let go', 'disarm']);
  });

  it('finds the drop target with the source, aims the source again after it (finding it may scroll), and holds both still', async () => {
    let sourceLooks = 0;
    const { ctx, calls } = await setup({
      prepareClick: (args) => (args.ref === 'e5' ? aimed(40, ++sourceLooks === 1 ? 12 : 50, `s${sourceLooks}`) : aimed(300, 400, 'd')),
      deliveryReport: () => ({ armed: true, events: PRESS }),
    });
    const order: string[] = [];
    const pressed = await pointerAction(ctx, { ref: await openRef(await withRefs(ctx, 'e5'), 'e5') }, press(order, { with: { ref: await openRef(await withRefs(ctx, 'e6'), 'e6') } }));
    // Moved once (12 → 50), then held still: source, target, source, target, source.
    expect(calls('prepareClick').map((c) => (c.args as { ref: string }).ref)).toEqual(['e5', 'e6', 'e5', 'e6', 'e5']);
    expect(pressed).toMatchObject({ at: { x: 40, y: 50 }, companion: { x: 300, y: 400 } });
    expect(order).toEqual(['press']);
  });

  it('source and target that never hold still together are refused before anything is pressed', async () => {
    let looks = 0;
    const { ctx } = await setup({ prepareClick: (args) => aimed(40, args.ref === 'e5' ? ++looks * 10 : 400), deliveryReport: () => ({ armed: true, events: PRESS }) });
    const order: string[] = [];
    const error = await failure(pointerAction(ctx, { ref: await openRef(await withRefs(ctx, 'e5'), 'e5') }, press(order, { with: { ref: await openRef(await withRefs(ctx, 'e6'), 'e6') } })));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toContain('do not fit in the viewport together');
    expect(order).toEqual([]);
  });

  it('a drop whose target cannot be armed lets the button go; one whose moves fail ends the drop arming', async () => {
    const { ctx } = await setup({ armPoint: () => ({ status: 'stale', reason: 'vanished' }), deliveryReport: () => ({ armed: true, events: [] }) });
    const source = await openRef(await withRefs(ctx, 'e5'), 'e5');
    const target = await openRef(await withRefs(ctx, 'e6'), 'e6');
    let abandoned = false;
    const error = await failure(
      pointerAction(
        ctx,
        { drop: { source, target, at: { x: 300, y: 400 } } },
        {
          tool: 'drag',
          checks: 'drop',
          send: async () => undefined,
          abandon: async () => {
            abandoned = true;
          },
        },
      ),
    );
    expect(error.code).toBe('stale_ref');
    expect(abandoned).toBe(true);

    const armed = await setup({ armPoint: () => ({ status: 'ok', token: 'd1', target: toolbar, frame: false }), deliveryReport: () => ({ armed: true, events: [] }) });
    const from = await openRef(await withRefs(armed.ctx, 'e5'), 'e5');
    const moves = pointerAction(
      armed.ctx,
      { drop: { source: from, target: undefined, at: { x: 300, y: 400 } } },
      {
        tool: 'drag',
        checks: 'drop',
        send: () => Promise.reject(new RelayError('cdp_error', 'gone', { phase: 'act' })),
        abandon: async () => undefined,
      },
    );
    expect((await failure(moves)).code).toBe('cdp_error');
    expect(armed.calls('deliveryReport').map((c) => c.args)).toEqual([{ token: 'd1', disarm: true }]);
  });
});
