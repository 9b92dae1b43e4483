import { beforeAll, describe, expect, it } from 'vitest';
import { parseParams, RelayError } from '@chrome-relay/protocol';
import type { ArmPointOutcome, DeliveryArgs, GuardEvent, GuardReport, PrepareClickOutcome } from '../injected/types.js';
import { FakePages } from '../testing/fakePage.js';
import { Worlds } from '../page/worlds.js';
import { COUNTER_KEY, RefCounter } from '../refs/counter.js';
import { MemoryStore } from '../refs/memoryStore.js';
import { RefRegistry } from '../refs/registry.js';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { clickTool } from './click.js';
import { described } from '../actions/interceptorIdentity.js';
import { runTool } from '../testing/toolContext.js';
import { failure } from '../testing/failure.js';

beforeAll(() => {
  (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
});

const record = { ref: 'e5', role: 'button', name: 'Save' };

const event = (type: string, phase: GuardEvent['phase'], ok = true): GuardEvent => ({ type, phase, ok });
/** What the page's guard logs for a click that reached the element. */
const DELIVERED: GuardEvent[] = [
  event('pointerover', 'pointer'),
  event('pointermove', 'pointer'),
  event('pointerdown', 'press'),
  event('mousedown', 'press'),
  event('pointerup', 'release'),
  event('mouseup', 'release'),
  event('click', 'release'),
];
const ok = (x: number, y: number, healed = false): PrepareClickOutcome => ({ status: 'ok', x, y, healed, hitTest: 'passed', viewport: { width: 800, height: 600 }, token: 't1' });

async function setup(outcome: PrepareClickOutcome | (() => PrepareClickOutcome), report: (args: DeliveryArgs) => GuardReport = () => ({ armed: true, events: DELIVERED })) {
  const env = createFakeEnvironment();
  const pages = new FakePages(env.debugger);
  const session = new MemoryStore();
  const registry = new RefRegistry(session);
  const worlds = new Worlds(session);
  const local = new MemoryStore();
  await local.set({ [COUNTER_KEY]: 40 });
  const counter = new RefCounter(local);
  const tool = clickTool;
  const ctx = { ...env.ctx, registry, worlds, counter, navigation: { handlingMs: 50, commitMs: 50 } };
  const tabId = env.browser.addTab({ active: true, url: 'https://x.test/' }).id ?? 0;
  const page = pages.open(tabId, { prepareClick: typeof outcome === 'function' ? outcome : () => outcome, deliveryReport: report });
  page.installed = true;
  await registry.replaceTab(tabId, { frameId: page.frameId, loaderId: page.loaderId }, [record]);
  return { ...env, ctx, pages, page, registry, tool, tabId, local };
}

const mouse = (methods: string[]): string[] => methods.filter((m) => m === 'Input.dispatchMouseEvent');

describe('click tool: arguments', () => {
  it.each([
    [{}, 'ref'],
    [{ ref: 'e5', x: 1, y: 2 }, 'ref'],
    [{ x: 10 }, 'y'],
    [{ y: 10 }, 'x'],
  ])('%j is invalid_arguments naming %s, from the schema alone (the tool never sees it)', (params, field) => {
    let error: unknown;
    try {
      parseParams('click', params);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).code).toBe('invalid_arguments');
    expect((error as RelayError).details.field).toBe(field);
  });
});

describe('click tool: by ref', () => {
  it('looks again once the page has drawn after scrolling the element into view, until it stays, and clicks where it is then', async () => {
    // A list scrolled to the element answers the scroll a frame later (its scroll-up button appears, the items shift).
    let looks = 0;
    const { tool, ctx, debugger: dbg } = await setup(() => (++looks === 1 ? { ...ok(40, 300), scrolled: true } : ok(40, 325)));
    const result = await runTool(tool, { ref: 'e5' }, ctx);
    expect(looks).toBe(3);
    expect(result).toMatchObject({ x: 40, y: 325 });
    const presses = dbg.sent.filter((c) => c.method === 'Input.dispatchMouseEvent').map((c) => c.params);
    expect(presses[1]).toMatchObject({ type: 'mousePressed', x: 40, y: 325 });
  });

  it('clicks at the point the page proved, with no --tab needed', async () => {
    const { tool, ctx, tabId, debugger: dbg } = await setup(ok(40.5, 12, true));
    const result = await runTool(tool, { ref: 'e5' }, ctx);
    expect(result).toEqual({ clicked: true, tabId, ref: 'e5', x: 40.5, y: 12, healed: true, navigated: false, url: 'https://x.test/' });
    const presses = dbg.sent.filter((c) => c.method === 'Input.dispatchMouseEvent').map((c) => c.params);
    expect(presses).toHaveLength(3);
    expect(presses[1]).toMatchObject({ type: 'mousePressed', x: 40.5, y: 12 });
  });

  it('a covered element is click_intercepted, with the interceptor identified, and NO mouse event is sent', async () => {
    const interceptor = { tag: 'div', nodeName: 'DIV', candidate: 3, id: 'modal', className: 'overlay', role: 'generic', name: 'We use cookies', ref: 'e9' };
    const { tool, ctx, page, debugger: dbg } = await setup({ status: 'intercepted', x: 5, y: 6, healed: false, interceptor, look: '0,0,100,40@1.000' });
    page.objects.element = (args) => ((args as { ref: string }).ref === 'e9' ? 'obj:modal' : null);
    dbg.handle('DOM.describeNode', (params) => ({ node: { nodeId: 0, backendNodeId: (params as { objectId: string }).objectId === 'obj:modal' ? 1042 : 0, nodeType: 1, nodeName: 'DIV', localName: 'div', nodeValue: '' } }));
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.code).toBe('click_intercepted');
    // The reference's shape: nodeName and backendNodeId; its ref as it already had one (nothing adopted).
    expect(error.details).toMatchObject({ ref: 'e5', interceptor: { nodeName: 'DIV', backendNodeId: 1042, ref: 'e9', id: 'modal', role: 'generic', name: 'We use cookies' } });
    expect(error.details.interceptor).not.toHaveProperty('candidate');
    expect(page.calls.map((c) => c.method)).not.toContain('adopt');
    expect(error.message).toContain('`chrome-relay snapshot -s @e9` shows it');
    expect(mouse(dbg.methods())).toEqual([]);
  });

  it('a covering element without a ref is given one on the spot: counter first, then the page, then the registry', async () => {
    const interceptor = { tag: 'div', nodeName: 'DIV', candidate: 3, id: 'banner', className: '', role: '', name: 'We use cookies' };
    const { tool, ctx, page, registry, local, tabId, debugger: dbg } = await setup({ status: 'intercepted', x: 5, y: 6, healed: false, interceptor, look: '0,0,100,40@1.000' });
    page.api.adopt = (args) => ({ status: 'ok', ref: args.ref, role: 'generic', name: 'We use cookies', adopted: true });
    page.objects.element = (args) => ((args as { ref: string }).ref === 'e40' ? 'obj:banner' : null);
    dbg.handle('DOM.describeNode', () => ({ node: { nodeId: 0, backendNodeId: 77, nodeType: 1, nodeName: 'DIV', localName: 'div', nodeValue: '' } }));
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.details).toMatchObject({ interceptor: { nodeName: 'DIV', backendNodeId: 77, ref: 'e40', id: 'banner' } });
    expect(page.calls.find((c) => c.method === 'adopt')?.args).toEqual({ candidate: 3, ref: 'e40' });
    // The number is taken for good before the page binds it, and the ref carries its tab like any other.
    expect((await local.get([COUNTER_KEY]))[COUNTER_KEY]).toBe(41);
    expect(await registry.lookup('e40')).toMatchObject({ state: 'live', tabId, record: { ref: 'e40', role: 'generic', name: 'We use cookies' } });
    expect(await registry.lookup('e5')).toMatchObject({ state: 'live', tabId });
    expect(error.message).toContain('(@e40)');
  });

  it('identifying is best effort: a page that cannot bind the ref still gets click_intercepted with what it said', async () => {
    const interceptor = { tag: 'div', nodeName: 'DIV', candidate: 3, id: 'banner', className: '', role: '', name: 'We use cookies' };
    const { tool, ctx, page } = await setup({ status: 'intercepted', x: 5, y: 6, healed: false, interceptor, look: '0,0,100,40@1.000' });
    page.api.adopt = () => ({ status: 'gone' });
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.code).toBe('click_intercepted');
    expect(error.details.interceptor).toEqual({ nodeName: 'DIV', id: 'banner', name: 'We use cookies' });
  });

  it('waits while what covers the element is still moving or fading, then clicks once it is gone', async () => {
    const interceptor = { tag: 'div', nodeName: 'DIV', candidate: 3, id: 'picker', className: '', role: '', name: 'August 2016' };
    // A picker fading out: three looks, each more transparent, then nothing covers the button.
    const looks = ['0,0,100,40@0.900', '0,0,100,40@0.500', '0,0,100,40@0.100'];
    const outcome = (): PrepareClickOutcome => {
      const look = looks.shift();
      return look === undefined ? ok(40, 12) : { status: 'intercepted', x: 40, y: 12, healed: false, interceptor, look };
    };
    const { tool, ctx, page, debugger: dbg } = await setup(outcome);
    const result = await runTool(tool, { ref: 'e5' }, ctx);
    expect(result).toMatchObject({ clicked: true, ref: 'e5' });
    expect(page.calls.filter((c) => c.method === 'prepareClick')).toHaveLength(4);
    expect(mouse(dbg.methods())).toHaveLength(3);
  });

  it('a cover that holds still is the answer after one more look, nothing sent', async () => {
    const interceptor = { tag: 'div', nodeName: 'DIV', candidate: 3, id: 'modal', className: '', role: '', name: 'We use cookies' };
    const { tool, ctx, page, debugger: dbg } = await setup({ status: 'intercepted', x: 5, y: 6, healed: false, interceptor, look: '0,0,800,600@0.500' });
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.code).toBe('click_intercepted');
    expect(page.calls.filter((c) => c.method === 'prepareClick')).toHaveLength(2);
    expect(mouse(dbg.methods())).toEqual([]);
  });

  it('a cover that never stops moving (an endless animation) is reported once the wait is spent', async () => {
    const interceptor = { tag: 'div', nodeName: 'DIV', candidate: 3, id: 'spinner', className: '', role: '', name: '' };
    let turn = 0;
    const { tool, ctx, page, debugger: dbg } = await setup(() => ({ status: 'intercepted', x: 5, y: 6, healed: false, interceptor, look: `0,0,10,10@${(turn++ % 10) / 10}` }));
    // A call that is nearly out of time does not spend it waiting for the cover.
    const error = await failure(runTool(tool, { ref: 'e5' }, { ...ctx, deadline: Date.now() + 1200 }));
    expect(error.code).toBe('click_intercepted');
    expect(page.calls.filter((c) => c.method === 'prepareClick').length).toBeGreaterThanOrEqual(1);
    expect(mouse(dbg.methods())).toEqual([]);
  });

  it.each(['vanished', 'ambiguous', 'changed', 'unknown_ref'] as const)('a page verdict of stale (%s) is stale_ref, nothing clicked', async (reason) => {
    const { tool, ctx, debugger: dbg, tabId } = await setup({ status: 'stale', reason });
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.code).toBe('stale_ref');
    expect(error.details).toEqual({ ref: 'e5', reason, tab: tabId });
    expect(mouse(dbg.methods())).toEqual([]);
  });

  it('an element with no box is element_not_found (not_visible)', async () => {
    const { tool, ctx } = await setup({ status: 'not_visible', healed: false });
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.code).toBe('element_not_found');
    expect(error.details.reason).toBe('not_visible');
  });

  it('a different document in the tab makes the ref stale (navigated) without asking the page', async () => {
    const { tool, ctx, pages, page, tabId, registry } = await setup(ok(1, 1));
    pages.navigate(tabId);
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.code).toBe('stale_ref');
    expect(error.details.reason).toBe('navigated');
    expect(page.calls).toEqual([]);
    expect(await registry.lookup('e5')).toEqual({ state: 'navigated', tabId });
  });

  it('reports navigated and kills the tab’s refs when the click commits a navigation', async () => {
    const env = await setup(ok(1, 1));
    const { tool, ctx, pages, page, tabId, registry, debugger: dbg } = env;
    dbg.handle('Input.dispatchMouseEvent', (params) => {
      if ((params as { type: string }).type === 'mouseReleased') {
        const oldFrame = page.frameId;
        dbg.emit(tabId, 'Page.frameRequestedNavigation', { frameId: oldFrame, reason: 'anchorClick', url: 'https://y.test/', disposition: 'currentTab' });
        setTimeout(() => {
          pages.navigate(tabId);
          dbg.emit(tabId, 'Page.frameNavigated', { frame: { id: oldFrame, loaderId: page.loaderId, url: 'https://y.test/' }, type: 'Navigation' });
        }, 5);
      }
      return {};
    });
    const result = await runTool(tool, { ref: 'e5' }, ctx);
    expect(result.navigated).toBe(true);
    expect(await registry.lookup('e5')).toEqual({ state: 'navigated', tabId });
  });
});

describe('click tool: a context id that names another document after a cross-process navigation', () => {
  // Context ids are unique only within a renderer process: a link into another site can leave the old world's id
  // naming a context of the new document, where the guard knows no arming (armed: false, nothing seen).
  for (const [label, ours] of [
    ['with no page script there', false],
    ['with our page script there (another stamp)', true],
  ] as const) {
    it(`the click that navigated is reported as such, never as not delivered (${label}); nothing runs in the new document`, async () => {
      let moved = false;
      const env = await setup(ok(1, 1), () => (moved ? { armed: false, events: [] } : { armed: true, events: DELIVERED }));
      const { tool, ctx, pages, page, tabId, debugger: dbg } = env;
      let callsBefore = 0;
      dbg.handle('Input.dispatchMouseEvent', (params) => {
        if ((params as { type: string }).type === 'mouseReleased') {
          dbg.emit(tabId, 'Page.frameRequestedNavigation', { frameId: page.frameId, reason: 'anchorClick', url: 'https://y.test/', disposition: 'currentTab' });
          pages.navigate(tabId, { sameContextId: true });
          if (ours) pages.install(tabId);
          moved = true;
          callsBefore = page.calls.length;
          dbg.emit(tabId, 'Page.frameNavigated', { frame: { id: page.frameId, loaderId: page.loaderId, url: 'https://y.test/' }, type: 'Navigation' });
        }
        return {};
      });
      const result = await runTool(tool, { ref: 'e5' }, ctx);
      expect(result).toMatchObject({ clicked: true, navigated: true });
      expect(page.calls.slice(callsBefore)).toEqual([]);
      expect(page.installed).toBe(ours);
    });
  }
});

describe('click tool: delivery is verified, not just predicted', () => {
  const decoy = { tag: 'button', nodeName: 'BUTTON', candidate: 1, id: 'decoy', className: '', role: '', name: 'Decoy' };

  it('arms the guard with the hit-test, reads the press before the release and the whole click after it', async () => {
    const { tool, ctx, page, debugger: dbg } = await setup(ok(10, 20));
    const order: string[] = [];
    dbg.handle('Input.dispatchMouseEvent', (params) => {
      order.push((params as { type: string }).type);
      return {};
    });
    const calls = page.calls;
    const original = page.api.deliveryReport;
    page.api.deliveryReport = (args) => {
      order.push(`report(disarm=${String(args.disarm)})`);
      return original === undefined ? { armed: false, events: [] } : original(args);
    };
    await runTool(tool, { ref: 'e5' }, ctx);
    expect(calls[0]).toEqual({ method: 'prepareClick', args: { ref: 'e5', arm: ['pointer', 'press', 'release'] } });
    expect(order).toEqual(['mouseMoved', 'mousePressed', 'report(disarm=false)', 'mouseReleased', 'report(disarm=true)']);
  });

  it('a press that went to another element is click_intercepted naming it, with when, never a success', async () => {
    const { tool, ctx } = await setup(ok(10, 20), () => ({
      armed: true,
      events: [event('pointerover', 'pointer'), event('pointermove', 'pointer'), event('pointerdown', 'press', false)],
      interceptor: decoy,
    }));
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.code).toBe('click_intercepted');
    expect(error.details).toMatchObject({ ref: 'e5', when: 'after_pointer', interceptor: described(decoy), x: 10, y: 20 });
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('Decoy');
  });

  it('a release that went elsewhere after the element got the press is on_press, and says to check the page', async () => {
    const { tool, ctx } = await setup(ok(10, 20), () => ({
      armed: true,
      events: [event('pointerdown', 'press'), event('mousedown', 'press'), event('pointerup', 'release', false)],
      interceptor: decoy,
    }));
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.details).toMatchObject({ when: 'on_press', interceptor: described(decoy) });
    expect(error.message).toMatch(/check the page/);
  });

  it('a press the page never saw is not a success: the point is probed to name what is there', async () => {
    const probed: DeliveryArgs[] = [];
    const { tool, ctx } = await setup(ok(10, 20), (args) => {
      probed.push(args);
      return args.probe === undefined ? { armed: true, events: [] } : { armed: true, events: [], probe: { reaches: false, hovered: false, hit: decoy } };
    });
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.code).toBe('click_intercepted');
    expect(error.details).toMatchObject({ when: 'before_pointer', interceptor: described(decoy) });
    expect(probed.at(-1)?.probe).toEqual({ x: 10, y: 20 });
  });

  it('a log another arming replaced is neither a success nor "not delivered": input_overlap, it may have happened', async () => {
    // What the page reports when input chrome-relay did not queue armed its guard in between (the click's own
    // events may then sit in the other arming's log).
    const { tool, ctx } = await setup(ok(10, 20), () => ({ armed: true, superseded: true, events: DELIVERED.slice(0, 2) }));
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.code).toBe('target_conflict');
    expect(error.details).toMatchObject({ reason: 'input_overlap' });
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/may have happened/);
  });

  it('a disabled control is refused before any input (the browser would deliver no press)', async () => {
    const { tool, ctx, debugger: dbg } = await setup({ status: 'disabled', healed: false });
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toMatch(/disabled/);
    expect(mouse(dbg.methods())).toEqual([]);
  });

  it('a hit-test refusal says nothing was sent: when before_pointer, phase act', async () => {
    const interceptor = { tag: 'div', nodeName: 'DIV', candidate: 1, id: 'modal', className: '', role: '', name: 'Cookies' };
    const { tool, ctx } = await setup({ status: 'intercepted', x: 5, y: 6, healed: false, interceptor, look: '0,0,100,40@1.000' });
    const error = await failure(runTool(tool, { ref: 'e5' }, ctx));
    expect(error.details).toMatchObject({ when: 'before_pointer', interceptor: described(interceptor) });
    expect(error.phase).toBe('act');
  });
});

describe('click tool: by coordinates', () => {
  const button = { tag: 'button', nodeName: 'BUTTON', candidate: 1, id: 'save', className: '', role: '', name: 'Save', ref: 'e5' };
  const armed: ArmPointOutcome = { status: 'ok', token: 'p1', target: button, frame: false };

  async function atPoint(arm: ArmPointOutcome = armed, report?: (args: DeliveryArgs) => GuardReport) {
    const env = await setup(ok(1, 1), report);
    env.page.api.armPoint = () => arm;
    return env;
  }

  it('clicks the tab at x,y, proves what was there got it, and names it', async () => {
    const { tool, ctx, tabId, page, debugger: dbg } = await atPoint();
    // The dispatcher hands every call the tab it resolved (targeting/resolveCall.ts).
    const result = await runTool(tool, { x: 100, y: 200, tab: tabId }, ctx);
    expect(result).toEqual({ clicked: true, tabId, x: 100, y: 200, healed: false, navigated: false, url: 'https://x.test/', target: { tag: 'button', id: 'save', name: 'Save', ref: 'e5' } });
    expect(mouse(dbg.methods(tabId))).toHaveLength(3);
    expect(page.calls.find((call) => call.method === 'armPoint')?.args).toEqual({ x: 100, y: 200, arm: ['pointer', 'press', 'release'], purpose: 'click' });
  });

  it('is click_intercepted, never a success, when the press went to something else', async () => {
    const overlay = { tag: 'div', nodeName: 'DIV', candidate: 1, id: 'gate', className: '', role: '', name: 'Interstitial ad' };
    const { tool, ctx, tabId } = await atPoint(armed, () => ({ armed: true, events: [event('pointerover', 'pointer'), event('pointerdown', 'press', false)], interceptor: overlay }));
    const error = await failure(runTool(tool, { x: 100, y: 200, tab: tabId }, ctx));
    expect(error.code).toBe('click_intercepted');
    expect(error.details).toMatchObject({ when: 'after_pointer', interceptor: described(overlay), target: described(button), x: 100, y: 200 });
    expect(error.message).toMatch(/^Click at \(100, 200\) was not delivered: it was aimed at <button id="save"> "Save" \(@e5\), but <div id="gate"> "Interstitial ad" took the point/);
  });

  it('a point outside the viewport is invalid_arguments naming the coordinate, and nothing is sent', async () => {
    const { tool, ctx, tabId, debugger: dbg } = await atPoint({ status: 'outside', viewport: { width: 800, height: 600 } });
    const error = await failure(runTool(tool, { x: 900, y: 10, tab: tabId }, ctx));
    expect(error).toMatchObject({ code: 'invalid_arguments', details: { field: 'x' } });
    expect(mouse(dbg.methods(tabId))).toHaveLength(0);
    const below = await failure(runTool(tool, { x: 10, y: 600, tab: tabId }, ctx));
    expect(below).toMatchObject({ code: 'invalid_arguments', details: { field: 'y' } });
  });

  it('ignores a navigation that only starts in another tab or a child frame', async () => {
    const env = await atPoint();
    const { tool, ctx, tabId, debugger: dbg } = env;
    dbg.handle('Input.dispatchMouseEvent', () => {
      dbg.emit(tabId + 100, 'Page.frameRequestedNavigation', { frameId: 'F', reason: 'anchorClick', url: 'u', disposition: 'currentTab' });
      dbg.emit(tabId, 'Page.frameRequestedNavigation', { frameId: 'child', reason: 'anchorClick', url: 'u', disposition: 'currentTab' });
      dbg.emit(tabId, 'Page.frameRequestedNavigation', { frameId: `F${tabId}`, reason: 'anchorClick', url: 'u', disposition: 'newTab' });
      return {};
    });
    expect((await runTool(tool, { x: 1, y: 1, tab: tabId }, ctx)).navigated).toBe(false);
  });
});
