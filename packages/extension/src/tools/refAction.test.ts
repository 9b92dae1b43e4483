import { describe, expect, it } from 'vitest';
import type { FrameInfo } from '../page/frames.js';
import { frameChain } from './refAction.js';

const frame = (frameId: string, parentId?: string): FrameInfo => ({ frameId, loaderId: 'L', url: '', ...(parentId === undefined ? {} : { parentId }) });

describe('frameChain', () => {
  it('lists child/parent steps from the frame up to the main frame', () => {
    const frames = [frame('M'), frame('A', 'M'), frame('B', 'A')];
    expect(frameChain(frames, 'B')?.map((step) => [step.child.frameId, step.parent.frameId])).toEqual([
      ['B', 'A'],
      ['A', 'M'],
    ]);
    expect(frameChain(frames, 'M')).toEqual([]);
  });

  it('is undefined when the frame or an ancestor is gone', () => {
    expect(frameChain([frame('M')], 'B')).toBeUndefined();
    expect(frameChain([frame('M'), frame('B', 'A')], 'B')).toBeUndefined();
  });
});
