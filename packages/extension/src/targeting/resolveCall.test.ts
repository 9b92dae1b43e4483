import { describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { SESSION_KEYS } from '../state/storage.js';
import { tabUseOf } from '@chrome-relay/protocol';
import { mergeEnvelope, resolveCallTabs, withCallTabs, type RefTab, type ResolveContext, type Scope, type ScopeTabs } from './resolveCall.js';

/** A ref the registry holds live in `tab`. */
const live = (tabId: number): RefTab => ({ state: 'live', tabId, document: { frameId: `F${tabId}`, loaderId: 'L' }, frame: { frameId: `F${tabId}`, loaderId: 'L' }, record: { role: 'button', name: 'Go' } });

/** The tabs a call resolves to. */
const tabsFor = async (...args: Parameters<typeof resolveCallTabs>) => (await resolveCallTabs(...args)).tabs;

/** A browser that is only a set of live tab ids and a session store; refs and scopes as plain maps. */
function world(options: { tabs: number[]; remembered?: number; refs?: Record<string, RefTab>; scopes?: Record<string, ScopeTabs> }) {
  const live = new Set(options.tabs);
  const forgotten: number[] = [];
  const gets: number[] = [];
  const session = new Map<string, unknown>();
  if (options.remembered !== undefined) session.set(SESSION_KEYS.currentTab, options.remembered);
  const ctx: ResolveContext = {
    browser: {
      async getTab(tabId) {
        gets.push(tabId);
        if (!live.has(tabId)) throw new RelayError('target_not_found', `Tab ${tabId} does not exist.`, { details: { tab: tabId } });
        return { id: tabId } as chrome.tabs.Tab;
      },
      async storageSessionGet(keys) {
        return Object.fromEntries([keys].flat().filter((k) => session.has(k)).map((k) => [k, session.get(k)]));
      },
    },
    refs: {
      lookup: async (ref) => options.refs?.[ref],
      forgetTab: async (tabId) => {
        forgotten.push(tabId);
      },
    },
    scopeTabs: async (scope: Scope) => {
      const found = options.scopes?.[`${scope.kind}:${scope.name}`];
      if (!found) throw new RelayError('target_not_found', `No ${scope.kind} ${scope.name}.`, { details: { [scope.kind]: scope.name } });
      return found;
    },
  };
  return { ctx, live, forgotten, gets };
}

async function failure(run: Promise<unknown>): Promise<{ code: string; reason: unknown; details: Record<string, unknown>; message: string }> {
  try {
    await run;
  } catch (error) {
    if (error instanceof RelayError) return { code: error.code, reason: error.details['reason'], details: error.details, message: error.message };
    throw error;
  }
  throw new Error('expected a failure');
}

function failureOf(run: () => unknown): Promise<{ code: string; reason: unknown; details: Record<string, unknown>; message: string }> {
  return failure(Promise.resolve().then(run));
}

describe('tabUseOf', () => {
  it('classifies tools by how they use tabs', () => {
    expect(tabUseOf('snapshot')).toBe('page');
    expect(tabUseOf('click')).toBe('page');
    expect(tabUseOf('fill')).toBe('page');
    expect(tabUseOf('navigate')).toBe('page_or_new');
    expect(tabUseOf('close')).toBe('close');
    expect(tabUseOf('tabs')).toBe('none');
    expect(tabUseOf('lease_claim')).toBe('none');
    expect(tabUseOf('workspace_close')).toBe('none');
  });
});

describe('mergeEnvelope', () => {
  it('puts an envelope --tab where the tool takes it: `tab`, or close\'s `tabs`', () => {
    expect(mergeEnvelope('snapshot', {}, { tab: 7 }, undefined)).toEqual({ params: { tab: 7 } });
    expect(mergeEnvelope('click', { ref: 'e1' }, { tab: 7 }, undefined)).toEqual({ params: { ref: 'e1', tab: 7 } });
    expect(mergeEnvelope('close', {}, { tab: 7 }, undefined)).toEqual({ params: { tabs: [7] } });
    expect(mergeEnvelope('close', { tabs: [7] }, { tab: 7 }, undefined)).toEqual({ params: { tabs: [7] } });
    expect(mergeEnvelope('lease_claim', { agent: 'a' }, { tab: 7 }, undefined)).toEqual({ params: { agent: 'a', tab: 7 } });
  });

  it('refuses two different targets with multiple_targets, and a target for a tool that acts on no tab', async () => {
    expect(await failureOf(() => mergeEnvelope('snapshot', { tab: 8 }, { tab: 7 }, undefined))).toMatchObject({ code: 'target_conflict', reason: 'multiple_targets' });
    expect(await failureOf(() => mergeEnvelope('close', { tabs: [8, 7] }, { tab: 7 }, undefined))).toMatchObject({ code: 'target_conflict', reason: 'multiple_targets' });
    expect(await failureOf(() => mergeEnvelope('snapshot', {}, { workspace: 'w', group: 'g' }, undefined))).toMatchObject({ code: 'target_conflict', reason: 'multiple_targets' });
    expect(await failureOf(() => mergeEnvelope('snapshot', { tab: 3 }, { workspace: 'w' }, undefined))).toMatchObject({ code: 'target_conflict', reason: 'multiple_targets' });
    expect(await failureOf(() => mergeEnvelope('tabs', {}, { tab: 7 }, undefined))).toMatchObject({ code: 'invalid_arguments', details: { field: 'tab' } });
    expect(await failureOf(() => mergeEnvelope('group_list', {}, { workspace: 'w' }, undefined))).toMatchObject({ code: 'invalid_arguments', details: { field: 'workspace' } });
  });

  it('leaves a workspace or group as the scope, or hands it to a tool that takes the name', () => {
    expect(mergeEnvelope('snapshot', {}, { workspace: 'w' }, undefined)).toEqual({ params: {}, scope: { kind: 'workspace', name: 'w' } });
    expect(mergeEnvelope('close', {}, { group: 'g' }, undefined)).toEqual({ params: {}, scope: { kind: 'group', name: 'g' } });
    expect(mergeEnvelope('lease_claim', {}, { workspace: 'w' }, 'a')).toEqual({ params: { workspace: 'w', agent: 'a' } });
  });

  it('injects the agent where the tool takes one, and refuses two identities', async () => {
    expect(mergeEnvelope('workspace_close', { name: 'x' }, undefined, 'a')).toEqual({ params: { name: 'x', agent: 'a' } });
    expect(mergeEnvelope('snapshot', {}, undefined, 'a')).toEqual({ params: {} });
    expect(await failureOf(() => mergeEnvelope('lease_claim', { agent: 'b' }, undefined, 'a'))).toMatchObject({ code: 'target_conflict', reason: 'agent_mismatch' });
  });
});

describe('resolveCallTabs', () => {
  it('an explicit tab is the tab, and must exist', async () => {
    const { ctx } = world({ tabs: [1, 2], remembered: 2 });
    expect(await tabsFor('snapshot', { tab: 1 }, undefined, ctx)).toEqual({ kind: 'tab', tab: 1, via: 'explicit' });
    expect(await failure(tabsFor('snapshot', { tab: 99999 }, undefined, ctx))).toMatchObject({ code: 'target_not_found', details: { tab: 99999 } });
  });

  it('without one, the remembered tab — and never another when it is gone', async () => {
    const { ctx, live } = world({ tabs: [1, 2], remembered: 2 });
    expect(await tabsFor('js', { expression: '1' }, undefined, ctx)).toEqual({ kind: 'tab', tab: 2, via: 'remembered' });
    live.delete(2);
    const gone = await failure(tabsFor('js', { expression: '1' }, undefined, ctx));
    expect(gone).toMatchObject({ code: 'target_not_found', details: { tab: 2, remembered: true } });
    expect(gone.message).toMatch(/chrome-relay tabs.*navigate/);
    expect(await failure(tabsFor('close', {}, undefined, ctx))).toMatchObject({ code: 'target_not_found', details: { tab: 2 } });
    const never = world({ tabs: [1] });
    expect(await failure(tabsFor('snapshot', {}, undefined, never.ctx))).toMatchObject({ code: 'target_not_found', details: { tab: null } });
  });

  it('navigate without a tab works in the remembered tab; it opens a new one with newTab, or when there is none (never the active tab)', async () => {
    const none = world({ tabs: [1] });
    expect(await tabsFor('navigate', { url: 'https://a.test/' }, undefined, none.ctx)).toEqual({ kind: 'none' });
    expect(await tabsFor('navigate', { url: 'https://a.test/', tab: 1 }, undefined, none.ctx)).toEqual({ kind: 'tab', tab: 1, via: 'explicit' });
    const used = world({ tabs: [1, 2], remembered: 2 });
    expect(await tabsFor('navigate', { url: 'https://a.test/' }, undefined, used.ctx)).toEqual({ kind: 'tab', tab: 2, via: 'remembered' });
    expect(await tabsFor('navigate', { url: 'https://a.test/', newTab: true }, undefined, used.ctx)).toEqual({ kind: 'none' });
    const closed = world({ tabs: [1], remembered: 2 });
    expect(await tabsFor('navigate', { url: 'https://a.test/' }, undefined, closed.ctx)).toEqual({ kind: 'none' });
    expect(await failure(tabsFor('navigate', { url: 'https://a.test/', newTab: true }, { kind: 'workspace', name: 'w' }, used.ctx))).toMatchObject({ code: 'invalid_arguments', details: { field: 'new-tab' } });
  });

  it("a ref's tab wins over the remembered one; a --tab naming another tab is ref_tab_mismatch, even a tab that does not exist", async () => {
    const { ctx } = world({ tabs: [1, 2], remembered: 2, refs: { e1: live(1), e9: live(2) } });
    expect(await tabsFor('click', { ref: 'e1' }, undefined, ctx)).toEqual({ kind: 'tab', tab: 1, via: 'ref' });
    expect(await tabsFor('click', { ref: 'e1', tab: 1 }, undefined, ctx)).toEqual({ kind: 'tab', tab: 1, via: 'ref' });
    expect(await failure(tabsFor('click', { ref: 'e1', tab: 2 }, undefined, ctx))).toMatchObject({ code: 'target_conflict', reason: 'ref_tab_mismatch', details: { refTab: 1, requestedTab: 2 } });
    expect(await failure(tabsFor('click', { ref: 'e1', tab: 99999 }, undefined, ctx))).toMatchObject({ code: 'target_conflict', reason: 'ref_tab_mismatch' });
    expect(await tabsFor('snapshot', { scopeRef: 'e1' }, undefined, ctx)).toEqual({ kind: 'tab', tab: 1, via: 'ref' });
    expect(await failure(tabsFor('drag', { from: 'e1', to: 'e9' }, undefined, ctx))).toMatchObject({ code: 'target_conflict', reason: 'multiple_targets' });
  });

  it('a ref checks a workspace or group by membership', async () => {
    const { ctx } = world({ tabs: [1, 2, 3], refs: { e1: live(1) }, scopes: { 'workspace:w': { tabIds: [1, 3], preferred: 3 }, 'group:g': { tabIds: [2], preferred: 2 } } });
    expect(await tabsFor('click', { ref: 'e1' }, { kind: 'workspace', name: 'w' }, ctx)).toEqual({ kind: 'tab', tab: 1, via: 'ref' });
    expect(await failure(tabsFor('click', { ref: 'e1' }, { kind: 'group', name: 'g' }, ctx))).toMatchObject({ code: 'target_conflict', reason: 'ref_tab_mismatch' });
  });

  it('leaves refs it cannot place to the tool (stale_ref or "tab closed" in its own words)', async () => {
    const { ctx } = world({ tabs: [2], refs: { e5: { tabId: 1, state: 'closed' }, e6: { tabId: 2, state: 'navigated' } } });
    expect(await tabsFor('click', { ref: 'e404' }, undefined, ctx)).toEqual({ kind: 'none' });
    expect(await tabsFor('click', { ref: 'e5' }, undefined, ctx)).toEqual({ kind: 'none' });
    expect(await tabsFor('click', { ref: 'e6' }, undefined, ctx)).toEqual({ kind: 'tab', tab: 2, via: 'ref' });
  });

  it('a workspace or group: the remembered tab if it is inside, else its preferred tab', async () => {
    const { ctx } = world({ tabs: [1, 2, 3], remembered: 1, scopes: { 'workspace:w': { tabIds: [1, 3], preferred: 3 }, 'group:g': { tabIds: [2], preferred: 2 }, 'group:empty': { tabIds: [], preferred: undefined } } });
    expect(await tabsFor('snapshot', {}, { kind: 'workspace', name: 'w' }, ctx)).toEqual({ kind: 'tab', tab: 1, via: 'workspace' });
    expect(await tabsFor('snapshot', {}, { kind: 'group', name: 'g' }, ctx)).toEqual({ kind: 'tab', tab: 2, via: 'group' });
    expect(await tabsFor('close', {}, { kind: 'group', name: 'g' }, ctx)).toEqual({ kind: 'tabs', tabs: [2], via: 'group' });
    expect(await failure(tabsFor('snapshot', {}, { kind: 'group', name: 'empty' }, ctx))).toMatchObject({ code: 'target_not_found' });
    expect(await failure(tabsFor('snapshot', {}, { kind: 'group', name: 'nope' }, ctx))).toMatchObject({ code: 'target_not_found' });
  });

  it('close: the ids given (the tool checks them all), else the remembered tab', async () => {
    const { ctx } = world({ tabs: [1, 2], remembered: 2 });
    expect(await tabsFor('close', { tabs: [1, 99] }, undefined, ctx)).toEqual({ kind: 'tabs', tabs: [1, 99], via: 'explicit' });
    expect(await tabsFor('close', {}, undefined, ctx)).toEqual({ kind: 'tabs', tabs: [2], via: 'remembered' });
  });

  it('tools that act on no tab resolve to none', async () => {
    const { ctx } = world({ tabs: [1] });
    expect(await tabsFor('tabs', {}, undefined, ctx)).toEqual({ kind: 'none' });
    expect(await tabsFor('lease_release', { agent: 'a', tab: 1 }, undefined, ctx)).toEqual({ kind: 'none' });
  });

  it('every tab a tool names in its params (its entry\'s `reaches`) is a tab of the call: ids, a group\'s, a workspace\'s', async () => {
    const { ctx } = world({ tabs: [1, 2, 3, 4], scopes: { 'group:mine': { tabIds: [3, 4], preferred: 3 }, 'workspace:w': { tabIds: [2], preferred: 2 } } });
    expect(await tabsFor('lease_claim', { agent: 'a', tab: 1 }, undefined, ctx)).toEqual({ kind: 'tabs', tabs: [1], via: 'named' });
    expect(await tabsFor('lease_claim', { agent: 'a', workspace: 'w' }, undefined, ctx)).toEqual({ kind: 'tabs', tabs: [2], via: 'named' });
    expect(await tabsFor('group_create', { name: 'g', tabs: [2, 1, 2] }, undefined, ctx)).toEqual({ kind: 'tabs', tabs: [2, 1], via: 'named' });
    // group add: the tabs added and every tab already in the group, so none of them may be the person's.
    expect(await tabsFor('group_add', { name: 'mine', tabs: [1] }, undefined, ctx)).toEqual({ kind: 'tabs', tabs: [1, 3, 4], via: 'named' });
    expect(await tabsFor('group_close', { name: 'mine' }, undefined, ctx)).toEqual({ kind: 'tabs', tabs: [3, 4], via: 'named' });
    expect(await tabsFor('workspace_close', { name: 'w' }, undefined, ctx)).toEqual({ kind: 'tabs', tabs: [2], via: 'named' });
    expect(await failure(tabsFor('group_close', { name: 'nope' }, undefined, ctx))).toMatchObject({ code: 'target_not_found' });
  });
});

describe('resolveCallTabs: the refs a call names, resolved once', () => {
  it('hands over each ref as the registry knew it, and reads each tab from Chrome once', async () => {
    const { ctx, gets } = world({ tabs: [1], remembered: 1, refs: { e1: live(1), e2: live(1) } });
    const resolved = await resolveCallTabs('drag', { from: 'e1', to: 'e2' }, undefined, ctx);
    expect(resolved.tabs).toEqual({ kind: 'tab', tab: 1, via: 'ref' });
    expect(resolved.refs.get('e1')).toEqual({ state: 'live', tabId: 1, document: { frameId: 'F1', loaderId: 'L' }, frame: { frameId: 'F1', loaderId: 'L' }, record: { role: 'button', name: 'Go' } });
    expect([...resolved.refs.keys()]).toEqual(['e1', 'e2']);
    expect(gets).toEqual([1]);
    expect(resolved.seen.get(1)).toMatchObject({ id: 1 });
  });

  it('says why a ref cannot be used, decided here: unknown, navigated, or its tab closed (while the worker was down too, which is recorded)', async () => {
    const { ctx, forgotten } = world({ tabs: [2], refs: { e5: { tabId: 1, state: 'closed' }, e6: { tabId: 2, state: 'navigated' }, e7: live(3) } });
    expect((await resolveCallTabs('click', { ref: 'e404' }, undefined, ctx)).refs.get('e404')).toEqual({ state: 'unknown' });
    expect((await resolveCallTabs('click', { ref: 'e5' }, undefined, ctx)).refs.get('e5')).toEqual({ state: 'closed', tabId: 1 });
    expect((await resolveCallTabs('click', { ref: 'e6' }, undefined, ctx)).refs.get('e6')).toEqual({ state: 'navigated', tabId: 2 });
    expect(forgotten).toEqual([]);
    const gone = await resolveCallTabs('click', { ref: 'e7' }, undefined, ctx);
    expect(gone.tabs).toEqual({ kind: 'none' });
    expect(gone.refs.get('e7')).toEqual({ state: 'closed', tabId: 3 });
    expect(forgotten).toEqual([3]);
  });
});

describe('withCallTabs', () => {
  it('hands the tool exactly the tab that was checked', () => {
    expect(withCallTabs('snapshot', {}, { kind: 'tab', tab: 4, via: 'remembered' })).toEqual({ tab: 4 });
    expect(withCallTabs('click', { ref: 'e1' }, { kind: 'tab', tab: 4, via: 'ref' })).toEqual({ ref: 'e1', tab: 4 });
    expect(withCallTabs('close', {}, { kind: 'tabs', tabs: [4], via: 'remembered' })).toEqual({ tabs: [4] });
    expect(withCallTabs('navigate', { url: 'u' }, { kind: 'none' })).toEqual({ url: 'u' });
    // A tool naming tabs in its params keeps its params; under allowPartial, less the ones left out.
    expect(withCallTabs('group_add', { name: 'g', tabs: [1, 5] }, { kind: 'tabs', tabs: [1, 3, 4], via: 'named', refused: [{ target: '5', code: 'target_not_found', message: '' }] })).toEqual({ name: 'g', tabs: [1] });
  });
});
