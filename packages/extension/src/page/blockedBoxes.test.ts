import { parseSiteRules } from '../policy/sitePatterns.js';
import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { NO_BLOCKED_FRAMES } from '../testing/blockedFrames.js';
import { blockedLayout, frameArea, localRootOf, outermostBlocked, quadBounds, type OwnerBox, type Rect } from './blockedBoxes.js';
import type { FrameInfo } from './frames.js';

const BLOCK = { rule: 'bank.test', url: 'https://bank.test/' };

/**
 * main ─┬─ SAME (same process, open) ── DEEP (same process, blocked)
 *       ├─ OOP (own session S1, open) ─ MID (S1, open) ─ IN (S1, blocked) ─ UNDER (S1, inside a blocked one)
 *       └─ BANK (own session S2, blocked)
 */
const frames: FrameInfo[] = [
  { frameId: 'main', loaderId: 'l', url: 'https://news.test/' },
  { frameId: 'SAME', loaderId: 'l', url: 'https://news.test/a', parentId: 'main' },
  { frameId: 'DEEP', loaderId: 'l', url: 'https://bank.test/', parentId: 'SAME', blocked: BLOCK },
  { frameId: 'OOP', loaderId: 'l', url: 'https://w.test/', parentId: 'main', sessionId: 'S1' },
  { frameId: 'MID', loaderId: 'l', url: 'https://w.test/m', parentId: 'OOP', sessionId: 'S1' },
  { frameId: 'IN', loaderId: 'l', url: 'https://bank.test/', parentId: 'MID', sessionId: 'S1', blocked: BLOCK },
  { frameId: 'UNDER', loaderId: 'l', url: 'about:blank', parentId: 'IN', sessionId: 'S1', blocked: BLOCK },
  { frameId: 'BANK', loaderId: 'l', url: 'https://bank.test/', parentId: 'main', sessionId: 'S2', blocked: BLOCK },
];
const frame = (id: string): FrameInfo => frames.find((f) => f.frameId === id) ?? frames[0] ?? { frameId: '', loaderId: '', url: '' };

/** Each owner's content box as DOM.getBoxModel gives it: in the viewport of the parent's local root. */
function owners(boxes: Record<string, Rect | undefined>): { ownerBox: OwnerBox; asked: string[] } {
  const asked: string[] = [];
  return { asked, ownerBox: (child) => (asked.push(child.frameId), Promise.resolve(boxes[child.frameId])) };
}

describe('where the page draws a blocked frame', () => {
  it('paints over the outermost blocked frames only (a frame inside one is covered by its box)', () => {
    expect(outermostBlocked(frames).map((f) => f.frameId)).toEqual(['DEEP', 'IN', 'BANK']);
  });

  it('a local root is where the session changes', () => {
    expect(localRootOf(frames, frame('IN')).frameId).toBe('OOP');
    expect(localRootOf(frames, frame('SAME')).frameId).toBe('main');
    expect(localRootOf(frames, frame('BANK')).frameId).toBe('BANK');
  });

  it('a same-process frame is measured once: Chromium already gives its box in the main viewport', async () => {
    const { ownerBox, asked } = owners({ DEEP: { x: 40, y: 60, width: 100, height: 50 } });
    expect(await frameArea(frames, frame('DEEP'), ownerBox)).toEqual({ x: 40, y: 60, width: 100, height: 50 });
    expect(asked).toEqual(['DEEP']);
  });

  it('inside an out-of-process frame: offset by that frame\'s own iframe box, and cut to it', async () => {
    const { ownerBox, asked } = owners({ IN: { x: 10, y: 20, width: 300, height: 100 }, OOP: { x: 100, y: 200, width: 250, height: 400 } });
    expect(await frameArea(frames, frame('IN'), ownerBox)).toEqual({ x: 110, y: 220, width: 240, height: 100 });
    expect(asked).toEqual(['IN', 'OOP']);
  });

  it('is not drawn when its iframe, or the frame it sits in, has no box', async () => {
    expect(await frameArea(frames, frame('IN'), owners({ IN: { x: 0, y: 0, width: 10, height: 10 } }).ownerBox)).toBeUndefined();
    expect(await frameArea(frames, frame('BANK'), owners({ BANK: { x: 0, y: 0, width: 0, height: 10 } }).ownerBox)).toBeUndefined();
  });

  it('covers a transformed iframe by the bounds of its quad', () => {
    expect(quadBounds([50, 0, 100, 50, 50, 100, 0, 50])).toEqual({ x: 0, y: 0, width: 100, height: 100 });
  });
});

describe('blockedLayout', () => {
  it('asks nothing of the tab while the person blocks no site', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    expect(await blockedLayout(env.ctx, NO_BLOCKED_FRAMES, tab)).toBeUndefined();
    expect(env.debugger.methods()).toEqual([]);
  });

  it('fails site_blocked naming the rule and origin when a blocked frame cannot be measured', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    env.debugger.handle('DOM.getFrameOwner', () => {
      throw new Error('Frame with the given id was not found.');
    });
    const listed = { list: () => Promise.resolve(frames.slice(0, 3)), blockList: () => Promise.resolve(parseSiteRules(['bank.test']).rules) };
    const error = await blockedLayout(env.ctx, listed, tab).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'target_conflict', details: { reason: 'site_blocked', rule: 'bank.test', origin: 'https://bank.test' } });
  });
});
