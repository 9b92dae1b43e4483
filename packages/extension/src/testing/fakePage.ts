/**
 * Test helper: a scripted page behind the FakeDebugger. It answers the CDP calls the ref layer
 * makes (frame tree, isolated world, Runtime.evaluate of the page API) so tools can be tested in
 * node without a browser. The page API itself is a plain object the test controls.
 */
import type { PageArgs, PageMethod, PageReturn } from '../injected/types.js';
import { protocolError, type FakeDebugger } from './fakeChrome.js';

export type FakePageApi = { [M in PageMethod]?: (args: PageArgs<M>) => PageReturn<M> };

export interface FakePageTab {
  frameId: string;
  loaderId: string;
  /** Same-process child frames the frame tree lists (their worlds answer like the main one's). */
  children: { frameId: string; loaderId: string }[];
  contextId: number;
  /** Whether the page script is installed in the current world. */
  installed: boolean;
  /** The installed script's stamp (PageApi.stamp). */
  stamp: string;
  /** Runtime.evaluate never answers (a busy page, an open alert()). */
  stalled: boolean;
  api: FakePageApi;
  /** Page API calls that hand back an element (pageCall.ts pageObject): its object id, or null. */
  objects: Record<string, (args: unknown) => string | null>;
  /** Page API calls received, in order. */
  calls: { method: string; args: unknown }[];
}

/** Where a call expression starts (pageCall.ts callExpression), after the page script a first call carries. */
const CALL_START = "\n;(() => { 'use strict'; const api = globalThis.__chromeRelay;";
const CALL = /JSON\.stringify\((?:await )?api\.(\w+)\((.*)\)\); \}\)\(\)$/s;
const EXPECTED_STAMP = /api\.stamp !== "(\w+)"/;
const OBJECT_CALL = /return api\.(\w+)\((.*)\) \?\? null; \}\)\(\)$/s;

export class FakePages {
  readonly tabs = new Map<number, FakePageTab>();
  #nextContext = 100;
  #nextLoader = 1;
  #installs = 0;

  constructor(fakeDebugger: FakeDebugger) {
    fakeDebugger
      .handle('Page.getFrameTree', (_params, tabId) => {
        const tab = this.tab(tabId);
        const frame = (id: string, loaderId: string, parentId?: string) => ({ id, loaderId, url: 'https://x.test/', securityOrigin: '', mimeType: 'text/html', ...(parentId === undefined ? {} : { parentId }) });
        const childFrames = tab.children.map((child) => ({ frame: frame(child.frameId, child.loaderId, tab.frameId) }));
        return { frameTree: { frame: frame(tab.frameId, tab.loaderId), ...(childFrames.length === 0 ? {} : { childFrames }) } };
      })
      .handle('Page.enable', () => ({}))
      .handle('Page.createIsolatedWorld', (_params, tabId) => ({ executionContextId: this.tab(tabId).contextId }))
      .handle('Input.dispatchMouseEvent', () => ({}))
      .handle('Runtime.evaluate', (params, tabId) => this.#evaluate(tabId, params));
  }

  /** Open a fake document in `tabId` with the given page API. */
  open(tabId: number, api: FakePageApi): FakePageTab {
    const tab: FakePageTab = {
      frameId: `F${tabId}`,
      loaderId: `L${this.#nextLoader++}`,
      children: [],
      contextId: this.#nextContext++,
      installed: false,
      stamp: `s${++this.#installs}`,
      stalled: false,
      api,
      objects: {},
      calls: [],
    };
    this.tabs.set(tabId, tab);
    return tab;
  }

  /**
   * A cross-document navigation: new loader, the old world's context is gone. `sameContextId`: into another renderer
   * process, whose new context happens to have the old one's id.
   */
  navigate(tabId: number, options: { sameContextId?: boolean } = {}): void {
    const tab = this.tab(tabId);
    tab.loaderId = `L${this.#nextLoader++}`;
    if (options.sameContextId !== true) tab.contextId = this.#nextContext++;
    tab.installed = false;
  }

  /** The new document of a cross-process navigation gets our page script (another call installed it there). */
  install(tabId: number): void {
    const tab = this.tab(tabId);
    tab.installed = true;
    tab.stamp = `s${++this.#installs}`;
  }

  tab(tabId: number): FakePageTab {
    const tab = this.tabs.get(tabId);
    if (tab === undefined) throw protocolError(`fake: no page in tab ${tabId}`);
    return tab;
  }

  #evaluate(tabId: number, params: object | undefined): unknown {
    const tab = this.tab(tabId);
    if (tab.stalled) return new Promise(() => undefined);
    const { contextId } = params as { contextId?: number };
    let { expression } = params as { expression: string };
    if (contextId !== tab.contextId) throw protocolError('Cannot find context with specified id');
    // A world's first call carries the page script before it (pageCall.ts): the script installs itself if missing.
    const call = expression.indexOf(CALL_START);
    if (call > 0) {
      if (!tab.installed) this.install(tabId);
      expression = expression.slice(call);
    }
    const object = OBJECT_CALL.exec(expression);
    const expected = EXPECTED_STAMP.exec(expression)?.[1];
    // As the real expressions do: a call that expects a stamp answers 0 where no script, or another one, is.
    if (expected !== undefined && (!tab.installed || expected !== tab.stamp)) return { result: { type: 'number', value: 0 } };
    if (object !== null) {
      if (!tab.installed) return { result: { type: 'undefined' } };
      const method = object[1] ?? '';
      const args: unknown = JSON.parse(object[2] ?? 'null');
      tab.calls.push({ method, args });
      const objectId = tab.objects[method]?.(args) ?? null;
      return { result: objectId === null ? { type: 'object', subtype: 'null', value: null } : { type: 'object', subtype: 'node', objectId } };
    }
    const match = CALL.exec(expression);
    if (match === null) {
      // Anything else is the page script being installed (idempotent).
      if (!tab.installed) this.install(tabId);
      return { result: { type: 'undefined' } };
    }
    if (!tab.installed) return { result: { type: 'object', subtype: 'null', value: null } };
    const method = match[1] as PageMethod;
    const args: unknown = match[2] === 'undefined' || match[2] === '' ? undefined : JSON.parse(match[2] ?? 'null');
    tab.calls.push({ method, args });
    const handler = tab.api[method] as ((a: unknown) => unknown) | undefined;
    if (handler === undefined) throw new Error(`fake page: no ${method}`);
    // An awaited read (callPageAwait) answers its JSON alone; a call, stamped.
    const answer = JSON.stringify(handler(args));
    return { result: { type: 'string', value: expression.startsWith('(async') ? answer : `${tab.stamp}:${answer}` } };
  }
}
