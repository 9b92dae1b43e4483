import { describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { FakeBrowser } from '../testing/fakeChrome.js';
import { MemoryStore } from './memoryStore.js';
import { resolveRefTarget, withWhereNavigated } from './refTarget.js';
import { RefRegistry } from './registry.js';

const record = { ref: 'e7', role: 'button', name: 'Save' };

async function setup() {
  const browser = new FakeBrowser();
  browser.addWindow({ focused: true });
  const tabA = browser.addTab({ url: 'https://a.test/' }).id ?? 0;
  const tabB = browser.addTab({ url: 'https://b.test/' }).id ?? 0;
  const registry = new RefRegistry(new MemoryStore());
  await registry.replaceTab(tabA, { frameId: 'F', loaderId: 'L1' }, [record]);
  return { browser, registry, tabA, tabB };
}

async function failure(promise: Promise<unknown>): Promise<RelayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof RelayError)) throw new Error(`expected a RelayError, got ${String(error)}`);
  return error;
}

describe('resolveRefTarget', () => {
  it('finds the ref’s tab without --tab, and accepts a matching --tab', async () => {
    const { browser, registry, tabA } = await setup();
    expect(await resolveRefTarget(registry, browser, 'e7', undefined)).toEqual({
      ref: 'e7',
      tabId: tabA,
      document: { frameId: 'F', loaderId: 'L1' },
      frame: { frameId: 'F', loaderId: 'L1' },
      record,
    });
    expect((await resolveRefTarget(registry, browser, 'e7', tabA)).tabId).toBe(tabA);
  });

  it('an unknown ref is stale_ref telling the agent to snapshot again', async () => {
    const { browser, registry } = await setup();
    const error = await failure(resolveRefTarget(registry, browser, 'e999', undefined));
    expect(error.code).toBe('stale_ref');
    expect(error.details).toEqual({ ref: 'e999', reason: 'unknown_ref' });
    expect(error.message).toContain('chrome-relay snapshot');
  });

  it('a call resolved to another tab than the ref lives in is a bug of ours: --tab against a ref is refused before (resolveCall)', async () => {
    const { browser, registry, tabA, tabB } = await setup();
    const error = await failure(resolveRefTarget(registry, browser, 'e7', tabB));
    expect(error.code).toBe('internal_error');
    expect(error.details).toEqual({ ref: 'e7', refTab: tabA, callTab: tabB });
  });

  it('a ref whose tab was closed is target_not_found (tabs.onRemoved seen)', async () => {
    const { browser, registry, tabA } = await setup();
    browser.closeTab(tabA);
    await registry.forgetTab(tabA);
    const error = await failure(resolveRefTarget(registry, browser, 'e7', undefined));
    expect(error.code).toBe('target_not_found');
    expect(error.details).toEqual({ ref: 'e7', tab: tabA });
  });

  it('a ref whose tab closed while the worker was down is target_not_found, and is remembered', async () => {
    const { browser, registry, tabA } = await setup();
    browser.closeTab(tabA);
    expect((await failure(resolveRefTarget(registry, browser, 'e7', undefined))).code).toBe('target_not_found');
    expect(await registry.lookup('e7')).toEqual({ state: 'closed', tabId: tabA });
  });

  it('a ref of a navigated tab is stale_ref with reason navigated', async () => {
    const { browser, registry, tabA } = await setup();
    await registry.markNavigated(tabA);
    const error = await failure(resolveRefTarget(registry, browser, 'e7', undefined));
    expect(error.code).toBe('stale_ref');
    expect(error.details).toEqual({ ref: 'e7', reason: 'navigated', tab: tabA });
  });

  it('withWhereNavigated tells where a navigated ref’s tab is now; other errors, and a tab gone, pass as they came', async () => {
    const { browser, registry, tabA } = await setup();
    await registry.markNavigated(tabA);
    const stale = await failure(resolveRefTarget(registry, browser, 'e7', undefined));
    const told = await withWhereNavigated(stale, browser);
    expect(told).toBeInstanceOf(RelayError);
    expect(told).toMatchObject({ code: 'stale_ref', details: { ref: 'e7', reason: 'navigated', tab: tabA, url: 'https://a.test/' } });
    expect((told as RelayError).message).toMatch(/^Ref @e7 is stale: its tab \(or the frame it is in\) navigated since the snapshot that issued it; tab \d+ now shows "https:\/\/a\.test\/"\. /);
    const other = new RelayError('timeout', 'x', { details: { reason: 'busy' } });
    expect(await withWhereNavigated(other, browser)).toBe(other);
    await browser.removeTab(tabA);
    expect(await withWhereNavigated(stale, browser)).toBe(stale);
  });
});
