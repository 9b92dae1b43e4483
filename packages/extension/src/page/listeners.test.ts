import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { asFrameScanState, asScanState, DELEGATION_TYPES, INLINE_CLICK_SELECTOR, MAX_ELEMENTS, ownListeners, pickListenerNodes, scanListeners, splitKnown, type ScanSite } from './listeners.js';
import type { PageWorld } from './worlds.js';

const world = (frameId: string, sessionId?: string): PageWorld => ({ tabId: 1, frameId, loaderId: 'L', contextId: 1, ...(sessionId === undefined ? {} : { sessionId }) });
const on = (backendNodeId: number, ...types: string[]) => types.map((type) => ({ type, backendNodeId }));

describe('pickListenerNodes', () => {
  it('keeps elements with dblclick, drag and drop listeners, in order, once each', () => {
    expect(pickListenerNodes([...on(5, 'dblclick'), ...on(9, 'dragover', 'drop'), ...on(5, 'dblclick'), ...on(7, 'keydown')])).toEqual([5, 9]);
  });

  it('skips a delegation root (a framework listening for many types on one element)', () => {
    const types = ['click', 'dblclick', 'drop', 'dragover', 'keydown', 'keyup', 'input', 'change', 'focusin'].slice(0, Math.max(DELEGATION_TYPES, 8));
    expect(pickListenerNodes([...on(1, ...types), ...on(2, 'dblclick')])).toEqual([2]);
  });

  it('counts click listeners only while all of them fit in the budget', () => {
    expect(pickListenerNodes([...on(3, 'click'), ...on(4, 'drop')])).toEqual([4, 3]);
    const many = Array.from({ length: MAX_ELEMENTS }, (_, i) => on(100 + i, 'click')).flat();
    expect(pickListenerNodes([...many, ...on(4, 'drop')])).toEqual([4]);
  });

  it('leaves out click listeners when the document holds as many inline click handlers: the walker sees those itself', () => {
    // 3 has a click and a drop listener: a direct target, and one of the two elements with a click-type listener.
    const listeners = [...on(3, 'click', 'drop'), ...on(5, 'mousedown'), ...on(8, 'dblclick')];
    expect(pickListenerNodes(listeners, 2)).toEqual([3, 8]);
    // One more element with a click listener than inline handlers: some were added by script, all are resolved.
    expect(pickListenerNodes(listeners, 1)).toEqual([3, 8, 5]);
    expect(pickListenerNodes(listeners, 3)).toEqual([3, 8, 5]);
    expect(pickListenerNodes(listeners)).toEqual([3, 8, 5]);
    // A delegation root with an inline onclick is one of the counted elements too.
    expect(pickListenerNodes([...on(1, 'click', 'keydown', 'keyup', 'input', 'change', 'focusin', 'focusout', 'submit'), ...on(2, 'click')], 2)).toEqual([]);
  });

  it('counts the inline handlers of exactly the click types', () => {
    expect(INLINE_CLICK_SELECTOR.split(', ').sort()).toEqual(['[onclick]', '[oncontextmenu]', '[onmousedown]', '[onmouseup]', '[onpointerdown]', '[onpointerup]']);
  });
});

describe('ownListeners', () => {
  it('gives a node reported by a frame and its same-process child to the child only', () => {
    const sites: ScanSite[] = [
      { world: world('main'), frameId: 'main' },
      { world: world('child'), frameId: 'child', parentId: 'main' },
      { world: world('oopif', 'S1'), frameId: 'oopif', parentId: 'main' },
    ];
    const reported = new Map([
      ['main', [...on(1, 'dblclick'), ...on(2, 'drop')]],
      ['child', on(2, 'drop')],
      // Another process numbers its nodes on its own: the same id is another node.
      ['oopif', on(1, 'dblclick')],
    ]);
    const own = ownListeners(sites, reported);
    expect(own.get('main')?.map((l) => l.backendNodeId)).toEqual([1]);
    expect(own.get('child')?.map((l) => l.backendNodeId)).toEqual([2]);
    expect(own.get('oopif')?.map((l) => l.backendNodeId)).toEqual([1]);
  });
});

describe('splitKnown / asScanState', () => {
  it('resolves only the nodes the page script does not hold yet, in order', () => {
    expect(splitKnown([7, 5, 6, 9], new Set([5, 9, 12]))).toEqual({ reused: [5, 9], fresh: [7, 6] });
  });

  it('reads an unexpected answer as "read again, nothing held"', () => {
    expect(asScanState({ stale: false, known: [3, 'x', 4] })).toEqual({ stale: false, known: [3, 4] });
    for (const value of [null, undefined, 1, { stale: 'no', known: [] }, { stale: false }]) expect(asScanState(value)).toEqual({ stale: true, known: [] });
  });

  it('reads a fresh document as having no script, and a count that is not one as none', () => {
    expect(asFrameScanState({ state: null, inlineClicks: 4 })).toEqual({ stale: true, known: [], noScript: true, inlineClicks: 4 });
    expect(asFrameScanState({ state: { stale: false, known: [1] }, inlineClicks: -1 })).toEqual({ stale: false, known: [1], noScript: false, inlineClicks: -1 });
    for (const inlineClicks of [1.5, '3', -2, undefined]) expect(asFrameScanState({ state: null, inlineClicks }).inlineClicks).toBe(-1);
    expect(asFrameScanState(undefined)).toEqual({ stale: true, known: [], noScript: false, inlineClicks: -1 });
  });
});

describe('scanListeners', () => {
  function setup(state: unknown, inlineClicks = 0) {
    const env = createFakeEnvironment();
    const tabId = env.browser.addTab({ url: 'https://x.test/a' }).id ?? 0;
    env.debugger
      .handle('Runtime.evaluate', (params) => {
        const expression = params !== undefined && 'expression' in params ? params.expression : '';
        return expression === 'document' ? { result: { type: 'object', objectId: 'DOC' } } : { result: { type: 'object', value: { state, inlineClicks } } };
      })
      .handle('DOM.describeNode', () => ({ node: { nodeId: 0, backendNodeId: 1, nodeType: 9, nodeName: '#document', localName: '', nodeValue: '' } }))
      .handle('DOMDebugger.getEventListeners', () => ({ listeners: [...on(5, 'click'), ...on(6, 'click'), ...on(7, 'dblclick')] }))
      .handle('DOM.resolveNode', (params) => ({ object: { type: 'object', objectId: `O${params !== undefined && 'backendNodeId' in params ? String(params.backendNodeId) : ''}` } }))
      .handle('Runtime.callFunctionOn', () => ({ result: { type: 'number', value: 2 } }))
      // The page script goes only into the document its world was made for (pageCall.ts installPageScript).
      .handle('Page.getFrameTree', () => ({ frameTree: { frame: { id: 'main', loaderId: 'L', url: 'https://x.test/a', securityOrigin: '', mimeType: 'text/html' } } }));
    const site: ScanSite = { world: { tabId, frameId: 'main', loaderId: 'L', contextId: 1 }, frameId: 'main' };
    const sent = (method: string) => env.debugger.sent.filter((command) => command.method === method).map((command) => command.params);
    return { env, site, sent };
  }

  it('reads on the main-world document without wrapping the handlers, resolves only new nodes and hands over the held ones by id', async () => {
    const { env, site, sent } = setup({ stale: true, known: [5, 11] });
    await scanListeners(env.ctx, [site]);
    // The document is reached by its node id, resolved with no context (the main world) and no object group (which
    // would make the read wrap every handler, twice, into it: 3× the bytes); never an isolated world's document.
    expect(sent('Page.createIsolatedWorld')).toEqual([]);
    expect(sent('DOM.describeNode')).toEqual([{ objectId: 'DOC' }]);
    expect(sent('DOM.resolveNode')[0]).toEqual({ backendNodeId: 1 });
    expect(sent('DOMDebugger.getEventListeners')).toEqual([{ objectId: 'O1', depth: -1, pierce: true }]);
    expect(sent('Runtime.releaseObject')).toEqual(expect.arrayContaining([{ objectId: 'DOC' }, { objectId: 'O1' }]));
    expect(sent('DOM.resolveNode').slice(1).map((params) => (params !== undefined && 'backendNodeId' in params ? params.backendNodeId : undefined))).toEqual([7, 6]);
    const note = sent('Runtime.callFunctionOn')[0];
    expect(note !== undefined && 'arguments' in note ? note.arguments : undefined).toEqual([{ value: [5] }, { value: [7, 6] }, { objectId: 'O7' }, { objectId: 'O6' }]);
    // The declaration compiles, and hands the elements to the page script as the page would run it.
    const declaration = note !== undefined && 'functionDeclaration' in note ? String(note.functionDeclaration) : '';
    const handed: unknown[] = [];
    const api = { noteListeners: (...args: unknown[]) => handed.push(args) };
    const noteIn = (new Function('globalThis', `return (${declaration});`) as (g: object) => (...args: unknown[]) => unknown)({ __chromeRelay: api });
    noteIn([5], [7, 6], 'seven', 'six');
    expect(handed).toEqual([[[5], [7, 6], ['seven', 'six']]]);
  });

  it('installs the page script of a fresh document with the read, before handing it the elements, so they are sent once', async () => {
    (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
    const { env, site, sent } = setup(null);
    await scanListeners(env.ctx, [site]);
    const order = env.debugger.sent.map((command) => (command.method === 'Runtime.evaluate' && command.params !== undefined && 'expression' in command.params && command.params.expression === '/* page script */' ? 'install' : command.method));
    // Sent without waiting for the read: the renderer runs one after the other anyway.
    expect(order.indexOf('install')).toBeGreaterThan(-1);
    expect(order.indexOf('install')).toBeLessThan(order.indexOf('DOMDebugger.getEventListeners'));
    expect(order.indexOf('install')).toBeLessThan(order.indexOf('Runtime.callFunctionOn'));
    expect(sent('Runtime.callFunctionOn')).toHaveLength(1);
    expect(sent('DOM.resolveNode')).toHaveLength(4);
  });

  it('reads nothing and hands nothing over where the world\'s id now names a context with another page script', async () => {
    const { env, site, sent } = setup({ stale: true, known: [] });
    // The state read, evaluated as the page would: a page script with another stamp (another document's world).
    const other = { stamp: 'other', listenerScanState: () => ({ stale: true, known: [] }) };
    const page = { querySelectorAll: () => [] };
    env.debugger.handle('Runtime.evaluate', (params) => {
      const expression = params !== undefined && 'expression' in params ? params.expression : '';
      if (expression === 'document') return { result: { type: 'object', objectId: 'DOC' } };
      const value: unknown = (new Function('globalThis', 'document', `return ${expression};`) as (g: object, d: object) => unknown)({ __chromeRelay: other }, page);
      return { result: { type: 'object', value } };
    });
    await scanListeners(env.ctx, [{ ...site, world: { ...site.world, stamp: 's1' } }]);
    expect(sent('DOMDebugger.getEventListeners')).toEqual([]);
    expect(sent('Runtime.callFunctionOn')).toEqual([]);
  });

  it('skips a frame whose document was replaced before its page script went in, and carries on', async () => {
    (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
    const { env, site, sent } = setup(null);
    // The frame tree now shows another document in this frame (an ad frame that reloaded).
    const replaced: ScanSite = { ...site, world: { ...site.world, loaderId: 'L-before' } };
    await expect(scanListeners(env.ctx, [replaced])).resolves.toBeUndefined();
    expect(sent('Runtime.callFunctionOn')).toEqual([]);
  });

  it('resolves no click listener when the document holds as many inline click handlers', async () => {
    const { env, site, sent } = setup({ stale: true, known: [] }, 2);
    await scanListeners(env.ctx, [site]);
    const expressions = sent('Runtime.evaluate').map((params) => (params !== undefined && 'expression' in params ? String(params.expression) : ''));
    expect(expressions.find((expression) => expression.includes('listenerScanState'))).toContain(JSON.stringify(INLINE_CLICK_SELECTOR));
    expect(sent('DOM.resolveNode').slice(1).map((params) => (params !== undefined && 'backendNodeId' in params ? params.backendNodeId : undefined))).toEqual([7]);
  });

  it('reads nothing while the page script says its set is current', async () => {
    const { env, site, sent } = setup({ stale: false, known: [5, 6, 7] });
    await scanListeners(env.ctx, [site]);
    expect(sent('DOMDebugger.getEventListeners')).toEqual([]);
    expect(sent('Runtime.callFunctionOn')).toEqual([]);
  });
});
