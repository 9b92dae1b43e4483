import { describe, expect, it } from 'vitest';
import type { PageNode } from '../injected/types.js';
import { connectedFrames, type FrameInfo } from './frames.js';
import { graftFrames } from './frameTree.js';

describe('graftFrames', () => {
  it('hangs each child tree under its slot, nested frames too, and strips the slot markers', () => {
    const main: PageNode[] = [{ role: 'button', name: 'Top', ref: 'e1' }, { role: 'iframe', name: 'A', frameSlot: 0 }, { role: 'iframe', name: 'B', frameSlot: 1 }];
    const a: PageNode[] = [{ role: 'iframe', name: 'Inner', frameSlot: 0 }];
    const inner: PageNode[] = [{ role: 'button', name: 'Deep', ref: 'e3' }];
    const b: PageNode[] = [{ role: 'textbox', name: 'Field', ref: 'e2' }];
    const placed = graftFrames([
      { frameId: 'M', tree: main },
      { frameId: 'A', parentId: 'M', slot: 0, tree: a },
      { frameId: 'I', parentId: 'A', slot: 0, tree: inner },
      { frameId: 'B', parentId: 'M', slot: 1, tree: b },
    ]);
    expect([...placed].sort()).toEqual(['A', 'B', 'I', 'M']);
    expect(main).toEqual([
      { role: 'button', name: 'Top', ref: 'e1' },
      { role: 'iframe', name: 'A', children: [{ role: 'iframe', name: 'Inner', children: inner }] },
      { role: 'iframe', name: 'B', children: b },
    ]);
  });

  it('leaves out frames without a found slot, and their descendants', () => {
    const main: PageNode[] = [{ role: 'iframe', frameSlot: 0 }];
    const placed = graftFrames([
      { frameId: 'M', tree: main },
      { frameId: 'H', parentId: 'M', tree: [{ role: 'button', name: 'Hidden', ref: 'e9' }] },
      { frameId: 'K', parentId: 'H', slot: 0, tree: [] },
      { frameId: 'X', parentId: 'M', slot: 5, tree: [{ role: 'button', name: 'Nowhere' }] },
    ]);
    expect([...placed]).toEqual(['M']);
    expect(main).toEqual([{ role: 'iframe' }]);
  });

  it('marks a blocked frame’s iframe node with its rule, puts nothing under it, and does not count it as placed', () => {
    const main: PageNode[] = [{ role: 'iframe', name: 'Bank', ref: 'e1', frameSlot: 0 }, { role: 'iframe', name: 'Open', ref: 'e2', frameSlot: 1 }];
    const open: PageNode[] = [{ role: 'button', name: 'Go', ref: 'e3' }];
    const placed = graftFrames([
      { frameId: 'M', tree: main },
      { frameId: 'B', parentId: 'M', slot: 0, tree: [], blocked: 'bank.example.com' },
      { frameId: 'O', parentId: 'M', slot: 1, tree: open },
      // Even a tree under the same slot cannot reach a node already marked blocked.
      { frameId: 'B2', parentId: 'M', slot: 0, tree: [{ role: 'button', name: 'Transfer', ref: 'e4' }] },
    ]);
    expect([...placed].sort()).toEqual(['M', 'O']);
    expect(main).toEqual([
      { role: 'iframe', name: 'Bank', ref: 'e1', siteBlocked: 'bank.example.com' },
      { role: 'iframe', name: 'Open', ref: 'e2', children: open },
    ]);
  });
});

describe('connectedFrames', () => {
  const frame = (frameId: string, parentId?: string, sessionId?: string): FrameInfo => ({
    frameId,
    loaderId: `L${frameId}`,
    url: '',
    ...(parentId === undefined ? {} : { parentId }),
    ...(sessionId === undefined ? {} : { sessionId }),
  });

  it('orders parents first across sessions and drops frames whose parent is unknown', () => {
    const frames = [frame('O', 'S', 's1'), frame('M'), frame('S', 'M'), frame('Lost', 'Gone', 's2')];
    expect(connectedFrames(frames).map((f) => f.frameId)).toEqual(['M', 'S', 'O']);
  });
});
