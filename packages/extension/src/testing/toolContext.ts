/**
 * The services a tool's context carries, built for a unit test on in-memory stores (the composition root's twin:
 * background.ts builds the worker's on chrome.*). A test passes what it fakes as `overrides`.
 */
import { SnapshotHistory } from '../actions/snapshotHistory.js';
import type { ToolName, ToolParams, ToolResult } from '@chrome-relay/protocol';
import type { ServiceName, Services, ToolContext } from '../actions/toolContext.js';
import type { BrowserApi } from '../browserApi.js';
import { Recorder } from '../capture/recorder.js';
import { unmasked } from '../capture/recordMask.js';
import { TabDrawing } from '../capture/screencast.js';
import type { CdpSessions } from '../cdp/cdpSession.js';
import { TabCaptures } from '../observe/captures.js';
import { FrameSessions } from '../page/frames.js';
import { MainFrames } from '../page/mainFrames.js';
import { DEFAULT_NAVIGATION_TIMING } from '../page/navigation.js';
import { Worlds } from '../page/worlds.js';
import { DialogTracker } from '../pageState/dialogs.js';
import { DownloadTracker } from '../pageState/downloads.js';
import { NetworkActivity } from '../pageState/networkIdle.js';
import { RefCounter } from '../refs/counter.js';
import { MemoryStore } from '../refs/memoryStore.js';
import { RefRegistry } from '../refs/registry.js';
import { TabLocks } from '../refs/tabLocks.js';
import { createTargetingContext } from '../targeting/context.js';
import { resolveCallTabs } from '../targeting/resolveCall.js';
import type { ToolDefinition } from '../tools/defineTool.js';
import type { FakeBrowser } from './fakeBrowser.js';
import { fakeOrganize } from './fakeOrganize.js';

export function fakeServices(cdp: CdpSessions, browser: BrowserApi & Partial<FakeBrowser>, overrides: Partial<Services> = {}): Services {
  const registry = overrides.registry ?? new RefRegistry(new MemoryStore());
  const frames = new FrameSessions(() => Promise.resolve([]));
  const drawing = overrides.drawing ?? new TabDrawing();
  frames.listen(cdp);
  return {
    cdp,
    browser,
    registry,
    counter: new RefCounter(new MemoryStore()),
    worlds: new Worlds(new MemoryStore()),
    frames,
    mainFrames: new MainFrames(cdp),
    dialogs: new DialogTracker(cdp, browser),
    downloads: new DownloadTracker(cdp, { search: () => Promise.resolve([]) }),
    network: new NetworkActivity(cdp),
    captures: new TabCaptures(),
    recorder: new Recorder(unmasked, drawing),
    drawing,
    render: () => Promise.resolve(''),
    imageSize: () => Promise.resolve({ width: 800, height: 600 }),
    targeting: createTargetingContext({
      browser,
      organize: fakeOrganize(browser as FakeBrowser),
      refs: registry,
      seesGroup: () => Promise.resolve(true),
    }),
    navigation: DEFAULT_NAVIGATION_TIMING,
    snapshotLocks: new TabLocks(),
    snapshotHistory: new SnapshotHistory(new MemoryStore()),
    scanListeners: () => Promise.resolve(),
    restartHost: () => undefined,
    ...overrides,
  };
}

/**
 * A tool's context as the dispatcher hands it for `params`: the call resolved the way every call is
 * (targeting/resolveCall.ts) over the context's own registry and browser — its tab, and the refs it names.
 */
export async function resolvedFor<C extends ToolContext<'registry'>>(ctx: C, tool: ToolName, params: Readonly<Record<string, unknown>>): Promise<C> {
  const scopes = 'targeting' in ctx ? (ctx as ToolContext<'targeting'>).targeting : undefined;
  const { tabs, refs } = await resolveCallTabs(tool, params, undefined, {
    browser: ctx.browser,
    refs: ctx.registry,
    scopeTabs: (scope) => (scopes === undefined ? Promise.reject(new Error('this test context has no workspaces or groups')) : scopes.scopeTabs(scope)),
  });
  return { ...ctx, target: tabs, refs };
}

/** Run a tool the way the dispatcher does: its call resolved first (resolvedFor), then its handler, given what it uses. */
export async function runTool<T extends ToolName, S extends ServiceName>(tool: ToolDefinition<T, S>, params: ToolParams<T>, ctx: ToolContext<NoInfer<S> | 'registry'>): Promise<ToolResult<T>> {
  return tool.handle(params, await resolvedFor(ctx, tool.name, params));
}

/** A context in which these refs were resolved with the call (to open them as a tool does: actions/refAction.ts openRef). */
export async function withRefs<C extends ToolContext<'registry'>>(ctx: C, ...refs: string[]): Promise<C> {
  let resolved = ctx;
  const all = new Map(ctx.refs);
  for (const ref of refs) {
    resolved = await resolvedFor(ctx, 'click', { ref });
    for (const [key, value] of resolved.refs) all.set(key, value);
  }
  return { ...resolved, refs: all };
}
