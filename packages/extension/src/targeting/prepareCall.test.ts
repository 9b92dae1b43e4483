import { describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { SESSION_KEYS } from '../state/storage.js';
import { FakeBrowser } from '../testing/fakeBrowser.js';
import { fakeOrganize } from '../testing/fakeOrganize.js';
import { prepareCall, type TargetedCall } from './prepareCall.js';
import { createTargetingContext } from './context.js';
import { LeaseStore } from './leases.js';
import { rememberTab } from '../targets.js';

function setup() {
  const browser = new FakeBrowser();
  let now = 1_000_000;
  const organize = fakeOrganize(browser);
  const window = browser.addWindow({ focused: true });
  const tab = browser.addTab({ windowId: window, active: true }).id ?? 0;
  const refs = new Map<string, number>();
  const ctx = createTargetingContext({
    browser,
    organize,
    leases: new LeaseStore(browser, () => now),
    refs: {
      lookup: async (ref) => {
        const owner = refs.get(ref);
        const document = { frameId: 'F', loaderId: 'L' };
        return owner === undefined ? undefined : { state: 'live', tabId: owner, document, frame: document, record: { role: 'button', name: '' } };
      },
      forgetTab: async () => undefined,
    },
    seesGroup: async () => true,
  });
  const remember = (id: number) => browser.session.set(SESSION_KEYS.currentTab, id);
  return { browser, ctx, organize, tab, refs, remember, advance: (ms: number) => (now += ms) };
}

async function outcome(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return 'ok';
  } catch (error) {
    if (!(error instanceof RelayError)) return String(error);
    return typeof error.details['reason'] === 'string' ? `${error.code}:${error.details['reason']}` : error.code;
  }
}

describe('prepareCall', () => {
  it('resolves a workspace to its tab, and refuses two targets or a missing one', async () => {
    const { ctx } = setup();
    const ws = await ctx.workspaces.create('w1', null, 'about:blank');
    expect((await prepareCall('snapshot', { params: {}, target: { workspace: 'w1' } }, ctx)).params).toEqual({ tab: ws.tabIds[0] });
    expect(await outcome(prepareCall('snapshot', { params: { tab: 3 }, target: { workspace: 'w1' } }, ctx))).toBe('target_conflict:multiple_targets');
    expect(await outcome(prepareCall('snapshot', { params: {}, target: { workspace: 'w1', group: 'g' } }, ctx))).toBe('target_conflict:multiple_targets');
    expect(await outcome(prepareCall('snapshot', { params: {}, target: { workspace: 'nope' } }, ctx))).toBe('target_not_found');
    expect(await outcome(prepareCall('tabs', { params: {}, target: { workspace: 'w1' } }, ctx))).toBe('invalid_arguments');
    expect(await outcome(prepareCall('snapshot', { params: {}, target: { group: 'g' } }, ctx))).toBe('target_not_found');
  });

  it('looks the tab up once when no lease is held anywhere; its window only when one is (workspace leases)', async () => {
    const { browser, ctx, tab } = setup();
    let lookups = 0;
    const getTab = browser.getTab.bind(browser);
    browser.getTab = (id: number) => (lookups++, getTab(id));
    await prepareCall('js', { params: { expression: '1', tab }, agent: 'a1' }, ctx);
    expect(lookups).toBe(1);
    await ctx.leases.claim('tab', String(tab), 'a1', 60_000);
    lookups = 0;
    await prepareCall('js', { params: { expression: '1', tab }, agent: 'a1' }, ctx);
    expect(lookups).toBe(2);
    expect(await outcome(prepareCall('js', { params: { expression: '1', tab }, agent: 'a2' }, ctx))).toBe('target_conflict:leased');
  });

  it('an envelope --tab acts exactly like the tab param', async () => {
    const { browser, ctx, remember } = setup();
    const other = browser.addTab({}).id ?? 0;
    const mine = browser.addTab({}).id ?? 0;
    remember(other);
    expect((await prepareCall('js', { params: { expression: '1' }, target: { tab: mine } }, ctx)).params).toEqual({ expression: '1', tab: mine });
    expect((await prepareCall('close', { params: {}, target: { tab: mine } }, ctx)).params).toEqual({ tabs: [mine] });
  });

  it('validates what the agent gave before looking anything up', async () => {
    const { ctx } = setup();
    expect(await outcome(prepareCall('snapshot', { params: { tab: 'seven' } }, ctx))).toBe('invalid_arguments');
  });

  it('never acts on a tab chrome-relay was not given: no remembered tab, no default', async () => {
    const { browser, ctx, tab, remember } = setup();
    // `tab` is the active tab of the focused window — the person's.
    expect(await outcome(prepareCall('snapshot', { params: {} }, ctx))).toBe('target_not_found');
    expect(await outcome(prepareCall('close', { params: {} }, ctx))).toBe('target_not_found');
    const worked = browser.addTab({}).id ?? 0;
    remember(worked);
    expect((await prepareCall('click', { params: { x: 1, y: 1 } }, ctx)).params).toEqual({ x: 1, y: 1, tab: worked });
    browser.closeTab(worked);
    expect(await outcome(prepareCall('click', { params: { x: 1, y: 1 } }, ctx))).toBe('target_not_found');
    expect(await outcome(prepareCall('close', { params: {} }, ctx))).toBe('target_not_found');
    expect(browser.tabs.has(tab)).toBe(true);
  });

  it('resolves a group to its first tab and injects the agent where the tool takes one', async () => {
    const { ctx, organize, tab } = setup();
    const groupId = await organize.groupTabs([tab]);
    await organize.updateGroup(groupId, { title: 'g' });
    expect((await prepareCall('screenshot', { params: {}, target: { group: 'g' } }, ctx)).params).toEqual({ tab });
    expect((await prepareCall('lease_list', { params: {}, agent: 'a' }, ctx)).params).toEqual({});
    await ctx.workspaces.create('x', null, 'about:blank');
    expect((await prepareCall('workspace_close', { params: { name: 'x' }, agent: 'a' }, ctx)).params).toEqual({ name: 'x', agent: 'a' });
    expect(await outcome(prepareCall('workspace_close', { params: { name: 'gone' }, agent: 'a' }, ctx))).toBe('target_not_found');
  });

  it('enforces leases against other agents and anonymous calls, refreshes the owner, and expires idle leases', async () => {
    const { ctx, tab, advance, remember } = setup();
    remember(tab);
    await ctx.leases.claim('tab', String(tab), 'alice', 1000);
    expect(await outcome(prepareCall('snapshot', { params: { tab }, agent: 'bob' }, ctx))).toBe('target_conflict:leased');
    expect(await outcome(prepareCall('snapshot', { params: {} }, ctx))).toBe('target_conflict:leased'); // remembered tab, no agent
    advance(900);
    expect(await outcome(prepareCall('snapshot', { params: { tab }, agent: 'alice' }, ctx))).toBe('ok'); // refreshes
    advance(900);
    expect(await outcome(prepareCall('snapshot', { params: { tab }, agent: 'bob' }, ctx))).toBe('target_conflict:leased');
    advance(200);
    expect(await outcome(prepareCall('snapshot', { params: { tab }, agent: 'bob' }, ctx))).toBe('ok');
  });

  it("guards close too: another agent's leased tab is not closed, by id or as the remembered tab", async () => {
    const { browser, ctx } = setup();
    const leased = browser.addTab({}).id ?? 0;
    const free = browser.addTab({}).id ?? 0;
    await ctx.leases.claim('tab', String(leased), 'alice', 60_000);
    expect(await outcome(prepareCall('close', { params: { tabs: [free, leased] }, agent: 'bob' }, ctx))).toBe('target_conflict:leased');
    // bob last worked in that tab, before alice leased it.
    await rememberTab(leased, browser, 'bob');
    expect(await outcome(prepareCall('close', { params: {}, agent: 'bob' }, ctx))).toBe('target_conflict:leased');
    expect(await outcome(prepareCall('close', { params: { tabs: [leased] }, agent: 'alice' }, ctx))).toBe('ok');
  });

  it('checks a ref call against the lease on the ref\'s tab', async () => {
    const { browser, ctx, refs } = setup();
    const leased = browser.addTab({}).id ?? 0;
    refs.set('e3', leased);
    await ctx.leases.claim('tab', String(leased), 'alice', 60_000);
    const call: TargetedCall = { params: { ref: 'e3' }, agent: 'bob' };
    expect(await outcome(prepareCall('click', call, ctx))).toBe('target_conflict:leased');
  });

  it('a workspace lease covers every tab of its window', async () => {
    const { ctx } = setup();
    const ws = await ctx.workspaces.create('w2', 'alice', 'about:blank');
    await ctx.leases.claim('workspace', 'w2', 'alice', 60_000);
    try {
      await prepareCall('click', { params: { tab: ws.tabIds[0], x: 1, y: 1 }, agent: 'bob' }, ctx);
      expect.unreachable();
    } catch (error) {
      expect((error as RelayError).details).toMatchObject({ owner: 'alice', kind: 'workspace', target: 'w2', reason: 'leased' });
      expect((error as RelayError).message).toContain('ask the person');
      expect((error as RelayError).message).not.toContain('--force');
    }
  });
});

describe('LeaseStore', () => {
  it('a lease dies with its tab', async () => {
    const { ctx, tab } = setup();
    await ctx.leases.claim('tab', String(tab), 'alice', 60_000);
    await ctx.leases.claim('tab', '4242', 'alice', 60_000);
    expect(await ctx.leases.dropTab(tab)).toMatchObject([{ target: String(tab) }]);
    expect((await ctx.leases.list()).map((l) => l.target)).toEqual(['4242']);
  });

  it('tabs a tool names in its params are all or nothing (missing, leased), unless allowPartial leaves those out', async () => {
    const { browser, ctx } = setup();
    const a = browser.addTab({}).id ?? 0;
    const b = browser.addTab({}).id ?? 0;
    await ctx.leases.claim('tab', String(b), 'other', 60_000);
    expect(await outcome(prepareCall('group_create', { params: { name: 'g', tabs: [a, 999] }, agent: 'me' }, ctx))).toBe('partial_success_disallowed');
    expect(await outcome(prepareCall('group_create', { params: { name: 'g', tabs: [b] }, agent: 'me' }, ctx))).toBe('target_conflict:leased');
    expect(await outcome(prepareCall('group_create', { params: { name: 'g', tabs: [999] }, agent: 'me' }, ctx))).toBe('target_not_found');
    const partial = await prepareCall('group_create', { params: { name: 'g', tabs: [a, 999, b], allowPartial: true }, agent: 'me' }, ctx);
    expect(partial.params).toMatchObject({ tabs: [a] });
    expect(partial.tabs).toMatchObject({ kind: 'tabs', tabs: [a], refused: [{ target: '999', code: 'target_not_found' }, { target: String(b), code: 'target_conflict' }] });
  });
});
