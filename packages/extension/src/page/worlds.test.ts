import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../refs/memoryStore.js';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { Worlds } from './worlds.js';

describe('Worlds.ensure', () => {
  it('never makes a world in a frame the list marked blocked (nothing is sent to it)', async () => {
    const { ctx, debugger: dbg } = createFakeEnvironment();
    const blocked = { frameId: 'BANK', loaderId: 'L1', blocked: { rule: 'bank.test', url: 'https://bank.test/' } };
    await expect(new Worlds(new MemoryStore()).ensure(ctx, 7, blocked)).rejects.toMatchObject({ code: 'target_conflict', details: { reason: 'site_blocked', tab: 7, rule: 'bank.test' } });
    expect(dbg.sent).toEqual([]);
  });
});
