/**
 * Test fixture: a tab whose page embeds a frame on a site the person blocked (BANK), an open frame (OPEN) and,
 * inside the open one, another blocked frame (INNER). The frame list is what FrameSessions.list would give with
 * the rules applied; the fake page answers for every frame (its API is the test's).
 */
import type { FakePageApi, FakePageTab } from './fakePage.js';
import { FakePages } from './fakePage.js';
import type { FrameInfo } from '../page/frames.js';
import { Worlds } from '../page/worlds.js';
import { frameBlocks } from '../policy/frameBlocks.js';
import { parseSiteRules } from '../policy/sitePatterns.js';
import { MemoryStore } from '../refs/memoryStore.js';
import { RefRegistry } from '../refs/registry.js';
import { createFakeEnvironment } from './fakeChrome.js';

export const BANK_RULE = 'bank.test';

/** The frames of a tab while the person blocks no site (and the tab has no out-of-process frame). */
export const NO_BLOCKED_FRAMES = { list: () => Promise.resolve<FrameInfo[]>([]), hasOutOfProcessFrames: () => Promise.resolve(false), blockList: () => Promise.resolve([]), blocking: () => Promise.resolve(undefined) };

export function blockedFramesTab(options: { api?: FakePageApi; rules?: string[] } = {}) {
  const env = createFakeEnvironment();
  const pages = new FakePages(env.debugger);
  const session = new MemoryStore();
  const registry = new RefRegistry(session);
  const worlds = new Worlds(session);
  const tabId = env.browser.addTab({ active: true, url: 'https://news.test/' }).id ?? 0;
  const page: FakePageTab = pages.open(tabId, options.api ?? {});
  page.installed = true;
  const rules = parseSiteRules(options.rules ?? [BANK_RULE]).rules;
  let frames: FrameInfo[] = [
    { frameId: page.frameId, loaderId: page.loaderId, url: 'https://news.test/' },
    { frameId: 'BANK', loaderId: 'LB', url: 'https://bank.test/account', parentId: page.frameId },
    { frameId: 'OPEN', loaderId: 'LO', url: 'https://widgets.test/', parentId: page.frameId },
    { frameId: 'INNER', loaderId: 'LI', url: 'https://bank.test/pay', parentId: 'OPEN' },
  ];
  const listed = (): FrameInfo[] => {
    const blocks = frameBlocks(frames, rules);
    return frames.map((frame) => {
      const block = blocks.get(frame.frameId);
      return block === undefined ? { ...frame } : { ...frame, blocked: block };
    });
  };
  const frameSessions = { list: () => Promise.resolve(listed()), hasOutOfProcessFrames: () => Promise.resolve(false), blockList: () => Promise.resolve(rules), blocking: () => Promise.resolve(undefined) };
  /** DOM.describeNode of an element handle: the frame it shows, by object id (`el:<frameId>`). */
  env.debugger.handle('DOM.describeNode', (params) => {
    const objectId = (params as { objectId?: string }).objectId ?? '';
    const frameId = objectId.startsWith('el:') ? objectId.slice(3) : undefined;
    return { node: { nodeId: 0, backendNodeId: 1, nodeType: 1, nodeName: 'IFRAME', localName: 'iframe', nodeValue: '', ...(frameId === undefined ? {} : { frameId }) } };
  });
  env.debugger.handle('Runtime.releaseObjectGroup', () => ({}));
  /** Move a frame onto another URL (a navigation: new loader). */
  const navigateFrame = (frameId: string, url: string): void => {
    frames = frames.map((frame) => (frame.frameId === frameId ? { ...frame, url, loaderId: `${frame.loaderId}+` } : frame));
  };
  const inputEvents = () => env.debugger.methods(tabId).filter((method) => method.startsWith('Input.'));
  const ctx = { ...env.ctx, registry, worlds, frames: frameSessions };
  return { ...env, ctx, page, tabId, registry, worlds, frames: frameSessions, navigateFrame, inputEvents };
}
