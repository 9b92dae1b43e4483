import { beforeAll, describe, expect, it } from 'vitest';
import type { PageSnapshot } from '../injected/types.js';
import { FakePages } from '../testing/fakePage.js';
import { Worlds } from '../page/worlds.js';
import { RefCounter } from '../refs/counter.js';
import { MemoryStore } from '../refs/memoryStore.js';
import { RefRegistry } from '../refs/registry.js';
import { TabLocks } from '../refs/tabLocks.js';
import type { FrameInfo } from '../page/frames.js';
import type { ScanSite } from '../page/listeners.js';
import { createFakeEnvironment, protocolError } from '../testing/fakeChrome.js';
import { SnapshotHistory } from '../actions/snapshotHistory.js';
import { snapshotTool } from './snapshot.js';
import { runTool } from '../testing/toolContext.js';

beforeAll(() => {
  (globalThis as { __PAGE_SCRIPT__?: string }).__PAGE_SCRIPT__ = '/* page script */';
});

/** A fake page whose snapshot issues `count` refs from the counter it is given. */
function pageIssuing(count: number, title = 'Page') {
  let pending: string | undefined;
  const committed: string[][] = [];
  return {
    committed,
    api: {
      snapshot: ({ nextRef }: { nextRef: number }): PageSnapshot => {
        const refs = Array.from({ length: count }, (_, i) => ({ ref: `e${nextRef + i}`, role: 'button', name: `B${i}` }));
        pending = `t${nextRef}`;
        return {
          token: pending,
          url: 'https://x.test/',
          title,
          tree: refs.map((r) => ({ role: r.role, name: r.name, ref: r.ref })),
          nextRef: nextRef + count,
          refCount: count,
        };
      },
      commit: ({ token }: { token: string }) => {
        const ok = token === pending;
        if (ok) committed.push([token]);
        return { committed: ok };
      },
    },
  };
}

function setup(scan?: (sites: readonly ScanSite[]) => Promise<void>) {
  const env = createFakeEnvironment();
  const pages = new FakePages(env.debugger);
  const local = new MemoryStore();
  const session = new MemoryStore();
  const deps = {
    counter: new RefCounter(local),
    snapshotLocks: new TabLocks(),
    ...(scan === undefined ? {} : { scanListeners: (_ctx: unknown, sites: readonly ScanSite[]) => scan(sites) }),
    registry: new RefRegistry(session),
    worlds: new Worlds(session),
    snapshotHistory: new SnapshotHistory(session),
    frames: { list: (): Promise<FrameInfo[]> => Promise.resolve([]), blocking: () => Promise.resolve(undefined), hasOutOfProcessFrames: () => Promise.resolve(false), blockList: () => Promise.resolve([]) },
  };
  return { ...env, ctx: { ...env.ctx, ...deps }, pages, local, session, deps, tool: snapshotTool };
}

describe('snapshot tool', () => {
  it('installs the page script, issues refs from the counter, stores counter and registry, then commits', async () => {
    const { browser, pages, local, deps, tool, ctx } = setup();
    const tabId = browser.addTab({ active: true }).id ?? 0;
    const page = pageIssuing(3, 'Hello');
    const fakeTab = pages.open(tabId, page.api);

    const result = await runTool(tool, { tab: tabId }, ctx);
    expect(result).toMatchObject({ tabId, url: 'https://x.test/', title: 'Hello', refCount: 3 });
    expect(result.tree.map((n) => n.ref)).toEqual(['e1', 'e2', 'e3']);
    expect(fakeTab.installed).toBe(true);
    expect(fakeTab.calls.map((c) => c.method)).toEqual(['snapshot', 'commit']);
    expect(page.committed).toHaveLength(1);
    expect(local.data.get('refCounter')).toBe(4);
    expect(await deps.registry.lookup('e2')).toMatchObject({ state: 'live', tabId, document: { loaderId: fakeTab.loaderId } });
  });

  it('two tabs snapshotted at once get disjoint refs and do not touch each other’s entries', async () => {
    const { browser, pages, deps, tool, ctx } = setup();
    const a = browser.addTab().id ?? 0;
    const b = browser.addTab().id ?? 0;
    pages.open(a, pageIssuing(5).api);
    pages.open(b, pageIssuing(4).api);
    const [ra, rb] = await Promise.all([runTool(tool, { tab: a }, ctx), runTool(tool, { tab: b }, ctx)]);
    const refsA = ra.tree.map((n) => n.ref);
    const refsB = rb.tree.map((n) => n.ref);
    expect(new Set([...refsA, ...refsB]).size).toBe(9);
    for (const ref of refsA) expect(await deps.registry.lookup(ref ?? '')).toMatchObject({ tabId: a });
    for (const ref of refsB) expect(await deps.registry.lookup(ref ?? '')).toMatchObject({ tabId: b });
  });

  it('does not commit in the page when storing the counter fails (the page keeps its old refs)', async () => {
    const { browser, pages, local, tool, ctx } = setup();
    const tabId = browser.addTab().id ?? 0;
    const fakeTab = pages.open(tabId, pageIssuing(2).api);
    local.failNextSet = new Error('storage broke');
    await expect(runTool(tool, { tab: tabId }, ctx)).rejects.toThrow('storage broke');
    expect(fakeTab.calls.map((c) => c.method)).toEqual(['snapshot']);
  });

  it('re-snapshots once in the new document when the tab navigates mid-call', async () => {
    const { browser, pages, deps, tool, ctx } = setup();
    const tabId = browser.addTab().id ?? 0;
    const page = pageIssuing(1);
    pages.open(tabId, page.api);
    await runTool(tool, { tab: tabId }, ctx); // e1, world cached for the first document
    let navigatedOnce = false;
    const fakeTab = pages.tab(tabId);
    fakeTab.api = {
      ...page.api,
      snapshot: (args) => {
        if (!navigatedOnce) {
          navigatedOnce = true;
          pages.navigate(tabId); // the evaluate that follows hits a dead context
        }
        return page.api.snapshot(args);
      },
    };
    const result = await runTool(tool, { tab: tabId }, ctx);
    expect(result.refCount).toBe(1);
    expect(await deps.registry.lookup('e1')).toBeUndefined();
    expect(await deps.registry.lookup(result.tree[0]?.ref ?? '')).toMatchObject({ state: 'live', document: { loaderId: fakeTab.loaderId } });
  });
});

describe('snapshot tool: a child frame that moved away', () => {
  /** A tab whose frame tree lists a same-process child frame that answers `Page.createIsolatedWorld` with `cdpMessage`. */
  function childFrameFailing(cdpMessage: string) {
    const env = setup();
    const tabId = env.browser.addTab().id ?? 0;
    const fakeTab = env.pages.open(tabId, pageIssuing(2).api);
    env.deps.frames.list = () => Promise.resolve([{ frameId: 'child', loaderId: 'LC', url: 'https://ad.test/', parentId: fakeTab.frameId }]);
    const worldsMade: string[] = [];
    env.debugger.handle('Page.createIsolatedWorld', (params, id) => {
      const frameId = (params as { frameId: string }).frameId;
      worldsMade.push(frameId);
      if (frameId === 'child') throw protocolError(cdpMessage);
      return { executionContextId: env.pages.tab(id).contextId };
    });
    return { ...env, tabId, worldsMade };
  }

  it('leaves out a same-process child frame whose id the session no longer knows, and snapshots the rest', async () => {
    // Listed by the tab's frame tree, then swapped into another process before its world is made.
    const { tool, ctx, tabId, worldsMade } = childFrameFailing('No frame for given id found');
    const result = await runTool(tool, { tab: tabId }, ctx);
    expect(worldsMade).toContain('child');
    expect(result.tree.map((n) => n.ref)).toEqual(['e1', 'e2']);
  });

  it('still fails on any other CDP error in a same-process child frame', async () => {
    const { tool, ctx, tabId } = childFrameFailing('Internal error');
    await expect(runTool(tool, { tab: tabId }, ctx)).rejects.toMatchObject({ code: 'cdp_error' });
  });
});

describe('snapshot tool: a page that stops answering', () => {
  it('fails with timeout at the deadline and releases the counter for the next snapshot', async () => {
    const { browser, pages, deps, tool, ctx } = setup();
    const stuck = browser.addTab().id ?? 0;
    const fine = browser.addTab().id ?? 0;
    pages.open(stuck, pageIssuing(2).api).stalled = true; // e.g. an alert() is open
    pages.open(fine, pageIssuing(2).api);
    const error = await runTool(tool, { tab: stuck }, { ...ctx, deadline: Date.now() + 50 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'timeout', details: { tab: stuck } });
    const result = await runTool(tool, { tab: fine }, ctx);
    expect(result.refCount).toBe(2);
    expect(await deps.registry.lookup('e1')).toMatchObject({ tabId: fine });
  });
});

describe('snapshot tool: one snapshot of a tab at a time', () => {
  it('makes the next snapshot of a tab wait for the page work of one that gave up, and never runs them side by side', async () => {
    // Seen in Chromium 156: a snapshot that timed out on a blocked page kept going when the page came back, and a
    // second snapshot's listener read interleaved with it crashed the renderer (about 1 run in 3).
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inScan = new Map<number, number>();
    let overlapped = false;
    let scans = 0;
    const { browser, pages, tool, ctx } = setup(async (sites) => {
      const tab = sites[0]?.world.tabId ?? 0;
      const isFirst = tab === tabId && ++scans === 1;
      inScan.set(tab, (inScan.get(tab) ?? 0) + 1);
      if ((inScan.get(tab) ?? 0) > 1) overlapped = true;
      if (isFirst) await gate;
      inScan.set(tab, (inScan.get(tab) ?? 0) - 1);
    });
    const tabId: number = browser.addTab().id ?? 0;
    const other = browser.addTab().id ?? 0;
    pages.open(tabId, pageIssuing(1).api);
    pages.open(other, pageIssuing(1).api);
    // The first snapshot's page work is still running (its caller gave up at its deadline).
    const first = runTool(tool, { tab: tabId }, ctx);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await runTool(tool, { tab: tabId }, { ...ctx, deadline: Date.now() + 50 }).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: 'timeout', details: { reason: 'busy' } });
    expect(scans).toBe(1);
    // Another tab is not held up.
    expect((await runTool(tool, { tab: other }, ctx)).refCount).toBe(1);
    release();
    expect((await first).refCount).toBe(1);
    expect((await runTool(tool, { tab: tabId }, ctx)).refCount).toBe(1);
    expect(overlapped).toBe(false);
  });
});

describe('snapshot tool: frames on a site the person blocked', () => {
  it('never enters a blocked frame, marks its iframe with the rule, and drops a frame that moved onto one meanwhile', async () => {
    const scanned: ScanSite[] = [];
    const { browser, pages, deps, ctx, debugger: dbg } = setup((sites) => {
      scanned.push(...sites);
      return Promise.resolve();
    });
    const tabId = browser.addTab({ active: true }).id ?? 0;
    const walks: PageSnapshot[] = [
      {
        token: 'main',
        url: 'https://news.test/',
        title: 'News',
        tree: [
          { role: 'iframe', name: 'Bank', ref: 'e1', frameSlot: 0 },
          { role: 'iframe', name: 'Late', ref: 'e2', frameSlot: 1 },
        ],
        nextRef: 3,
        refCount: 2,
      },
      // The frame listed as open had moved onto the blocked site by the time it was walked.
      { token: 'late', url: 'https://bank.test/login', title: 'Bank', tree: [{ role: 'button', name: 'Transfer', ref: 'e3' }], nextRef: 4, refCount: 1 },
    ];
    const walk = (): PageSnapshot => {
      const next = walks.shift();
      if (next === undefined) throw new Error('a frame was walked that should not have been');
      return next;
    };
    const fakeTab = pages.open(tabId, { snapshot: walk, commit: ({ token }) => ({ committed: token === 'main' }) });
    const main = { frameId: fakeTab.frameId, loaderId: fakeTab.loaderId, url: 'https://news.test/' };
    const block = { rule: 'bank.test', url: 'https://bank.test/' };
    const frames = [main, { frameId: 'BANK', loaderId: 'LB', url: 'https://bank.test/', parentId: main.frameId, blocked: block }, { frameId: 'LATE', loaderId: 'LL', url: 'https://ads.test/', parentId: main.frameId }];
    fakeTab.children = [{ frameId: 'LATE', loaderId: 'LL' }];
    const slots: Record<string, number> = { BANK: 0, LATE: 1 };
    dbg
      .handle('DOM.getFrameOwner', (params) => ({ backendNodeId: slots[(params as { frameId: string }).frameId] ?? -1 }))
      .handle('DOM.resolveNode', (params) => ({ object: { type: 'object', objectId: `owner:${(params as { backendNodeId: number }).backendNodeId}` } }))
      .handle('Runtime.callFunctionOn', (params) => ({ result: { type: 'number', value: Number((params as { objectId: string }).objectId.slice('owner:'.length)) } }))
      .handle('Runtime.releaseObjectGroup', () => ({}));
    const frameList = { ...deps.frames, list: () => Promise.resolve(frames), blocking: (url: string) => Promise.resolve(url.includes('bank.test') ? block : undefined) };

    const result = await runTool(snapshotTool, { tab: tabId }, { ...ctx, frames: frameList });
    expect(result.tree).toEqual([
      { role: 'iframe', name: 'Bank', ref: 'e1', siteBlocked: 'bank.test' },
      { role: 'iframe', name: 'Late', ref: 'e2', siteBlocked: 'bank.test' },
    ]);
    expect(result.refCount).toBe(2);
    // The listener scan never sees the blocked frame, and the main frame's read stays out of its same-process child frames.
    expect(scanned.map((site) => [site.frameId, site.shallow])).toEqual([
      [fakeTab.frameId, true],
      ['LATE', undefined],
    ]);
    expect(dbg.sent.filter((c) => c.method === 'Page.createIsolatedWorld').map((c) => (c.params as { frameId: string }).frameId)).toEqual([fakeTab.frameId, 'LATE']);
    // Only the main frame's walk was committed; the late frame's ref was never stored.
    expect(fakeTab.calls.filter((c) => c.method === 'commit')).toHaveLength(1);
    expect(await deps.registry.lookup('e3')).toBeUndefined();
  });
});
