/**
 * The services a tool's context carries, built for a unit test on in-memory stores (the composition root's twin:
 * background.ts builds the worker's on chrome.*). A test passes what it fakes as `overrides`.
 */
import { SnapshotHistory } from '../actions/snapshotHistory.js';
import type { Services } from '../actions/toolContext.js';
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
      refTab: async (ref) => {
        const found = await registry.lookup(ref);
        return found === undefined ? undefined : { tab: found.tabId, state: found.state };
      },
    }),
    navigation: DEFAULT_NAVIGATION_TIMING,
    snapshotLocks: new TabLocks(),
    snapshotHistory: new SnapshotHistory(new MemoryStore()),
    restartHost: () => undefined,
    ...overrides,
  };
}
