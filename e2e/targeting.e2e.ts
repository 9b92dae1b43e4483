/**
 * Targeting through the built CLI: exactly the tab the agent named, or a closed code.
 *
 * Tabs here load recorder.html, which records every event it gets (pointer, key, focus, load/unload,
 * scroll…). "The other tab records nothing" is read from that record through the DevTools
 * observer. The "human" tab is opened through the DevTools connection, as a person would open a
 * tab, and is never named to chrome-relay: it must never receive an event nor be closed.
 */
import { execFile } from 'node:child_process';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, parseCliOutput, runCli, startRelay, until, type CliResult, type Relay } from './harness.js';
import { open, read, refFor, type Opened } from './helpers.js';
import { prng, TabModel, type Outcome, type Step } from './targetingModel.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

const as = (agent: string | undefined, ...args: string[]): Promise<CliResult> =>
  runCli(args, agent === undefined ? relay.env : { ...relay.env, CHROME_RELAY_AGENT: agent });

async function agentTab(name: string): Promise<Opened & { page: Page }> {
  const opened = await open(relay, `/recorder.html?name=${name}`);
  return { ...opened, page: await relay.page(opened.path) };
}

let humans = 0;
/**
 * A tab a person opened: through the DevTools connection, never through chrome-relay.
 *
 * Its window is first moved from under the mouse pointer (Xvfb parks it mid-screen). Observed
 * headful: whenever a tab opens or closes in a window, Chrome refreshes hover state by sending the
 * page under the pointer a mousemove at the pointer's own position — two per tab, whoever opened
 * it. That is the person's pointer resting there, not chrome-relay's input; with the pointer
 * elsewhere every event the page still gets would be chrome-relay's.
 */
async function humanTab(): Promise<{ page: Page; path: string; born: number; events: string[] }> {
  const path = `/recorder.html?name=human&h=${++humans}`;
  const page = await relay.devtools.newPage();
  const session = await page.createCDPSession();
  const { windowId } = await session.send('Browser.getWindowForTarget');
  await session.send('Browser.setWindowBounds', { windowId, bounds: { windowState: 'normal' } });
  await session.send('Browser.setWindowBounds', { windowId, bounds: { left: 0, top: 0, width: 560, height: 420 } });
  await session.detach();
  await page.goto(relay.server.url(path));
  await until(async () => (await read<string[]>(page, 'window.events')).includes('load'), 10_000, 'human tab loaded');
  return { page, path, born: await read<number>(page, 'window.born'), events: await read<string[]>(page, 'window.events') };
}

/** The human tab is open, still the same document at the same URL, and got no event since it loaded. */
async function expectUntouched(human: { page: Page; path: string; born: number; events: string[] }): Promise<void> {
  expect(human.page.isClosed()).toBe(false);
  expect(human.page.url()).toBe(relay.server.url(human.path));
  expect(await read<number>(human.page, 'window.born')).toBe(human.born);
  // As one string, so a failure prints every event rather than a truncated array.
  expect(JSON.stringify(await read<string[]>(human.page, 'window.events'))).toEqual(JSON.stringify(human.events));
}

const events = (page: Page): Promise<string[]> => read<string[]>(page, 'window.events');
const clicksOf = async (page: Page): Promise<number> => (await events(page)).filter((e) => e.startsWith('click')).length;

/** `batch --no-bail` with the steps on stdin (and global options in front). */
function batch(steps: readonly unknown[], globals: readonly string[] = []): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, '--json', ...globals, 'batch', '--no-bail'], { env: relay.env, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve(parseCliOutput(err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr));
    });
    child.stdin?.end(JSON.stringify(steps));
  });
}

function expectCode(result: CliResult, code: string, reason?: string): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.error?.code, result.stderr).toBe(code);
  if (reason !== undefined) expect(result.error?.details.reason).toBe(reason);
}

function ok(result: CliResult): CliResult {
  expect(result.code, result.stderr).toBe(0);
  return result;
}

describe('no tab until one is named or opened', () => {
  // First in the file: chrome-relay has not used a tab in this browser yet.
  it('a command without --tab is target_not_found, and the person\'s active tab gets nothing', async () => {
    const human = await humanTab();
    for (const args of [['snapshot'], ['js', '1'], ['click', '--x', '5', '--y', '5'], ['close']]) {
      const result = await relay.cli(...args);
      expectCode(result, 'target_not_found');
      expect(result.error?.details.tab).toBeNull();
      expect(result.error?.message).toMatch(/chrome-relay tabs.*navigate/);
    }
    await expectUntouched(human);
  });
});

describe('--tab means the same before and after the command', () => {
  it('program-level --tab acts on exactly that tab: snapshot, get, js, click, read, ax, click-ax, navigate', async () => {
    const x = await agentTab('tab-x');
    const y = await agentTab('tab-y');
    const yBorn = await read<number>(y.page, 'window.born');
    const yEvents = await events(y.page);
    const tab = String(x.tabId);
    // Before each command Y is the remembered tab, so a --tab that is ignored would land there.
    const rememberY = async (): Promise<void> => void ok(await relay.cli('snapshot', '--tab', String(y.tabId)));

    await rememberY();
    const snap = ok(await relay.cli('--tab', tab, 'snapshot'));
    expect(snap.stdout).toContain(`[tab=${x.tabId}]`);
    expect(snap.stdout).toMatch(/heading "tab-x"/);

    await rememberY();
    expect(ok(await relay.cli('--tab', tab, 'get', 'title', '--json')).json).toMatchObject({ tabId: x.tabId, value: 'tab-x' });

    await rememberY();
    expect(ok(await relay.cli('--tab', tab, 'js', "window.events.push('js'); document.title", '--json')).json).toMatchObject({ tabId: x.tabId, value: 'tab-x' });
    expect(await events(x.page)).toContain('js');

    await rememberY();
    expect(ok(await relay.cli('--tab', tab, 'click', '--x', '5', '--y', '5', '--json')).json).toMatchObject({ tabId: x.tabId });
    await until(async () => (await clicksOf(x.page)) === 1, 5000, 'coordinate click in X');

    await rememberY();
    const ref = refFor(snap.stdout, /button "Act"/);
    expect(ok(await relay.cli('--tab', tab, 'click', ref, '--json')).json).toMatchObject({ tabId: x.tabId });
    await until(async () => (await events(x.page)).includes('click#act'), 5000, 'ref click in X');

    await rememberY();
    const readOut = ok(await relay.cli('--tab', tab, 'read'));
    expect(readOut.stdout).toContain(`[tab=${x.tabId}]`);
    await rememberY();
    expect((ok(await relay.cli('--tab', tab, 'ax', '--json')).json as { tabId: number }).tabId).toBe(x.tabId);
    await rememberY();
    expect(ok(await relay.cli('--tab', tab, 'click-ax', ref, '--json')).json).toMatchObject({ tabId: x.tabId });
    await until(async () => (await events(x.page)).filter((e) => e === 'click#act').length === 2, 5000, 'click-ax in X');

    // Before `batch`: every step gets it — command steps in front of their arguments, tool steps as the envelope target.
    await rememberY();
    const batched = await batch([{ tool: 'js', params: { expression: "window.events.push('batch-tool'); document.title" } }, { command: 'get', args: ['title'] }], ['--tab', tab]);
    expect((ok(batched).json as { results: { result: unknown }[] }).results.map((r) => r.result)).toMatchObject([{ tabId: x.tabId, value: 'tab-x' }, { tabId: x.tabId, value: 'tab-x' }]);
    expect(await events(x.page)).toContain('batch-tool');

    await rememberY();
    const moved = ok(await relay.cli('--tab', tab, 'navigate', relay.server.url('/recorder.html?name=tab-x2'), '--json'));
    expect(moved.json).toMatchObject({ tabId: x.tabId });
    expect(moved.json).not.toMatchObject({ newTab: true });
    await relay.page('name=tab-x2');

    // Y: same document, not one event beyond its own load.
    expect(await read<number>(y.page, 'window.born')).toBe(yBorn);
    expect(await events(y.page)).toEqual(yEvents);
  });

  it('a --tab naming another tab than the ref\'s is target_conflict ref_tab_mismatch, in either position, and clicks nothing', async () => {
    const x = await agentTab('mismatch-x');
    const y = await agentTab('mismatch-y');
    const refY = refFor(ok(await relay.cli('snapshot', '--tab', String(y.tabId))).stdout, /button "Act"/);
    for (const args of [
      ['--tab', String(x.tabId), 'click', refY],
      ['click', refY, '--tab', String(x.tabId)],
      ['--tab', String(x.tabId), 'click-ax', refY],
      ['click-ax', refY, '--tab', String(x.tabId)],
    ]) {
      const result = await relay.cli(...args);
      expectCode(result, 'target_conflict', 'ref_tab_mismatch');
      expect(result.error?.details).toMatchObject({ refTab: y.tabId, requestedTab: x.tabId });
      expect(result.error?.message).toContain('drop --tab');
    }
    expect(await clicksOf(x.page)).toBe(0);
    expect(await clicksOf(y.page)).toBe(0);
  });

  it('a ref plus a tab that does not exist is target_conflict, not target_not_found', async () => {
    const x = await agentTab('ghost');
    const ref = refFor(ok(await relay.cli('snapshot', '--tab', String(x.tabId))).stdout, /button "Act"/);
    expectCode(await relay.cli('click', ref, '--tab', '99999'), 'target_conflict', 'ref_tab_mismatch');
    expectCode(await relay.cli('--tab', '99999', 'click', ref), 'target_conflict', 'ref_tab_mismatch');
    expect(await clicksOf(x.page)).toBe(0);
  });

  it('a target on a command that acts on no tab is refused, not ignored', async () => {
    const result = await relay.cli('--tab', '5', 'tabs');
    expectCode(result, 'invalid_arguments');
    expect(result.error?.details.field).toBe('tab');
  });
});

describe('the remembered tab is closed', () => {
  it('commands without --tab are target_not_found naming it; the human tab gets no event and a bare close closes nothing', async () => {
    const human = await humanTab();
    const gone = await agentTab('soon-closed');
    ok(await relay.cli('close', String(gone.tabId)));
    for (const args of [['snapshot'], ['get', 'title'], ['js', '1'], ['click', '--x', '5', '--y', '5'], ['keys', 'a'], ['type', 'x'], ['reload'], ['read'], ['ax'], ['close']]) {
      const result = await relay.cli(...args);
      expectCode(result, 'target_not_found');
      expect(result.error?.details).toMatchObject({ tab: gone.tabId, remembered: true });
      expect(result.error?.message).toMatch(/`chrome-relay tabs`.*`chrome-relay navigate <url>`/);
    }
    // `tabs` counts the human tab among the person's, and never shows it.
    const listed = ok(await relay.cli('tabs', '--json')).json as { windows: { tabs: { url: string }[] }[]; otherTabs: number };
    expect(listed.windows.flatMap((w) => w.tabs).some((t) => t.url === relay.server.url(human.path))).toBe(false);
    expect(listed.otherTabs).toBeGreaterThanOrEqual(1);
    await expectUntouched(human);

    // Opening a page gives commands a tab again — that one, not the human's.
    const fresh = await agentTab('after-close');
    expect(ok(await relay.cli('click', '--x', '5', '--y', '5', '--json')).json).toMatchObject({ tabId: fresh.tabId });
    await until(async () => (await clicksOf(fresh.page)) === 1, 5000, 'click in the new tab');
    await expectUntouched(human);
  });
});

describe('each agent its own current tab', () => {
  it('two agents (CHROME_RELAY_AGENT=a, =b) each navigate, then click without --tab: each acts in its own tab, never in the other\'s', async () => {
    const human = await humanTab();
    const url = (name: string): string => relay.server.url(`/recorder.html?name=${name}`);
    const a = ok(await as('a', 'navigate', url('agent-a'), '--json')).json as { tabId: number };
    const b = ok(await as('b', 'navigate', url('agent-b'), '--json')).json as { tabId: number };
    expect(b.tabId).not.toBe(a.tabId);
    const [pageA, pageB] = [await relay.page('name=agent-a'), await relay.page('name=agent-b')];
    // Interleaved, as two agents working at once would be.
    expect(ok(await as('a', 'click', '--x', '5', '--y', '5', '--json')).json).toMatchObject({ tabId: a.tabId });
    expect(ok(await as('b', 'click', '--x', '5', '--y', '5', '--json')).json).toMatchObject({ tabId: b.tabId });
    expect(ok(await as('a', 'click', '--x', '5', '--y', '5', '--json')).json).toMatchObject({ tabId: a.tabId });
    await until(async () => (await clicksOf(pageA)) === 2 && (await clicksOf(pageB)) === 1, 5000, "each agent's clicks in its own tab");
    // A second navigate stays in the agent's own tab: b's page is not taken away from it.
    expect(ok(await as('a', 'navigate', url('agent-a-again'), '--json')).json).toMatchObject({ tabId: a.tabId });
    expect(pageB.url()).toBe(url('agent-b'));
    expect(await clicksOf(pageB)).toBe(1);
    // An agent that has worked nowhere yet gets no one's tab.
    const fresh = await as('c', 'click', '--x', '5', '--y', '5');
    expectCode(fresh, 'target_not_found');
    expect(fresh.error?.details).toMatchObject({ tab: null, agent: 'c' });
    expect(await clicksOf(pageB)).toBe(1);
    await expectUntouched(human);
  });
});

describe('close and leases', () => {
  it("another agent cannot close a leased tab (reason leased), by id or by --tab; the lease dies with the tab", async () => {
    const tab = await agentTab('leased');
    ok(await as('alice', 'lease', 'claim', '--tab', String(tab.tabId)));
    for (const args of [['close', String(tab.tabId)], ['--tab', String(tab.tabId), 'close']]) {
      const result = await as('bob', ...args);
      expectCode(result, 'target_conflict', 'leased');
      expect(result.error?.details.owner).toBe('alice');
      // The move is to wait or ask the person: no agent frees another's lease.
      expect(result.error?.message).toContain('ask the person');
      expect(result.error?.message).not.toContain('--force');
    }
    expectCode(await as(undefined, 'close', String(tab.tabId)), 'target_conflict', 'leased');
    expect(tab.page.isClosed()).toBe(false);

    ok(await as('alice', 'close', String(tab.tabId)));
    await until(() => tab.page.isClosed(), 5000, 'leased tab closed by its owner');
    const leases = ok(await relay.cli('lease', 'list', '--json')).json as { leases: { target: string }[] };
    expect(leases.leases.map((l) => l.target)).not.toContain(String(tab.tabId));
  });

  it("the owner releases all its leases; another agent cannot release one, with or without --force", async () => {
    const one = await agentTab('lease-one');
    const two = await agentTab('lease-two');
    ok(await as('alice', 'lease', 'claim', '--tab', String(one.tabId)));
    ok(await as('alice', '--tab', String(two.tabId), 'lease', 'claim'));
    expectCode(await as('bob', 'snapshot', '--tab', String(two.tabId)), 'target_conflict', 'leased');
    const released = ok(await as('alice', 'lease', 'release', '--all', '--json')).json as { released: { target: string }[] };
    expect(released.released.map((l) => l.target).sort()).toEqual([String(one.tabId), String(two.tabId)].sort());
    ok(await as('bob', 'close', String(one.tabId)));
    await until(() => one.page.isClosed(), 5000, 'closed after release');

    ok(await as('alice', 'lease', 'claim', '--tab', String(two.tabId)));
    expectCode(await as(undefined, 'lease', 'release', '--tab', String(two.tabId)), 'invalid_arguments');
    expectCode(await as('bob', 'lease', 'release', '--tab', String(two.tabId)), 'target_conflict', 'leased');
    expectCode(await as('bob', 'lease', 'release', '--tab', String(two.tabId), '--force'), 'invalid_arguments');
    expectCode(await as('bob', 'snapshot', '--tab', String(two.tabId)), 'target_conflict', 'leased');
    ok(await as('alice', 'lease', 'release', '--all'));
    ok(await as('bob', 'snapshot', '--tab', String(two.tabId)));
  });
});


describe('property: the human tab never hears from chrome-relay', () => {
  it('200 random sequences of navigate/snapshot/click/close/tabs over agent tabs and a human one', async () => {
    const seed = Number(process.env.E2E_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`targeting property: seed ${seed} (replay with E2E_SEED=${seed})`);
    const model = new TabModel(prng(seed), (name) => relay.server.url(`/recorder.html?name=${name}`));
    const human = await humanTab();
    const pages = new Map<number, Page>();
    for (const name of ['agent-a', 'agent-b']) {
      const opened = await agentTab(name);
      model.adopt(opened.tabId);
      pages.set(opened.tabId, opened.page);
    }

    const seen = new Map<string, number>();
    const settle = async (step: Step, outcome: Outcome, label: string): Promise<void> => {
      const what = `${label} (seed ${seed})`;
      const key = `${step.kind}:${step.expect.ok ? 'ok' : step.expect.code}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (step.expect.ok) {
        expect(outcome, what).toMatchObject({ ok: true });
        const value = outcome.value as { tabId?: number; closed?: number[]; newTab?: boolean; windows?: { tabs: { url: string }[] }[]; otherTabs?: number };
        if (step.kind === 'close') expect(value.closed, what).toEqual([step.expect.tab]);
        else if (step.expect.tab !== undefined) expect(value.tabId, what).toBe(step.expect.tab);
        // A program's line leaves out `newTab: false` (it carries nothing): absent is false.
        if (step.expect.newTab !== undefined) expect(value.newTab === true, what).toBe(step.expect.newTab);
        // The human tab is the person's: counted, never listed.
        if (step.kind === 'tabs') {
          expect(value.windows?.flatMap((w) => w.tabs).some((t) => t.url === relay.server.url(human.path)), what).toBe(false);
          expect(value.otherTabs, what).toBeGreaterThanOrEqual(1);
        }
      } else {
        expect({ ok: outcome.ok, code: outcome.code }, what).toEqual({ ok: false, code: step.expect.code });
        if (step.expect.reason !== undefined) expect(outcome.reason, what).toBe(step.expect.reason);
      }
      const moved = model.record(step, outcome);
      if (moved) pages.set(moved.tabId, await relay.page(moved.url));
      if (step.kind === 'close') for (const id of model.dead) pages.delete(id);
    };

    let processes = 0;
    let steps = 0;
    for (let sequence = 0; sequence < 200; sequence++) {
      if (sequence % 4 === 0) {
        // Each step its own CLI process, its --tab before or after the command name at random.
        const length = 1 + Math.floor(model.pick([0, 1, 2]));
        for (let i = 0; i < length; i++) {
          const step = model.plan(model.kind());
          const at = step.args.indexOf('--tab');
          const args = at > 0 && model.chance(0.5) ? ['--tab', step.args[at + 1] ?? '', ...step.args.slice(0, at), ...step.args.slice(at + 2)] : step.args;
          const run = await relay.cli('--json', ...args);
          processes++;
          steps++;
          await settle(step, { ok: run.code === 0, value: run.json, code: run.error?.code, reason: run.error?.details.reason }, args.join(' '));
        }
      } else {
        // One `batch` of tool steps: the same path through host, dispatcher and targeting. Steps
        // that open or close tabs go alone; the others are planned with the remembered tab rolled forward.
        const first = model.plan(model.kind());
        const planned = [first];
        const saved = model.remembered;
        model.predict(first);
        while (first.kind !== 'navigate' && first.kind !== 'close' && planned.length < 4 && model.chance(0.7)) {
          const step = model.plan(model.pick(['snapshot', 'click', 'click', 'tabs'] as const));
          model.predict(step);
          planned.push(step);
        }
        model.remembered = saved;
        const run = await batch(planned.map((step) => step.tool));
        processes++;
        const results = (run.json as { results?: { ok: boolean; result?: unknown; error?: { code: string; details: Record<string, unknown> } }[] } | undefined)?.results ?? [];
        expect(results, run.stderr).toHaveLength(planned.length);
        for (const [i, step] of planned.entries()) {
          const r = results[i];
          steps++;
          await settle(step, { ok: r?.ok === true, value: r?.result, code: r?.error?.code, reason: r?.error?.details.reason }, `batch step ${JSON.stringify(step.tool)}`);
        }
      }
      for (const [tabId, tab] of model.live) {
        const page = pages.get(tabId);
        expect(page, `page of tab ${tabId}`).toBeDefined();
        if (page) expect(await clicksOf(page), `clicks in tab ${tabId} (seed ${seed})`).toBe(tab.clicks);
      }
      await expectUntouched(human);
    }
    console.log(`targeting property: ${steps} steps in ${processes} CLI processes; ${model.live.size} agent tabs open at the end, ${model.dead.length} closed`);
    console.log(`targeting property: outcomes ${JSON.stringify(Object.fromEntries([...seen].sort()))}`);
  }, 600_000);
});
