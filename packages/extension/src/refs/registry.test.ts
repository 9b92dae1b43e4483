import { describe, expect, it } from 'vitest';
import { MemoryStore } from './memoryStore.js';
import { RefRegistry, type RefSummary } from './registry.js';

const DOC_A = { frameId: 'F-A', loaderId: 'L-A1' };
const DOC_B = { frameId: 'F-B', loaderId: 'L-B1' };

function records(...refs: string[]): RefSummary[] {
  return refs.map((ref) => ({ ref, role: 'button', name: `Button ${ref}` }));
}

describe('RefRegistry', () => {
  it('says which tab and document issued a ref', async () => {
    const registry = new RefRegistry(new MemoryStore());
    await registry.replaceTab(1, DOC_A, records('e1', 'e2'));
    await registry.replaceTab(2, DOC_B, records('e3'));
    expect(await registry.lookup('e2')).toEqual({ state: 'live', tabId: 1, document: DOC_A, frame: DOC_A, record: records('e2')[0] });
    expect(await registry.lookup('e3')).toMatchObject({ state: 'live', tabId: 2, document: DOC_B });
    expect(await registry.lookup('e99')).toBeUndefined();
  });

  it('a new snapshot of one tab replaces only that tab’s refs', async () => {
    const registry = new RefRegistry(new MemoryStore());
    await registry.replaceTab(1, DOC_A, records('e1', 'e2'));
    await registry.replaceTab(2, DOC_B, records('e3'));
    await registry.replaceTab(1, { frameId: 'F-A', loaderId: 'L-A1' }, records('e2', 'e4'));
    expect(await registry.lookup('e1')).toBeUndefined(); // its element was not seen again
    expect(await registry.lookup('e2')).toMatchObject({ tabId: 1 });
    expect(await registry.lookup('e4')).toMatchObject({ tabId: 1 });
    expect(await registry.lookup('e3')).toMatchObject({ state: 'live', tabId: 2 });
  });

  it('marks a navigated tab’s refs as navigated, not unknown', async () => {
    const registry = new RefRegistry(new MemoryStore());
    await registry.replaceTab(1, DOC_A, records('e1'));
    await registry.replaceTab(2, DOC_B, records('e2'));
    await registry.markNavigated(1);
    expect(await registry.lookup('e1')).toEqual({ state: 'navigated', tabId: 1 });
    expect(await registry.lookup('e2')).toMatchObject({ state: 'live' });
    // The next snapshot of the tab brings it back to life with new refs; the old ones still say they navigated.
    await registry.replaceTab(1, { frameId: 'F-A', loaderId: 'L-A2' }, records('e5'));
    expect(await registry.lookup('e1')).toEqual({ state: 'navigated', tabId: 1 });
    expect(await registry.lookup('e5')).toMatchObject({ state: 'live', document: { loaderId: 'L-A2' } });
  });

  it('a snapshot of the next document keeps the earlier refs as navigated (also across a worker restart), and the same document drops unseen ones', async () => {
    const store = new MemoryStore();
    const registry = new RefRegistry(store);
    await registry.replaceTab(1, DOC_A, records('e1', 'e2'));
    await registry.replaceTab(1, { frameId: 'F-A', loaderId: 'L-A2' }, records('e3'));
    await registry.replaceTab(1, { frameId: 'F-A', loaderId: 'L-A3' }, records('e4'));
    expect(await registry.lookup('e1')).toEqual({ state: 'navigated', tabId: 1 });
    expect(await registry.lookup('e3')).toEqual({ state: 'navigated', tabId: 1 });
    await registry.replaceTab(1, { frameId: 'F-A', loaderId: 'L-A3' }, records('e5'));
    expect(await registry.lookup('e4')).toBeUndefined();
    expect(await registry.lookup('e2')).toEqual({ state: 'navigated', tabId: 1 });
    const restarted = new RefRegistry(store);
    expect(await restarted.lookup('e2')).toEqual({ state: 'navigated', tabId: 1 });
    expect(await restarted.lookup('e5')).toMatchObject({ state: 'live' });
    await restarted.forgetTab(1);
    expect(await restarted.lookup('e1')).toEqual({ state: 'closed', tabId: 1 });
  });

  it('forgetTab leaves a "closed" tombstone and touches no other tab', async () => {
    const registry = new RefRegistry(new MemoryStore());
    await registry.replaceTab(1, DOC_A, records('e1'));
    await registry.replaceTab(2, DOC_B, records('e2'));
    await registry.forgetTab(1);
    await registry.forgetTab(1); // twice is harmless
    expect(await registry.lookup('e1')).toEqual({ state: 'closed', tabId: 1 });
    expect(await registry.lookup('e2')).toMatchObject({ state: 'live', tabId: 2 });
  });

  it('keeps a bounded number of closed-tab tombstones (oldest dropped first)', async () => {
    const registry = new RefRegistry(new MemoryStore());
    for (let tab = 1; tab <= 25; tab++) {
      await registry.replaceTab(tab, DOC_A, records(`e${tab}`));
      await registry.forgetTab(tab);
    }
    expect(await registry.lookup('e1')).toBeUndefined();
    expect(await registry.lookup('e5')).toBeUndefined();
    expect(await registry.lookup('e6')).toEqual({ state: 'closed', tabId: 6 });
    expect(await registry.lookup('e25')).toEqual({ state: 'closed', tabId: 25 });
  });

  it('survives a worker restart: a new instance on the same storage knows everything', async () => {
    const store = new MemoryStore();
    const first = new RefRegistry(store);
    await first.replaceTab(1, DOC_A, records('e1', 'e2'));
    await first.replaceTab(2, DOC_B, records('e3'));
    await first.markNavigated(2);
    await first.replaceTab(3, DOC_B, records('e4'));
    await first.forgetTab(3);

    const restarted = new RefRegistry(store);
    expect(await restarted.lookup('e2')).toMatchObject({ state: 'live', tabId: 1, document: DOC_A });
    expect(await restarted.lookup('e3')).toEqual({ state: 'navigated', tabId: 2 });
    expect(await restarted.lookup('e4')).toEqual({ state: 'closed', tabId: 3 });
  });

  it('treats malformed stored entries (e.g. from an older build) as unknown refs', async () => {
    const store = new MemoryStore();
    store.data.set('refs:tabs', [1, 2, 3, 'x']);
    store.data.set('refs:tab:1', { tabId: 1, state: 'live', frameId: 'F', loaderId: 'L', refs: JSON.stringify([['e1']]) });
    store.data.set('refs:tab:2', { tabId: 2, state: 'live', frameId: 'F', loaderId: 'L', refs: JSON.stringify([['e2', 'button', 'OK']]) });
    store.data.set('refs:tab:3', { tabId: 3, state: 'closed', refs: '{not json' });
    const registry = new RefRegistry(store);
    expect(await registry.lookup('e1')).toBeUndefined();
    expect(await registry.lookup('e2')).toEqual({ state: 'live', tabId: 2, document: { frameId: 'F', loaderId: 'L' }, frame: { frameId: 'F', loaderId: 'L' }, record: { ref: 'e2', role: 'button', name: 'OK' } });
  });

  it('stores each tab as one compact string (thousands of small objects are slow to store)', async () => {
    const store = new MemoryStore();
    await new RefRegistry(store).replaceTab(1, DOC_A, records('e1', 'e2'));
    expect(store.data.get('refs:tab:1')).toEqual({
      tabId: 1,
      state: 'live',
      frameId: 'F-A',
      loaderId: 'L-A1',
      refs: '[["e1","button","Button e1"],["e2","button","Button e2"]]',
    });
  });

  it('reports a failed storage write to the caller and keeps working afterwards', async () => {
    const store = new MemoryStore();
    const registry = new RefRegistry(store);
    store.failNextSet = new Error('QUOTA_BYTES quota exceeded');
    await expect(registry.replaceTab(1, DOC_A, records('e1'))).rejects.toThrow(/quota/);
    await registry.replaceTab(2, DOC_B, records('e2'));
    expect(await new RefRegistry(store).lookup('e2')).toMatchObject({ tabId: 2 });
  });

  it('addRefs: a ref issued outside a snapshot joins its document\'s refs, through storage; another document starts anew', async () => {
    const store = new MemoryStore();
    const registry = new RefRegistry(store);
    await registry.replaceTab(1, DOC_A, records('e1', 'e2'));
    const frame = { frameId: 'F-child', loaderId: 'L-child' };
    await registry.addRefs(1, DOC_A, [{ ref: 'e9', role: 'generic', name: 'Cookie banner', frame }]);
    expect(await registry.lookup('e1')).toMatchObject({ state: 'live', tabId: 1 });
    expect(await registry.lookup('e9')).toEqual({ state: 'live', tabId: 1, document: DOC_A, frame, record: { ref: 'e9', role: 'generic', name: 'Cookie banner', frame } });
    // A worker restart reads it back.
    expect(await new RefRegistry(store).lookup('e9')).toMatchObject({ state: 'live', tabId: 1, frame });
    // The tab shows another document now (no snapshot of it yet): only the new ref is live there; the others navigated.
    await registry.addRefs(1, DOC_B, records('e10'));
    expect(await registry.lookup('e10')).toMatchObject({ state: 'live', document: DOC_B });
    expect(await registry.lookup('e1')).toEqual({ state: 'navigated', tabId: 1 });
    expect(await registry.lookup('e9')).toEqual({ state: 'navigated', tabId: 1 });
  });

  it('concurrent snapshots of different tabs both land in storage', async () => {
    const store = new MemoryStore();
    const registry = new RefRegistry(store);
    await Promise.all([registry.replaceTab(1, DOC_A, records('e1')), registry.replaceTab(2, DOC_B, records('e2'))]);
    const restarted = new RefRegistry(store);
    expect(await restarted.lookup('e1')).toMatchObject({ tabId: 1 });
    expect(await restarted.lookup('e2')).toMatchObject({ tabId: 2 });
  });
});

describe('RefRegistry frames', () => {
  it('keeps each iframe ref’s frame document through storage; main-frame refs read the tab’s document', async () => {
    const store = new MemoryStore();
    const main = { frameId: 'M', loaderId: 'LM' };
    const child = { frameId: 'C', loaderId: 'LC' };
    await new RefRegistry(store).replaceTab(3, main, [
      { ref: 'e1', role: 'button', name: 'Top' },
      { ref: 'e2', role: 'button', name: 'In frame', frame: child },
      { ref: 'e3', role: 'textbox', name: 'Field', frame: child },
    ]);
    const reloaded = new RefRegistry(store);
    expect(await reloaded.lookup('e1')).toMatchObject({ state: 'live', document: main, frame: main });
    expect(await reloaded.lookup('e3')).toMatchObject({ state: 'live', document: main, frame: child, record: { ref: 'e3', frame: child } });
  });

  it('reads a tuple pointing at a missing frame as malformed (unknown refs)', async () => {
    const store = new MemoryStore();
    await store.set({ 'refs:tabs': [4], 'refs:tab:4': { tabId: 4, state: 'live', frameId: 'M', loaderId: 'L', refs: JSON.stringify([['e5', 'button', 'X', 2]]) } });
    expect(await new RefRegistry(store).lookup('e5')).toBeUndefined();
  });
});
