import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { DELEGATION_TYPES, MAX_ELEMENTS, ownListeners, pickListenerNodes, scanListeners, splitKnown, type ScanSite } from './listeners.js';
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

describe('splitKnown', () => {
  it('resolves only the nodes the page script does not hold yet, in order', () => {
    expect(splitKnown([7, 5, 6, 9], new Set([5, 9, 12]))).toEqual({ reused: [5, 9], fresh: [7, 6] });
  });
});

describe('scanListeners', () => {
  /**
   * A tab whose page is `scope` (its global object, `__chromeRelay` the page API when installed): Runtime.evaluate and
   * Runtime.callFunctionOn run the worker's own expressions against it, as the renderer would, so what the scan sends
   * is what is tested. The page script installs `scope.makeApi()`.
   */
  function setup(state: { stale: boolean; known: number[]; inlineClicks: number }, options: { installed?: boolean; stamp?: string } = {}) {
    (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = 'globalThis.__chromeRelay ??= globalThis.makeApi();';
    const handed: unknown[][] = [];
    const documentNode = { nodeType: 9 };
    const api = {
      stamp: 's1',
      listenerScanState: () => state,
      documentNode: () => documentNode,
      noteListeners: (reused: number[], fresh: number[], elements: unknown[]) => handed.push([reused, fresh, elements]),
    };
    const scope: { __chromeRelay?: unknown; makeApi: () => unknown; installs: number } = {
      installs: 0,
      makeApi: () => {
        scope.installs++;
        return api;
      },
    };
    if (options.installed === true) scope.__chromeRelay = api;
    const run = new Function('globalThis', 'expression', 'return eval(expression);') as (scope: object, expression: string) => unknown;
    const env = createFakeEnvironment();
    const tabId = env.browser.addTab({ url: 'https://x.test/a' }).id ?? 0;
    env.debugger
      .handle('Runtime.evaluate', (params) => {
        const { expression, returnByValue } = params as { expression: string; returnByValue?: boolean };
        const value = run(scope, expression);
        if (returnByValue === false) return { result: value === documentNode ? { type: 'object', subtype: 'node', objectId: 'DOC' } : { type: typeof value } };
        return { result: value === undefined ? { type: 'undefined' } : { type: typeof value, value } };
      })
      .handle('Runtime.callFunctionOn', (params) => {
        const { functionDeclaration, arguments: args = [] } = params as { functionDeclaration: string; arguments?: { value?: unknown; objectId?: string }[] };
        const fn = run(scope, `(${functionDeclaration})`) as (...args: unknown[]) => unknown;
        const value = fn(...args.map((arg) => (arg.objectId === undefined ? arg.value : `element ${arg.objectId}`)));
        return { result: value === undefined ? { type: 'undefined' } : { type: typeof value, value } };
      })
      .handle('DOM.describeNode', () => ({ node: { nodeId: 0, backendNodeId: 1, nodeType: 9, nodeName: '#document', localName: '', nodeValue: '' } }))
      .handle('DOMDebugger.getEventListeners', () => ({ listeners: [...on(5, 'click'), ...on(6, 'click'), ...on(7, 'dblclick')] }))
      .handle('DOM.resolveNode', (params) => ({ object: { type: 'object', objectId: `O${params !== undefined && 'backendNodeId' in params ? String(params.backendNodeId) : ''}` } }))
      // The page script goes only into the document its world was made for (pageCall.ts).
      .handle('Page.getFrameTree', () => ({ frameTree: { frame: { id: 'main', loaderId: 'L', url: 'https://x.test/a', securityOrigin: '', mimeType: 'text/html' } } }));
    const site: ScanSite = { world: { tabId, frameId: 'main', loaderId: 'L', contextId: 1, ...(options.stamp === undefined ? {} : { stamp: options.stamp }) }, frameId: 'main' };
    const sent = (method: string) => env.debugger.sent.filter((command) => command.method === method).map((command) => command.params);
    return { env, site, sent, handed, scope };
  }

  it('reads on the main-world document without wrapping the handlers, resolves only new nodes and hands over the held ones by id', async () => {
    const { env, site, sent, handed } = setup({ stale: true, known: [5, 11], inlineClicks: 0 }, { installed: true, stamp: 's1' });
    await scanListeners(env.ctx, [site]);
    // The document is reached by its node id, resolved with no context (the main world) and no object group (which
    // would make the read wrap every handler, twice, into it: 3× the bytes); never an isolated world's document.
    expect(sent('Page.createIsolatedWorld')).toEqual([]);
    expect(sent('DOM.describeNode')).toEqual([{ objectId: 'DOC' }]);
    expect(sent('DOM.resolveNode')[0]).toEqual({ backendNodeId: 1 });
    expect(sent('DOMDebugger.getEventListeners')).toEqual([{ objectId: 'O1', depth: -1, pierce: true }]);
    expect(sent('Runtime.releaseObject')).toEqual([{ objectId: 'O1' }]);
    expect(sent('Runtime.releaseObjectGroup')).toEqual([{ objectGroup: 'chrome-relay-listeners' }]);
    expect(sent('DOM.resolveNode').slice(1).map((params) => (params !== undefined && 'backendNodeId' in params ? params.backendNodeId : undefined))).toEqual([7, 6]);
    // Handed to the page API as the page runs the call: the held ones by id, the new ones as elements.
    expect(handed).toEqual([[[5], [7, 6], ['element O7', 'element O6']]]);
  });

  it('a fresh document gets the page script with its first call, and the scan state in the same evaluation', async () => {
    const { env, site, sent, handed, scope } = setup({ stale: true, known: [], inlineClicks: 0 });
    await scanListeners(env.ctx, [site]);
    const evaluations = sent('Runtime.evaluate').map((params) => String((params as { expression: string }).expression));
    expect(evaluations[0]).toContain('globalThis.__chromeRelay ??= globalThis.makeApi();');
    expect(evaluations[0]).toContain('api.listenerScanState(');
    expect(scope.installs).toBe(1);
    // The world learnt its stamp from that answer: the snapshot's calls there need no document check of their own.
    expect(site.world.stamp).toBe('s1');
    expect(sent('Page.getFrameTree')).toHaveLength(1);
    expect(evaluations).toHaveLength(2);
    expect(handed).toHaveLength(1);
  });

  it("reads nothing and hands nothing over where the world's id now names a context with another page script", async () => {
    const { env, site, sent } = setup({ stale: true, known: [], inlineClicks: 0 }, { installed: true, stamp: 'another-world' });
    await scanListeners(env.ctx, [site]);
    expect(sent('DOMDebugger.getEventListeners')).toEqual([]);
    expect(sent('Runtime.callFunctionOn')).toEqual([]);
  });

  it('hands nothing over where the context changed hands between the read and the hand-over', async () => {
    const { env, site, sent, handed, scope } = setup({ stale: true, known: [], inlineClicks: 0 }, { installed: true, stamp: 's1' });
    env.debugger.handle('DOMDebugger.getEventListeners', () => {
      scope.__chromeRelay = { stamp: 'another-world', noteListeners: () => 'forged' };
      return { listeners: on(7, 'dblclick') };
    });
    await expect(scanListeners(env.ctx, [site])).resolves.toBeUndefined();
    expect(sent('Runtime.callFunctionOn')).toHaveLength(1);
    expect(handed).toEqual([]);
  });

  it('skips a frame whose document was replaced before its page script went in, and carries on', async () => {
    const { env, site, sent, scope } = setup({ stale: true, known: [], inlineClicks: 0 });
    // The frame tree now shows another document in this frame (an ad frame that reloaded).
    const replaced: ScanSite = { ...site, world: { ...site.world, loaderId: 'L-before' } };
    await expect(scanListeners(env.ctx, [replaced])).resolves.toBeUndefined();
    expect(scope.installs).toBe(0);
    expect(sent('Runtime.evaluate')).toEqual([]);
    expect(sent('Runtime.callFunctionOn')).toEqual([]);
  });

  it('resolves no click listener when the document holds as many inline click handlers', async () => {
    const { env, site, sent } = setup({ stale: true, known: [], inlineClicks: 2 }, { installed: true, stamp: 's1' });
    await scanListeners(env.ctx, [site]);
    expect(sent('DOM.resolveNode').slice(1).map((params) => (params !== undefined && 'backendNodeId' in params ? params.backendNodeId : undefined))).toEqual([7]);
  });

  it('reads nothing while the page script says its set is current', async () => {
    const { env, site, sent } = setup({ stale: false, known: [5, 6, 7], inlineClicks: -1 }, { installed: true, stamp: 's1' });
    await scanListeners(env.ctx, [site]);
    expect(sent('DOMDebugger.getEventListeners')).toEqual([]);
    expect(sent('Runtime.callFunctionOn')).toEqual([]);
  });
});
