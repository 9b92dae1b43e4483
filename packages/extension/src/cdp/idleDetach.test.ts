import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fakeClock.js';
import { IdleDetacher } from './idleDetach.js';

function setup(keep: (tabId: number) => boolean = () => false) {
  const clock = new FakeClock();
  const detached: number[] = [];
  const idle = new IdleDetacher({
    clock,
    keep: async (tabId) => keep(tabId),
    detach: async (tabId) => {
      detached.push(tabId);
      idle.forgotten(tabId);
    },
  });
  idle.setIdleMs(15_000);
  return { clock, idle, detached };
}

describe('IdleDetacher', () => {
  it('detaches a session unused for the idle time, not before', async () => {
    const { clock, idle, detached } = setup();
    idle.attached(3);
    await clock.advance(14_999);
    expect(detached).toEqual([]);
    await clock.advance(1);
    expect(detached).toEqual([3]);
  });

  it('counts from the last use', async () => {
    const { clock, idle, detached } = setup();
    idle.attached(3);
    await clock.advance(10_000);
    idle.used(3);
    await clock.advance(10_000);
    expect(detached).toEqual([]);
    await clock.advance(5_000);
    expect(detached).toEqual([3]);
  });

  it('never detaches a tab a call holds, and counts from the end of the call', async () => {
    const { clock, idle, detached } = setup();
    idle.attached(3);
    const release = idle.hold([3]);
    await clock.advance(60_000);
    expect(detached).toEqual([]);
    release();
    release(); // idempotent
    await clock.advance(14_000);
    expect(detached).toEqual([]);
    await clock.advance(1_000);
    expect(detached).toEqual([3]);
  });

  it('holds every tab while a call that may open one runs, and a tab it used counts as used at its end', async () => {
    const { clock, idle, detached } = setup();
    idle.attached(1);
    const release = idle.hold('all');
    await clock.advance(5_000);
    idle.attached(2); // the tab the call opened
    await clock.advance(40_000);
    expect(detached).toEqual([]);
    release();
    await clock.advance(1);
    expect(detached).toEqual([1]);
    await clock.advance(14_999);
    expect(detached).toEqual([1, 2]);
  });

  it('keeps a session something still needs, and detaches it once nothing does', async () => {
    let needed = true;
    const { clock, idle, detached } = setup(() => needed);
    idle.attached(4);
    await clock.advance(30_000);
    expect(detached).toEqual([]);
    needed = false;
    await clock.advance(15_000);
    expect(detached).toEqual([4]);
  });

  it('0 turns idle detaching off; a new idle time applies to attached tabs', async () => {
    const { clock, idle, detached } = setup();
    idle.setIdleMs(0);
    idle.attached(5);
    await clock.advance(3_600_000);
    expect(detached).toEqual([]);
    idle.setIdleMs(2_000);
    await clock.advance(2_000);
    expect(detached).toEqual([5]);
  });

  it('forgets a tab whose session ended (no timer left behind)', async () => {
    const { clock, idle, detached } = setup();
    idle.attached(6);
    idle.forgotten(6);
    expect(clock.pending()).toBe(0);
    await clock.advance(60_000);
    expect(detached).toEqual([]);
  });
});
