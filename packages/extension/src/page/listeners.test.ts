import { describe, expect, it } from 'vitest';
import { DELEGATION_TYPES, MAX_ELEMENTS, ownListeners, pickListenerNodes, type ScanSite } from './listeners.js';
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
