import type { ExtensionToHost, RelayErrorData, ToolResult } from '@chrome-relay/protocol';
import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { createDispatcher, DEADLINE_MARGIN_MS, DIALOG_GRACE_MS, type CallMessage } from './dispatcher.js';
import { SESSION_KEYS } from './state/storage.js';
import { createTargetingContext, type TargetingParts } from './targeting/context.js';
import { createFakeEnvironment } from './testing/fakeChrome.js';
import type { FakeBrowser } from './testing/fakeBrowser.js';
import { fakeOrganize } from './testing/fakeOrganize.js';
import { fakeBarrier } from './testing/fakeNet.js';
import { fakeAgentPages } from './testing/fakeLifecycle.js';
import { defineTool, type AnyToolDefinition } from './tools/defineTool.js';
import { organizeTools } from './tools/observe/organize.js';
import type { ToolContext } from './actions/toolContext.js';
import { ActivityLog } from './activity/activityLog.js';
import { AgentTabs } from './policy/agentTabs.js';
import { PauseStore } from './policy/pause.js';
import { Policy } from './policy/policy.js';
import { SettingsStore, type Settings } from './policy/settings.js';

const NOW = 1_000_000;

const NO_REFS: TargetingParts['refs'] = { lookup: async () => undefined, forgetTab: async () => undefined };

function targetingOver(browser: FakeBrowser, refs: TargetingParts['refs'] = NO_REFS, organize = fakeOrganize(browser), seesGroup: TargetingParts['seesGroup'] = async () => true) {
  return createTargetingContext({ browser, organize, refs, seesGroup });
}

function dispatcherWith(...tools: AnyToolDefinition[]) {
  const { ctx, browser } = createFakeEnvironment();
  return createDispatcher({ tools, services: { ...ctx, targeting: targetingOver(browser) }, now: () => NOW });
}

function call(tool: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): CallMessage {
  return { type: 'call', id: 41, tool, params, timeoutMs };
}

function errorOf(reply: ExtensionToHost): RelayErrorData {
  if (reply.type !== 'error') throw new Error(`expected an error reply, got ${JSON.stringify(reply)}`);
  return reply.error;
}

const emptyTabs: ToolResult<'tabs'> = { windows: [] };

describe('dispatcher', () => {
  it('answers a known tool with its validated result and a deadline inside the host timeout', async () => {
    let seen: ToolContext<never> | undefined;
    const tabs = defineTool({
      name: 'tabs',
      uses: [],
      async handle(_params, ctx) {
        seen = ctx;
        return emptyTabs;
      },
    });
    const reply = await dispatcherWith(tabs)(call('tabs', {}, 10_000));
    expect(reply).toEqual({ type: 'result', id: 41, ok: true, result: emptyTabs });
    expect(seen?.deadline).toBe(NOW + 10_000 - DEADLINE_MARGIN_MS);
  });

  it('hands a tool its call\'s part and the services it names, nothing else', async () => {
    let seen: object | undefined;
    const get = defineTool({
      name: 'get',
      uses: ['captures', 'worlds'],
      async handle(params, ctx) {
        seen = ctx;
        return { tabId: params.tab ?? 0, what: params.what, value: 'T' };
      },
    });
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({}).id ?? 0;
    await createDispatcher({ tools: [get], services: { ...env.ctx, targeting: targetingOver(env.browser) } })({ ...call('get', { what: 'title' }), target: { tab } });
    expect(Object.keys(seen ?? {}).sort()).toEqual(['browser', 'captures', 'cdp', 'deadline', 'refs', 'target', 'worlds']);
  });

  it('answers an unknown tool with unsupported_tool in phase dispatch', async () => {
    const error = errorOf(await dispatcherWith()(call('teleport')));
    expect(error.code).toBe('unsupported_tool');
    expect(error.phase).toBe('dispatch');
    expect(error.tool).toBe('teleport');
    expect(error.message).toContain('update the extension');
  });

  it('rejects bad params with invalid_arguments before the handler runs', async () => {
    let ran = false;
    const navigate = defineTool({
      name: 'navigate',
      uses: [],
      async handle() {
        ran = true;
        return { tabId: 1, url: '', title: '', ready: true, newTab: false };
      },
    });
    const error = errorOf(await dispatcherWith(navigate)(call('navigate', { url: 'https://a.test', bogus: 1 })));
    expect(error.code).toBe('invalid_arguments');
    expect(error.details['field']).toBe('bogus');
    expect(ran).toBe(false);
  });

  it('passes a handler RelayError through, tagged with the tool', async () => {
    const tabs = defineTool({
      name: 'tabs',
      uses: [],
      async handle() {
        throw new RelayError('target_not_found', 'Tab 3 does not exist.', { phase: 'resolve', details: { tab: 3 } });
      },
    });
    const error = errorOf(await dispatcherWith(tabs)(call('tabs')));
    expect(error).toMatchObject({ code: 'target_not_found', tool: 'tabs', phase: 'resolve', details: { tab: 3 } });
  });

  it('turns a plain Error from a handler into internal_error keeping the text', async () => {
    const tabs = defineTool({
      name: 'tabs',
      uses: [],
      async handle() {
        throw new TypeError('cannot read x of undefined');
      },
    });
    const error = errorOf(await dispatcherWith(tabs)(call('tabs')));
    expect(error.code).toBe('internal_error');
    expect(error.details['original']).toBe('cannot read x of undefined');
  });

  it('turns a result that breaks its schema into internal_error', async () => {
    const tabs = defineTool({
      name: 'tabs',
      uses: [],
      async handle() {
        // Simulates a handler bug the type checker cannot see (e.g. data straight from the page).
        const fromPage: unknown = JSON.parse('{"windows": "none"}');
        return fromPage as ToolResult<'tabs'>;
      },
    });
    const error = errorOf(await dispatcherWith(tabs)(call('tabs')));
    expect(error.code).toBe('internal_error');
    expect(error.phase).toBe('validate');
  });
});

describe('dispatcher: one target per call', () => {
  function recording() {
    const env = createFakeEnvironment();
    const seen: (number | undefined)[] = [];
    const get = defineTool({
      name: 'get',
      uses: [],
      async handle(params) {
        seen.push(params.tab);
        return { tabId: params.tab ?? 0, what: params.what, value: 'T' };
      },
    });
    const dispatch = createDispatcher({ tools: [get], services: { ...env.ctx, targeting: targetingOver(env.browser) } });
    return { env, seen, dispatch };
  }

  it('hands the tool the tab it resolved: the envelope --tab, else the remembered tab', async () => {
    const { env, seen, dispatch } = recording();
    const remembered = env.browser.addTab({}).id ?? 0;
    const named = env.browser.addTab({}).id ?? 0;
    env.browser.session.set(SESSION_KEYS.currentTab, remembered);
    await dispatch(call('get', { what: 'title' }));
    await dispatch({ ...call('get', { what: 'title' }), target: { tab: named } });
    expect(seen).toEqual([remembered, named]);
  });

  it('remembers the tab a page tool acted in (the tools never do): the call\'s tab, or the one its result names', async () => {
    const { env, dispatch } = recording();
    const remembered = env.browser.addTab({}).id ?? 0;
    const named = env.browser.addTab({}).id ?? 0;
    env.browser.session.set(SESSION_KEYS.currentTab, remembered);
    await dispatch({ ...call('get', { what: 'title' }), target: { tab: named } });
    expect(env.browser.session.get(SESSION_KEYS.currentTab)).toBe(named);
    const opened = env.browser.addTab({}).id ?? 0;
    const navigate = defineTool({ name: 'navigate', uses: [], handle: async () => ({ tabId: opened, newTab: true, ready: true, url: 'https://a.test/', title: '' }) });
    const navigating = createDispatcher({ tools: [navigate], services: { ...env.ctx, targeting: targetingOver(env.browser) } });
    expect(await navigating(call('navigate', { url: 'https://a.test/' }))).toMatchObject({ type: 'result' });
    expect(env.browser.session.get(SESSION_KEYS.currentTab)).toBe(opened);
  });

  it('a tool that failed after it began to act on a tab the call named leaves that tab remembered; one that failed before acting (a stale ref), or acts on no tab, changes nothing', async () => {
    const env = createFakeEnvironment();
    const remembered = env.browser.addTab({}).id ?? 0;
    const named = env.browser.addTab({}).id ?? 0;
    env.browser.session.set(SESSION_KEYS.currentTab, remembered);
    const failing = defineTool({
      name: 'get',
      uses: [],
      handle: async (params) => {
        if (params.selector === 'stale') throw new RelayError('stale_ref', 'stale', { phase: 'resolve', details: { reason: 'navigated' } });
        throw new RelayError('click_intercepted', 'taken', { phase: 'verify', details: {} });
      },
    });
    const tabs = defineTool({ name: 'tabs', uses: [], handle: async () => ({ windows: [] }) });
    const dispatch = createDispatcher({ tools: [failing, tabs], services: { ...env.ctx, targeting: targetingOver(env.browser) } });
    await dispatch({ ...call('get', { what: 'text', selector: 'stale' }), target: { tab: named } });
    expect(env.browser.session.get(SESSION_KEYS.currentTab)).toBe(remembered);
    await dispatch({ ...call('get', { what: 'text', selector: 'p' }), target: { tab: named } });
    expect(env.browser.session.get(SESSION_KEYS.currentTab)).toBe(named);
    env.browser.session.set(SESSION_KEYS.currentTab, remembered);
    await dispatch(call('tabs'));
    expect(env.browser.session.get(SESSION_KEYS.currentTab)).toBe(remembered);
  });

  it("remembers a tab per agent: each agent's next call without --tab acts where that agent last worked, never where another did", async () => {
    const { env, seen, dispatch } = recording();
    const [a, b] = [env.browser.addTab({}).id ?? 0, env.browser.addTab({}).id ?? 0];
    await dispatch({ ...call('get', { what: 'title' }), agent: 'a', target: { tab: a } });
    await dispatch({ ...call('get', { what: 'title' }), agent: 'b', target: { tab: b } });
    await dispatch({ ...call('get', { what: 'title' }), agent: 'a' });
    await dispatch({ ...call('get', { what: 'title' }), agent: 'b' });
    expect(seen).toEqual([a, b, a, b]);
    // A third agent, and a call with no identity, have worked nowhere: neither takes a or b's tab.
    expect(errorOf(await dispatch({ ...call('get', { what: 'title' }), agent: 'c' }))).toMatchObject({ code: 'target_not_found', details: { tab: null, agent: 'c' } });
    expect(errorOf(await dispatch(call('get', { what: 'title' })))).toMatchObject({ code: 'target_not_found', details: { tab: null } });
    expect(seen).toEqual([a, b, a, b]);
  });

  it('runs nothing when there is no tab to act on; the active tab is never a default', async () => {
    const { env, seen, dispatch } = recording();
    env.browser.addTab({ active: true });
    const error = errorOf(await dispatch(call('get', { what: 'title' })));
    expect(error).toMatchObject({ code: 'target_not_found', tool: 'get', phase: 'resolve' });
    expect(seen).toEqual([]);
  });
});

describe('dispatcher: the dialog precondition', () => {
  const alertOpening = { type: 'alert', message: 'Hi', url: 'https://a.test/' };

  function guarded(...tools: AnyToolDefinition[]) {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/', active: true }).id ?? 0;
    const document = { frameId: 'F', loaderId: 'L' };
    const refs: TargetingParts['refs'] = {
      lookup: async (ref) => (ref === 'e5' ? { state: 'live', tabId: tab, document, frame: document, record: { role: 'button', name: 'Go' } } : undefined),
      forgetTab: async () => undefined,
    };
    const dispatch = createDispatcher({ tools, services: { ...env.ctx, targeting: targetingOver(env.browser, refs) } });
    return { env, tab, dispatch };
  }

  const getTitle = (ran: { count: number }) =>
    defineTool({
      name: 'get',
      uses: [],
      async handle(params) {
        ran.count++;
        return { tabId: params.tab ?? 0, what: params.what, value: 'T' };
      },
    });

  it('refuses a page tool on a tab with an open dialog before the handler runs', async () => {
    const ran = { count: 0 };
    const { env, tab, dispatch } = guarded(getTitle(ran));
    await env.cdp.attach(tab);
    env.debugger.emit(tab, 'Page.javascriptDialogOpening', alertOpening);
    const explicit = errorOf(await dispatch(call('get', { what: 'title', tab })));
    expect(explicit).toMatchObject({ code: 'target_conflict', tool: 'get', details: { tab, dialog: alertOpening } });
    expect(explicit.message).toContain('chrome-relay dialog accept');
    expect(explicit.details['reason']).toBe('dialog_open');
    // Without --tab the remembered tab is the one checked.
    env.browser.session.set(SESSION_KEYS.currentTab, tab);
    expect(errorOf(await dispatch(call('get', { what: 'title' }))).code).toBe('target_conflict');
    expect(ran.count).toBe(0);
  });

  it("checks a ref's own tab, and lets tabs/dialog/close through", async () => {
    const { env, tab, dispatch } = guarded(
      defineTool({ name: 'click', uses: [], async handle() { return { clicked: true as const, tabId: tab, x: 1, y: 1, healed: false, navigated: false, url: '' }; } }),
      defineTool({ name: 'tabs', uses: [], async handle() { return emptyTabs; } }),
    );
    await env.cdp.attach(tab);
    env.debugger.emit(tab, 'Page.javascriptDialogOpening', alertOpening);
    expect(errorOf(await dispatch(call('click', { ref: 'e5' }))).code).toBe('target_conflict');
    expect((await dispatch(call('tabs'))).type).toBe('result');
  });

  it('enables dialog reporting on the target tab before the handler runs', async () => {
    const ran = { count: 0 };
    const { env, tab, dispatch } = guarded(getTitle(ran));
    expect((await dispatch(call('get', { what: 'title', tab }))).type).toBe('result');
    expect(env.debugger.methods(tab)).toContain('Page.enable');
  });

  it('ends a handler that hangs on a dialog it does not report, after the grace period', async () => {
    const { env, tab, dispatch } = guarded(
      defineTool({
        name: 'get',
        uses: [],
        async handle(params, ctx) {
          setTimeout(() => env.debugger.emit(tab, 'Page.javascriptDialogOpening', alertOpening), 20);
          await ctx.cdp.send(tab, 'Runtime.evaluate', { expression: 'blocked' });
          return { tabId: params.tab ?? 0, what: params.what, value: 'never' };
        },
      }),
    );
    env.debugger.handle('Runtime.evaluate', () => new Promise(() => undefined));
    const started = Date.now();
    const error = errorOf(await dispatch(call('get', { what: 'title', tab })));
    expect(error).toMatchObject({ code: 'target_conflict', phase: 'act', details: { tab, dialog: alertOpening, interrupted: true } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(DIALOG_GRACE_MS);
    expect(Date.now() - started).toBeLessThan(DIALOG_GRACE_MS + 1_000);
  });

  it("keeps the handler's own answer when it reports the dialog within the grace period", async () => {
    const { env, tab, dispatch } = guarded(
      defineTool({
        name: 'js',
        uses: ['dialogs'],
        async handle(params, ctx) {
          const outcome = await ctx.dialogs.watch(tab, async () => {
            env.debugger.emit(tab, 'Page.javascriptDialogOpening', alertOpening);
            return new Promise<never>(() => undefined);
          });
          if ('dialog' in outcome) return { tabId: params.tab ?? 0, dialog: outcome.dialog };
          return { tabId: 0 };
        },
      }),
    );
    expect(await dispatch(call('js', { expression: 'alert(1)', tab }))).toMatchObject({ type: 'result', result: { tabId: tab, dialog: alertOpening } });
  });
});

describe('dispatcher: a snapshot after the tool (the CLI’s --snapshot)', () => {
  const tree = [{ role: 'button', name: 'Go', ref: 'e1' }];

  function composite(clickResult: (tab: number, env: ReturnType<typeof createFakeEnvironment>) => Record<string, unknown>) {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    const order: string[] = [];
    const snapshots: Record<string, unknown>[] = [];
    const click = defineTool({
      name: 'click',
      uses: [],
      async handle() {
        order.push('click');
        return clickResult(tab, env) as ToolResult<'click'>;
      },
    });
    const snapshot = defineTool({
      name: 'snapshot',
      uses: [],
      async handle(params) {
        order.push('snapshot');
        snapshots.push(params);
        return { tabId: params.tab ?? 0, url: 'https://a.test/', title: 'A', refCount: 1, tree };
      },
    });
    const dispatch = createDispatcher({ tools: [click, snapshot], services: { ...env.ctx, targeting: targetingOver(env.browser) } });
    return { env, tab, order, snapshots, dispatch };
  }
  const clicked = (tab: number) => ({ clicked: true as const, tabId: tab, x: 1, y: 2, healed: false, navigated: false, url: 'https://a.test/' });

  it('runs the tool, then the snapshot of the tab its result names, and answers both in one reply', async () => {
    const { tab, order, snapshots, dispatch } = composite(clicked);
    const reply = await dispatch({ ...call('click', { x: 1, y: 2, tab }), snapshot: { interactive: true } });
    expect(order).toEqual(['click', 'snapshot']);
    expect(snapshots).toEqual([{ interactive: true, tab }]);
    expect(reply).toEqual({ type: 'result', id: 41, ok: true, result: clicked(tab), snapshot: { ok: true, result: { tabId: tab, url: 'https://a.test/', title: 'A', refCount: 1, tree } } });
  });

  it('asks the page whether its document is parsed, unless the tool says its result proves it', async () => {
    // The question starts by finding the main frame to make its world in.
    const pageQuestions = (env: ReturnType<typeof createFakeEnvironment>) => env.debugger.sent.filter((command) => command.method === 'Page.getFrameTree').length;
    const asked = composite(clicked);
    await asked.dispatch({ ...call('click', { x: 1, y: 2, tab: asked.tab }), snapshot: {} });
    expect(pageQuestions(asked.env)).toBe(1);
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    const navigate = defineTool({
      name: 'navigate',
      uses: [],
      handle: async (params) => ({ tabId: tab, url: params.url, title: 'A', ready: true, newTab: false }),
      leavesParsed: (params) => params.wait !== 'commit',
    });
    const snapshot = defineTool({ name: 'snapshot', uses: [], handle: async () => ({ tabId: tab, url: 'https://a.test/', title: 'A', refCount: 1, tree }) });
    const dispatch = createDispatcher({ tools: [navigate, snapshot], services: { ...env.ctx, targeting: targetingOver(env.browser) } });
    expect(await dispatch({ ...call('navigate', { url: 'https://a.test/', tab, wait: 'load' }), snapshot: {} })).toMatchObject({ ok: true, snapshot: { ok: true } });
    expect(pageQuestions(env)).toBe(0);
    expect(await dispatch({ ...call('navigate', { url: 'https://a.test/', tab, wait: 'commit' }), snapshot: {} })).toMatchObject({ ok: true, snapshot: { ok: true } });
    expect(pageQuestions(env)).toBe(1);
  });

  it('a failing snapshot is answered beside the result: the action still happened', async () => {
    const { tab, dispatch } = composite(clicked);
    const reply = await dispatch({ ...call('click', { x: 1, y: 2, tab }), snapshot: { depth: -1 } });
    expect(reply).toMatchObject({ type: 'result', ok: true, result: clicked(tab), snapshot: { ok: false, error: { code: 'invalid_arguments', tool: 'snapshot' } } });
  });

  it('after a dialog the action opened, the snapshot is dialog_open; it takes no tab of its own', async () => {
    const alert = { type: 'alert', message: 'Hi', url: 'https://a.test/' };
    // The click opens the dialog, as a page's handler would, and reports it.
    const { env, tab, order, dispatch } = composite((t, e) => {
      e.debugger.emit(t, 'Page.javascriptDialogOpening', alert);
      return { ...clicked(t), dialog: alert };
    });
    await env.cdp.attach(tab);
    const reply = dispatch({ ...call('click', { x: 1, y: 2, tab }), snapshot: {} });
    expect(await reply).toMatchObject({ ok: true, snapshot: { ok: false, error: { code: 'target_conflict', details: { reason: 'dialog_open' } } } });
    expect(order).toEqual(['click']);
  });

  it('the snapshot takes no tab of its own, and needs a result that names one', async () => {
    const { tab, dispatch } = composite(clicked);
    const withTab = await dispatch({ ...call('click', { x: 1, y: 2, tab }), snapshot: { tab: 5 } });
    expect(withTab).toMatchObject({ snapshot: { ok: false, error: { code: 'invalid_arguments', details: { field: 'snapshot.tab' } } } });
    const tabs = defineTool({ name: 'tabs', uses: [], async handle() { return emptyTabs; } });
    const noTab = await dispatcherWith(tabs)({ ...call('tabs'), snapshot: {} });
    expect(noTab).toMatchObject({ ok: true, result: emptyTabs, snapshot: { ok: false, error: { code: 'invalid_arguments', details: { field: 'snapshot' } } } });
  });
});

describe('dispatcher: the person\'s limits and the activity log', () => {
  async function limited(settings: Partial<Settings> = {}) {
    const env = createFakeEnvironment();
    const organize = fakeOrganize(env.browser);
    const store = new SettingsStore(env.browser);
    await store.save({ blockedSites: [], agentTabsOnly: false, idleDetachSeconds: 15, remoteAgents: true, agentFiles: false, agentJs: true, ...settings });
    const pause = new PauseStore(env.browser);
    const agentTabs = new AgentTabs(env.browser);
    const { barrier } = fakeBarrier(env.browser, () => store.rules());
    const policy = new Policy({ browser: env.browser, organize, sessions: env.cdp, settings: store, pause, agentTabs, barrier, pages: fakeAgentPages(env.browser, barrier, agentTabs, pause).pages });
    env.cdp.setAttachGuard((tabId) => policy.guardAttach(tabId));
    const activity = new ActivityLog(env.browser);
    const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    const ran = { count: 0 };
    let gate: Promise<void> = Promise.resolve();
    const get = defineTool({
      name: 'get',
      uses: [],
      async handle(params, ctx) {
        ran.count++;
        await ctx.cdp.send(params.tab ?? 0, 'Runtime.evaluate', { expression: 'document.title' });
        await gate;
        return { tabId: params.tab ?? 0, what: params.what, value: 'T' };
      },
    });
    const dispatch = createDispatcher({ tools: [get], services: { ...env.ctx, targeting: targetingOver(env.browser) }, policy, activity });
    const hold = (): (() => void) => {
      let open: () => void = () => undefined;
      gate = new Promise((resolve) => (open = resolve));
      return open;
    };
    return { env, policy, activity, tab, ran, dispatch, hold };
  }

  it('while paused, refuses before the handler runs or anything attaches; works again after Resume', async () => {
    const { env, policy, tab, ran, dispatch } = await limited();
    await policy.setPaused(true);
    const error = errorOf(await dispatch({ ...call('get', { what: 'title', tab }), agent: 'claude' }));
    expect(error).toMatchObject({ code: 'target_conflict', tool: 'get', retryable: false, details: { reason: 'paused_by_user' } });
    expect(ran.count).toBe(0);
    expect(env.debugger.attachCalls).toBe(0);
    await policy.setPaused(false);
    expect((await dispatch(call('get', { what: 'title', tab }))).type).toBe('result');
  });

  it('a pause during a call answers it at once with the paused reason, saying it may have acted', async () => {
    const { env, policy, tab, dispatch, hold } = await limited();
    hold();
    const pending = dispatch(call('get', { what: 'title', tab }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(env.debugger.attached.has(tab)).toBe(true);
    await policy.setPaused(true);
    const error = errorOf(await pending);
    expect(error).toMatchObject({ code: 'target_conflict', phase: 'act', retryable: false, details: { reason: 'paused_by_user', interrupted: true } });
    expect(env.debugger.attached.has(tab)).toBe(false);
  });

  it('refuses a blocked site and a person\'s tab in "agent tabs only" without attaching', async () => {
    const blocked = await limited({ blockedSites: ['a.test'] });
    const error = errorOf(await blocked.dispatch(call('get', { what: 'title', tab: blocked.tab })));
    expect(error.details).toMatchObject({ reason: 'site_blocked', rule: 'a.test' });
    expect(blocked.env.debugger.attachCalls).toBe(0);

    const only = await limited({ agentTabsOnly: true });
    expect(errorOf(await only.dispatch(call('get', { what: 'title', tab: only.tab }))).details['reason']).toBe('not_agent_tab');
    expect(only.env.debugger.attachCalls).toBe(0);
  });

  it('records every call: agent, tool, tab, outcome code and reason, CLI version', async () => {
    const { policy, activity, tab, dispatch } = await limited();
    await dispatch({ ...call('get', { what: 'title', tab }), agent: 'claude', client: { version: '9.9.9', protocolVersion: 1 } });
    await policy.setPaused(true);
    await dispatch({ ...call('get', { what: 'title', tab }), agent: 'codex' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const recent = await activity.recent();
    expect(recent.map((e) => [e.agent, e.tool, e.tab, e.outcome, e.reason])).toEqual([
      ['codex', 'get', tab, 'target_conflict', 'paused_by_user'],
      ['claude', 'get', tab, 'ok', undefined],
    ]);
    expect(recent[1]?.cli).toBe('9.9.9');
    expect((await activity.lastByTab()).get(tab)?.agent).toBe('codex');
  });

  it('holds the tab for the whole call: no idle detach under a running call', async () => {
    const { env, tab, dispatch, hold } = await limited();
    env.cdp.setIdleDetachMs(1);
    const open = hold();
    const pending = dispatch(call('get', { what: 'title', tab }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(env.debugger.attached.has(tab)).toBe(true);
    open();
    expect((await pending).type).toBe('result');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(env.debugger.attached.has(tab)).toBe(false);
  });
});

describe("dispatcher: the person's tab groups are not the agent's to name", () => {
  /**
   * "Agent tabs only": the person's group "Taxes" (two tabs of theirs), a group "Mixed" holding one agent tab and one of
   * the person's, the person's lending group "chrome-relay" (one tab of theirs, lent), and two agent tabs.
   */
  async function groups() {
    const env = createFakeEnvironment();
    const organize = fakeOrganize(env.browser);
    const store = new SettingsStore(env.browser);
    await store.save({ blockedSites: [], agentTabsOnly: true, idleDetachSeconds: 15, remoteAgents: true, agentFiles: false, agentJs: true });
    const pause = new PauseStore(env.browser);
    const agentTabs = new AgentTabs(env.browser);
    const { barrier } = fakeBarrier(env.browser, () => store.rules());
    const policy = new Policy({ browser: env.browser, organize, sessions: env.cdp, settings: store, pause, agentTabs, barrier, pages: fakeAgentPages(env.browser, barrier, agentTabs, pause).pages });
    const tab = (url: string): number => env.browser.addTab({ url }).id ?? 0;
    const [taxes1, taxes2, mixedPerson, lent] = [tab('https://tax.test/1'), tab('https://tax.test/2'), tab('https://mail.test/'), tab('https://lent.test/')];
    const [agentA, agentB, agentC] = [tab('https://shop.test/a'), tab('https://shop.test/b'), tab('https://shop.test/c')];
    for (const id of [agentA, agentB, agentC]) await policy.adopt(id, 'opened');
    const titled = async (title: string, ids: number[]): Promise<number> => {
      const id = await organize.groupTabs(ids);
      await organize.updateGroup(id, { title });
      return id;
    };
    const taxes = await titled('Taxes', [taxes1, taxes2]);
    const mixed = await titled('Mixed', [agentC, mixedPerson]);
    const lending = await titled('chrome-relay', [lent]);
    const tools = [...Object.values(organizeTools), defineTool({ name: 'get', uses: [], handle: async (params) => ({ tabId: params.tab ?? 0, what: params.what, value: 'T' }) })];
    const targeting = targetingOver(env.browser, NO_REFS, organize, (ids) => policy.seesGroup(ids));
    const dispatch = createDispatcher({ tools, services: { ...env.ctx, targeting }, policy });
    const snapshotOfGroups = () => [...organize.groups.values()].map((g) => ({ id: g.id, title: g.title, tabIds: [...g.tabIds] }));
    return { env, organize, dispatch, taxes, mixed, lending, taxes1, taxes2, mixedPerson, lent, agentA, agentB, agentC, snapshotOfGroups };
  }

  /** What a name nobody uses gets, written for another name: what a probe would compare an answer with. */
  const asIfNamed = (error: RelayErrorData, name: string) => JSON.parse(JSON.stringify(error).replaceAll('Nobody', name)) as unknown;

  it("group add/close and --group answer a person's group name exactly as a name nobody uses, and change nothing", async () => {
    const g = await groups();
    const before = g.snapshotOfGroups();
    for (const name of ['Taxes', 'Mixed']) {
      const shapes: [string, Record<string, unknown>, CallMessage['target']?][] = [
        ['group_add', { name: 'N', tabs: [g.agentA] }],
        ['group_add', { name: 'N', tabs: [g.agentA, 999], allowPartial: true }],
        ['group_close', { name: 'N' }],
        ['group_close', { name: 'N', allowPartial: true }],
        ['get', { what: 'title' }, { group: 'N' }],
      ];
      for (const [tool, params, target] of shapes) {
        const named = (n: string): CallMessage => ({ ...call(tool, { ...params, ...('name' in params ? { name: n } : {}) }), ...(target ? { target: { group: n } } : {}) });
        const person = errorOf(await g.dispatch(named(name)));
        const nobody = errorOf(await g.dispatch(named('Nobody')));
        expect(person.code).toBe('target_not_found');
        expect(person).toEqual(asIfNamed(nobody, name));
      }
    }
    expect(g.snapshotOfGroups()).toEqual(before);
  });

  it("group create with a person's group name makes the agent a group of its own; theirs is untouched, and the name is the agent's from then on", async () => {
    const g = await groups();
    const created = await g.dispatch(call('group_create', { name: 'Taxes', tabs: [g.agentA] }));
    if (created.type !== 'result') throw new Error(JSON.stringify(created));
    const mine = (created.result as { groupId: number }).groupId;
    expect(mine).not.toBe(g.taxes);
    expect(g.organize.groups.get(g.taxes)).toMatchObject({ title: 'Taxes', tabIds: [g.taxes1, g.taxes2] });
    // The name now finds the agent's group only: no ambiguity that would count the person's.
    expect((await g.dispatch(call('group_add', { name: 'Taxes', tabs: [g.agentB] }))).type).toBe('result');
    expect(g.organize.groups.get(mine)?.tabIds).toEqual([g.agentA, g.agentB]);
    expect(errorOf(await g.dispatch(call('group_create', { name: 'Taxes', tabs: [g.agentB] })))).toMatchObject({ code: 'target_conflict', details: { reason: 'name_taken', group: 'Taxes' } });
    const listed = await g.dispatch(call('group_list'));
    if (listed.type !== 'result') throw new Error(JSON.stringify(listed));
    expect(listed.result).toMatchObject({ groups: [{ name: 'chrome-relay' }, { name: 'Taxes', groupId: mine }], otherGroups: 2 });
    expect(g.organize.groups.get(g.taxes)).toMatchObject({ title: 'Taxes', tabIds: [g.taxes1, g.taxes2] });
  });

  it('the lending group "chrome-relay" is the agents\' while every tab of it is usable; with a page agents never use dragged in, it is the person\'s again', async () => {
    const g = await groups();
    expect((await g.dispatch({ ...call('get', { what: 'title' }), target: { group: 'chrome-relay' } })).type).toBe('result');
    // The browser's settings page joins the lending group: lending never makes such a page an agent's.
    const settingsPage = g.env.browser.addTab({ url: 'chrome://settings/' }).id ?? 0;
    await g.organize.groupTabs([settingsPage], g.lending);
    const nobody = errorOf(await g.dispatch(call('group_close', { name: 'Nobody' })));
    const lending = errorOf(await g.dispatch(call('group_close', { name: 'chrome-relay' })));
    expect(lending).toEqual(asIfNamed(nobody, 'chrome-relay'));
    expect(g.organize.groups.get(g.lending)?.tabIds).toEqual([g.lent, settingsPage]);
  });
});

describe('dispatcher: the deadline of a call on a tab', () => {
  it('answers timeout (page_busy) itself when the page never lets the tool finish, before the host would', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    const never = (): Promise<never> => new Promise<never>(() => undefined);
    const tools = [defineTool({ name: 'get', uses: [], handle: never }), defineTool({ name: 'click', uses: [], handle: never })];
    const dispatch = createDispatcher({ tools, services: { ...env.ctx, targeting: targetingOver(env.browser) } });
    const started = Date.now();
    const read = errorOf(await dispatch(call('get', { what: 'title', tab }, DEADLINE_MARGIN_MS + 100)));
    expect(Date.now() - started).toBeLessThan(DEADLINE_MARGIN_MS + 100);
    expect(read).toMatchObject({ code: 'timeout', tool: 'get', retryable: true, details: { reason: 'page_busy', tab } });
    // A mutation cut off at the deadline may have acted.
    const click = errorOf(await dispatch(call('click', { x: 1, y: 1, tab }, DEADLINE_MARGIN_MS + 100)));
    expect(click).toMatchObject({ code: 'timeout', retryable: false, details: { reason: 'page_busy', mayHaveActed: true } });
  });
});

describe('dispatcher: input calls take turns per tab', () => {
  const later = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

  /** Clicks that record when they start and wait for the test to let each one finish. */
  function turns() {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    const other = env.browser.addTab({ url: 'https://b.test/' }).id ?? 0;
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const click = defineTool({
      name: 'click',
      uses: [],
      async handle(params, ctx) {
        const name = `${params.x ?? 0}`;
        started.push(name);
        await ctx.cdp.send(params.tab ?? 0, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x: params.x ?? 0, y: 0 });
        await new Promise<void>((resolve) => finish.set(name, resolve));
        return { clicked: true as const, tabId: params.tab ?? 0, x: params.x ?? 0, y: 0, healed: false, navigated: false, url: '' };
      },
    });
    const get = defineTool({
      name: 'get',
      uses: [],
      async handle(params, ctx) {
        started.push('get');
        if (params.what === 'text') await ctx.cdp.send(params.tab ?? 0, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x: 0, y: 0 });
        return { tabId: params.tab ?? 0, what: params.what, value: 'T' };
      },
    });
    const dispatch = createDispatcher({ tools: [click, get], services: { ...env.ctx, targeting: targetingOver(env.browser) } });
    const done = (name: string): void => finish.get(name)?.();
    return { env, tab, other, started, done, dispatch };
  }

  it('runs one input call per tab at a time, in arrival order; reads and other tabs do not wait', async () => {
    const { tab, other, started, done, dispatch } = turns();
    const first = dispatch(call('click', { x: 1, y: 0, tab }));
    const second = dispatch(call('click', { x: 2, y: 0, tab }));
    const third = dispatch(call('click', { x: 3, y: 0, tab }));
    const elsewhere = dispatch(call('click', { x: 9, y: 0, tab: other }));
    await later();
    expect((await dispatch(call('get', { what: 'title', tab }))).type).toBe('result');
    expect(started).toEqual(['1', '9', 'get']);
    done('1');
    expect((await first).type).toBe('result');
    await later();
    expect(started).toEqual(['1', '9', 'get', '2']);
    done('2');
    done('9');
    await Promise.all([second, elsewhere]);
    await later();
    done('3');
    expect((await third).type).toBe('result');
    expect(started).toEqual(['1', '9', 'get', '2', '3']);
  });

  it('a call still waiting at its deadline answers timeout busy, retryable: it never started', async () => {
    const { tab, started, done, dispatch } = turns();
    const first = dispatch(call('click', { x: 1, y: 0, tab }));
    const error = errorOf(await dispatch(call('click', { x: 2, y: 0, tab }, DEADLINE_MARGIN_MS + 50)));
    expect(error).toMatchObject({ code: 'timeout', tool: 'click', phase: 'resolve', retryable: true, details: { reason: 'busy', tab } });
    expect(error.details['mayHaveActed']).toBeUndefined();
    done('1');
    await first;
    await later();
    expect(started).toEqual(['1']);
  });

  it('a call answered at its deadline (page_busy) keeps the turn until its handler has settled', async () => {
    const { tab, started, done, dispatch } = turns();
    const cut = errorOf(await dispatch(call('click', { x: 1, y: 0, tab }, DEADLINE_MARGIN_MS + 50)));
    expect(cut).toMatchObject({ code: 'timeout', details: { reason: 'page_busy', mayHaveActed: true } });
    const next = dispatch(call('click', { x: 2, y: 0, tab }));
    await later();
    // Its mouse move may still reach the page: the next click does not start meanwhile.
    expect(started).toEqual(['1']);
    done('1');
    await later();
    expect(started).toEqual(['1', '2']);
    done('2');
    expect((await next).type).toBe('result');
  });

  it('a call answered at its deadline sends no further input: its next step fails, and the next call starts', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab({ url: 'https://a.test/' }).id ?? 0;
    let go: () => void = () => undefined;
    const typed: string[] = [];
    const type = defineTool({
      name: 'type',
      uses: [],
      async handle(params, ctx) {
        for (const char of params.text) {
          // A page slow to take the keys: the deadline passes in the middle.
          if (char === 'c') await new Promise<void>((resolve) => (go = resolve));
          await ctx.cdp.send(params.tab ?? 0, 'Input.dispatchKeyEvent', { type: 'keyDown', text: char });
          typed.push(char);
          await ctx.cdp.send(params.tab ?? 0, 'Input.dispatchKeyEvent', { type: 'keyUp' });
        }
        return { tabId: params.tab ?? 0, typed: params.text.length, into: 'input' };
      },
    });
    const dispatch = createDispatcher({ tools: [type], services: { ...env.ctx, targeting: targetingOver(env.browser) } });
    const cut = errorOf(await dispatch(call('type', { text: 'abcd', tab }, DEADLINE_MARGIN_MS + 50)));
    expect(cut).toMatchObject({ code: 'timeout', details: { reason: 'page_busy' } });
    go();
    expect((await dispatch(call('type', { text: 'xy', tab }))).type).toBe('result');
    expect(typed).toEqual(['a', 'b', 'x', 'y']);
  });

  it('a dialog opening while a call waits answers it dialog_open; nothing of it runs', async () => {
    const { env, tab, started, done, dispatch } = turns();
    const first = dispatch(call('click', { x: 1, y: 0, tab }));
    await later();
    const waiting = dispatch(call('click', { x: 2, y: 0, tab }));
    await later();
    env.debugger.emit(tab, 'Page.javascriptDialogOpening', { type: 'alert', message: 'Hi', url: 'https://a.test/' });
    expect(errorOf(await waiting)).toMatchObject({ code: 'target_conflict', phase: 'resolve', details: { reason: 'dialog_open', tab } });
    done('1');
    await first;
    expect(started).toEqual(['1']);
  });

  it('refuses input from a tool whose entry does not take turns (internal_error naming the fix)', async () => {
    const { tab, dispatch } = turns();
    const error = errorOf(await dispatch(call('get', { what: 'text', selector: 'p', tab })));
    expect(error).toMatchObject({ code: 'internal_error' });
    expect(error.message).toMatch(/input: true/);
  });
});
