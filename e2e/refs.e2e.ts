/**
 * Refs that never lie. Each scenario uses its own small fixture page; every claim is checked against the
 * page's own counters. Page-side changes (re-render, overlay, navigation triggered by the page) are made through
 * the DevTools observer, playing the part of the page's own code; every chrome-relay action goes through the CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID, startRelay, until, type Relay } from './harness.js';
import { allRefs, open, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

interface ClickResult { tabId: number; ref?: string; healed: boolean; navigated: boolean; url: string }

describe('refs: identity and numbering', () => {
  it('keeps the same refs across snapshots and gives a new node a new, higher number', async () => {
    const tab = await open(relay, '/churn.html');
    const first = await snapshot(relay, tab.tabId);
    const second = await snapshot(relay, tab.tabId);
    expect(allRefs(second)).toEqual(allRefs(first));
    const page = await relay.page(tab.path);
    await page.evaluate('add()');
    const third = await snapshot(relay, tab.tabId);
    const added = Number(refFor(third, /button "Item 1"/).slice(2));
    expect(added).toBeGreaterThan(Math.max(...allRefs(first)));
    expect(allRefs(third).filter((r) => r !== added)).toEqual(allRefs(first));
  });

  it('a snapshot of one tab leaves the refs of another tab working', async () => {
    const a = await open(relay, '/button.html');
    const refA = refFor(await snapshot(relay, a.tabId), /button "Increment"/);
    const b = await open(relay, '/button.html');
    await snapshot(relay, b.tabId);
    await snapshot(relay, b.tabId);
    const click = await relay.cli('click', refA);
    expect(click.code, click.stderr).toBe(0);
    expect((click.json as ClickResult).tabId).toBe(a.tabId);
    const pageA = await relay.page(a.path);
    const pageB = await relay.page(b.path);
    await until(async () => (await read<number>(pageA, 'window.clicks')) === 1, 5000, 'tab A click');
    expect(await read<number>(pageB, 'window.clicks')).toBe(0);
  });
});

describe('refs: churn heals, twins never swap', () => {
  it('heals a ref whose node was replaced by a re-render (same role and name)', async () => {
    const tab = await open(relay, '/churn.html');
    const ref = refFor(await snapshot(relay, tab.tabId), /button "Save"/);
    const page = await relay.page(tab.path);
    await page.evaluate('rerender()');
    const click = await relay.cli('click', ref);
    expect(click.code, click.stderr).toBe(0);
    expect(click.json).toMatchObject({ healed: true });
    expect(click.json).not.toHaveProperty('navigated');
    await until(async () => (await read<number>(page, 'window.saves')) === 1, 5000, 'save click');
    expect(await read<string>(page, 'window.savedGeneration')).toBe('2');
  });

  it('removing an earlier twin never moves a ref onto the next row', async () => {
    const tab = await open(relay, '/twins.html');
    const ref = refFor(await snapshot(relay, tab.tabId), /button "Delete"/, 2); // Row 3's Delete
    const page = await relay.page(tab.path);
    await page.evaluate("removeRow('Row 1')");
    const click = await relay.cli('click', ref);
    const deleted = await read<string[]>(page, 'window.deleted');
    if (click.code === 0) {
      await until(async () => (await read<string[]>(page, 'window.deleted')).length === 1, 5000, 'a delete');
      expect(await read<string[]>(page, 'window.deleted')).toEqual(['Row 3']);
    } else {
      expect(click.error?.code).toBe('stale_ref');
      expect(deleted).toEqual([]);
    }
  });

  it('an element that vanished without a replacement is stale_ref telling the agent to snapshot again', async () => {
    const tab = await open(relay, '/twins.html');
    const ref = refFor(await snapshot(relay, tab.tabId), /button "Delete"/, 4); // Row 5's Delete
    const page = await relay.page(tab.path);
    await page.evaluate("removeRow('Row 5')");
    const click = await relay.cli('click', ref);
    expect(click.error).toMatchObject({ code: 'stale_ref', retryable: false });
    expect(click.error?.message).toMatch(/snapshot/);
    expect(await read<string[]>(page, 'window.deleted')).toEqual([]);
  });
});

describe('refs: navigation kills them, SPA routes do not', () => {
  const triggers: Record<string, (relay: Relay, tabId: number, path: string, text: string) => Promise<void>> = {
    'a link click (through chrome-relay, reported as navigated)': async (r, _tabId, _path, text) => {
      const click = await r.cli('click', refFor(text, /link "Go to B"/));
      expect(click.code, click.stderr).toBe(0);
      expect((click.json as ClickResult).navigated).toBe(true);
    },
    'a form submit': async (r, _tabId, _path, text) => {
      const click = await r.cli('click', refFor(text, /button "Submit form"/));
      expect((click.json as ClickResult).navigated).toBe(true);
    },
    'location.href': async (r, _tabId, path) => {
      await (await r.page(path)).evaluate("location.href = '/nav-b.html'");
    },
    'a server redirect': async (r, _tabId, path) => {
      await (await r.page(path)).evaluate("location.href = '/redirect?to=/nav-b.html'");
    },
    'a reload': async (r, _tabId, path) => {
      await (await r.page(path)).evaluate('location.reload()');
    },
  };

  for (const [name, trigger] of Object.entries(triggers)) {
    it(`after ${name}, the old ref is stale_ref and the new page records no click`, async () => {
      const tab = await open(relay, '/nav-a.html');
      const text = await snapshot(relay, tab.tabId);
      const press = refFor(text, /button "Press"/);
      // Mark the old document; the new one (same tab, same Page object) will not have the mark.
      const page = await relay.page(tab.path);
      await page.evaluate('window.__old = true');
      await trigger(relay, tab.tabId, tab.path, text);
      await until(
        async () => (await page.evaluate('!window.__old && document.readyState === "complete"').catch(() => false)) === true,
        10_000,
        'the new document',
      );
      const click = await relay.cli('click', press);
      expect(click.error?.code, click.stdout).toBe('stale_ref');
      expect(await read<number | undefined>(page, 'window.pressed')).toBeUndefined();
    });
  }

  it('after back navigation the old ref is stale_ref', async () => {
    const tab = await open(relay, '/nav-a.html');
    const page = await relay.page(tab.path); // the tab's Page object follows it across navigations
    const text = await snapshot(relay, tab.tabId);
    await relay.cli('click', refFor(text, /link "Go to B"/));
    await until(async () => page.url().includes('/nav-b.html') && (await page.evaluate('document.readyState')) === 'complete', 10_000, 'B loaded');
    const pressOnB = refFor(await snapshot(relay, tab.tabId), /button "Press"/);
    await page.evaluate('history.back()');
    await until(async () => page.url().includes(tab.path) && (await page.evaluate('document.readyState').catch(() => '')) === 'complete', 10_000, 'back to A');
    const click = await relay.cli('click', pressOnB);
    expect(click.error?.code).toBe('stale_ref');
    expect(await read<number | undefined>(page, 'window.pressed')).toBeUndefined();
  });

  it('keeps refs through pushState and hash route changes', async () => {
    const tab = await open(relay, '/spa.html');
    const text = await snapshot(relay, tab.tabId);
    const act = refFor(text, /button "Act"/);
    const push = await relay.cli('click', refFor(text, /button "Go to profile"/));
    expect(push.json).not.toHaveProperty('navigated');
    expect((await relay.cli('click', act)).code).toBe(0);
    const hash = await relay.cli('click', refFor(text, /link "Settings \(hash\)"/));
    expect(hash.code, hash.stderr).toBe(0);
    const again = await relay.cli('click', act);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).not.toHaveProperty('healed');
    const page = await relay.page('/spa/profile');
    await until(async () => (await read<number>(page, 'window.acts')) === 2, 5000, 'two acts');
    expect(page.url()).toContain('#/settings');
  });
});

describe('refs: no clicking through overlays', () => {
  it('refuses a covered button naming the interceptor, delivers nothing, then clicks once it is gone', async () => {
    const tab = await open(relay, '/overlay.html');
    const text = await snapshot(relay, tab.tabId);
    const target = refFor(text, /button "Covered target"/);
    const page = await relay.page(tab.path);
    const refused = await relay.cli('click', target);
    expect(refused.error?.code).toBe('click_intercepted');
    expect(JSON.stringify(refused.error?.details.interceptor)).toMatch(/modal|Cookie consent|consent/);
    expect(await read<number | undefined>(page, 'window.counts.target')).toBeUndefined();
    await page.evaluate('hideModal()');
    const click = await relay.cli('click', target);
    expect(click.code, click.stderr).toBe(0);
    await until(async () => (await read<number | undefined>(page, 'window.counts.target')) === 1, 5000, 'target click');
  });

  it('same-lineage hits (inner span, wrapping label, shadow DOM) and a partly covered element click without a false refusal', async () => {
    const tab = await open(relay, '/overlay.html');
    const page = await relay.page(tab.path);
    await page.evaluate('hideModal()');
    const text = await snapshot(relay, tab.tabId);
    const cases: [RegExp, string][] = [
      [/button "Inner span icon"/, 'inner'],
      [/checkbox "Wrapped"/, 'wrapped'],
      [/button "Shadow button"/, 'shadow'],
      [/button "Under header"/, 'tall'],
      [/button "Far below"/, 'below'],
    ];
    for (const [pattern, key] of cases) {
      const click = await relay.cli('click', refFor(text, pattern));
      expect(click.code, `${key}: ${click.stderr}`).toBe(0);
      await until(async () => (await read<number | undefined>(page, `window.counts.${key}`)) === 1, 5000, `${key} click`);
    }
  });
});

describe('refs: carry their own tab', () => {
  it('a contradicting --tab is target_conflict; a closed tab is target_not_found', async () => {
    const a = await open(relay, '/button.html');
    const b = await open(relay, '/button.html');
    const ref = refFor(await snapshot(relay, a.tabId), /button "Increment"/);
    const conflict = await relay.cli('click', ref, '--tab', String(b.tabId));
    expect(conflict.error).toMatchObject({ code: 'target_conflict', details: { refTab: a.tabId, requestedTab: b.tabId } });
    await (await relay.page(a.path)).close();
    const closed = await relay.cli('click', ref);
    expect(closed.error?.code).toBe('target_not_found');
  });
});

describe('refs: service-worker restarts and extension reloads', () => {
  async function workerTarget() {
    return until(() => relay.devtools.targets().find((t) => t.type() === 'service_worker' && t.url().includes(EXTENSION_ID)) ?? null, 10_000, 'service worker');
  }

  it('refs survive a killed service worker; the counter keeps rising; a reload makes old refs stale', async () => {
    const tab = await open(relay, '/button.html');
    const text = await snapshot(relay, tab.tabId);
    const ref = refFor(text, /button "Increment"/);
    const highest = Math.max(...allRefs(text));

    const worker = await workerTarget();
    const browserSession = await relay.devtools.target().createCDPSession();
    await browserSession.send('Target.closeTarget', { targetId: (worker as unknown as { _targetId: string })._targetId });
    // While the worker (and so the host) is down, the CLI answers with a closed code rather than hanging.
    const down = await relay.cli('tabs');
    if (down.code !== 0) expect(['extension_not_connected', 'native_host_disconnected']).toContain(down.error?.code);
    // Any extension event wakes it: a tab update does.
    const wakePage = await relay.devtools.newPage();
    await wakePage.goto(relay.server.url('/other.html'));
    await until(async () => (await relay.cli('tabs')).code === 0, 15_000, 'worker and host back');

    const click = await relay.cli('click', ref);
    expect(click.code, click.stderr).toBe(0);
    const page = await relay.page(tab.path);
    await until(async () => (await read<number>(page, 'window.clicks')) === 1, 5000, 'click after restart');
    const after = await snapshot(relay, (await open(relay, '/churn.html')).tabId);
    expect(Math.min(...allRefs(after))).toBeGreaterThan(highest);

    // Extension reload: storage.session is cleared, the old ref must not act on anything.
    const beforeReload = Math.max(...allRefs(after));
    const sw = await (await workerTarget()).worker();
    await sw?.evaluate('chrome.runtime.reload()').catch(() => undefined);
    await until(async () => (await relay.cli('tabs')).code === 0, 20_000, 'extension back after reload');
    const stale = await relay.cli('click', ref);
    expect(stale.error?.code).toBe('stale_ref');
    expect(await read<number>(page, 'window.clicks')).toBe(1);
    const fresh = await snapshot(relay, tab.tabId);
    expect(Math.min(...allRefs(fresh))).toBeGreaterThan(beforeReload);
  });
});
