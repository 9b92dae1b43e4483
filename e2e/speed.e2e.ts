/**
 * Actions pay only for what they do. Navigation is detected from what the click set going
 * (its events, the requests its handler awaited, one turn of the page after them) instead of a fixed
 * sleep; the page's own state says what happened. (That a click which starts nothing settles without
 * any timer is pinned by the unit tests of page/navigation.ts: timing is never asserted here.) And
 * the loop's two processes: every action takes --snapshot (shaped by -i, -d, -s), and what it prints
 * after the result is the page as the action left it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, until, type Relay } from './harness.js';
import { open, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

interface ClickResult {
  tabId: number;
  navigated: boolean;
  url: string;
}

describe('click: navigation detected from the click’s own handling', () => {
  it('a handler that awaits a fetch and then sets location.href is reported as navigated, and the old refs die', async () => {
    const tab = await open(relay, '/nav-async.html');
    const text = await snapshot(relay, tab.tabId);
    const click = await relay.cli('click', refFor(text, /button "Fetch then go"/));
    expect(click.code, click.stderr).toBe(0);
    // The fetch answers after 300 ms: a fixed 100 ms settle reported navigated: false here.
    expect(click.json).toMatchObject({ tabId: tab.tabId, navigated: true });
    expect((click.json as ClickResult).url).toContain('/nav-b.html');
    const stay = await relay.cli('click', refFor(text, /button "Stay"/));
    expect(stay.error).toMatchObject({ code: 'stale_ref', details: { reason: 'navigated' } });
  });

  it('a navigation that starts after the click’s handling is not reported, but still kills the refs', async () => {
    const tab = await open(relay, '/nav-async.html');
    const text = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    const click = await relay.cli('click', refFor(text, /button "Go later"/));
    expect(click.code, click.stderr).toBe(0);
    expect(click.json).not.toHaveProperty('navigated');
    expect(await read<string>(page, 'window.clicked')).toBe('later');
    await until(async () => page.url().includes('/nav-b.html') && (await read<string>(page, 'document.readyState')) === 'complete', 10_000, 'the late navigation');
    const stay = await relay.cli('click', refFor(text, /button "Stay"/));
    expect(stay.error).toMatchObject({ code: 'stale_ref', details: { reason: 'navigated' } });
    // The look-alike page got nothing.
    expect(await read<number | undefined>(page, 'window.pressed')).toBeUndefined();
  });

  it('a click that does not navigate is reported so, and did what it does', async () => {
    const tab = await open(relay, '/nav-async.html');
    const click = await relay.cli('click', refFor(await snapshot(relay, tab.tabId), /button "Stay"/));
    expect(click.code, click.stderr).toBe(0);
    expect(click.json).not.toHaveProperty('navigated');
    expect((click.json as ClickResult).url).toContain('/nav-async.html');
    expect(await read<number>(await relay.page(tab.path), 'window.stays')).toBe(1);
  });
});

/** The snapshot text printed after an action's JSON result. */
function snapshotPart(stdout: string): string {
  const at = stdout.indexOf('\n# ');
  if (at < 0) throw new Error(`no snapshot after the result:\n${stdout}`);
  return stdout.slice(at + 1);
}

function resultPart(stdout: string): unknown {
  return JSON.parse(stdout.slice(0, stdout.indexOf('\n# ')));
}

describe('--snapshot on every action: the page as the action left it, in the same process', () => {
  it('click --snapshot shows the post-click state', async () => {
    const tab = await open(relay, '/button.html');
    const click = await relay.cli('click', refFor(await snapshot(relay, tab.tabId), /button "Increment"/), '--snapshot');
    expect(click.code, click.stderr).toBe(0);
    expect(resultPart(click.stdout)).toMatchObject({ tabId: tab.tabId });
    expect(resultPart(click.stdout)).not.toHaveProperty('navigated');
    // The page's own text, changed by the click's handler: the snapshot came after it.
    expect(snapshotPart(click.stdout)).toContain('Clicked 1');
    expect(await read<number>(await relay.page(tab.path), 'window.clicks')).toBe(1);
  });

  it('a click that navigates is followed by a snapshot of the new page, whose refs work', async () => {
    const tab = await open(relay, '/nav-a.html');
    // The observer's page follows its tab across the navigation (other tabs show nav-b.html too).
    const page = await relay.page(tab.path);
    const click = await relay.cli('click', refFor(await snapshot(relay, tab.tabId), /link "Go to B"/), '--snapshot', '-i');
    expect(click.code, click.stderr).toBe(0);
    expect(resultPart(click.stdout)).toMatchObject({ navigated: true });
    const after = snapshotPart(click.stdout);
    expect(after).toMatch(/^# "Nav B"/);
    expect(after).toContain('link "Go to A"');
    const press = await relay.cli('click', refFor(after, /button "Press"/));
    expect(press.code, press.stderr).toBe(0);
    expect(page.url()).toContain('/nav-b.html');
    expect(await read<number>(page, 'window.pressed')).toBe(1);
  });

  it('the snapshot after an action that left a document being parsed waits for its end', async () => {
    const tab = await open(relay, '/nav-a.html');
    // Ready at commit: nothing proves the document parsed, so the snapshot waits for DOMContentLoaded.
    const nav = await relay.cli('navigate', relay.server.url('/parse-slow'), '--wait', 'commit', '--tab', String(tab.tabId), '--snapshot', '-i');
    expect(nav.code, nav.stderr).toBe(0);
    expect(snapshotPart(nav.stdout)).toContain('button "Late button"');
    const back = await relay.cli('navigate', relay.server.url('/nav-a.html?back=1'), '--tab', String(tab.tabId));
    expect(back.code, back.stderr).toBe(0);
    // The same after a click that navigated, whatever moment the click's answer came in.
    const link = await relay.cli('js', `(() => { const a = document.createElement('a'); a.href = '/parse-slow?ms=600'; a.textContent = 'Slow page'; document.body.append(a); return 1; })()`, '--tab', String(tab.tabId));
    expect(link.code, link.stderr).toBe(0);
    const click = await relay.cli('click', refFor(await snapshot(relay, tab.tabId), /link "Slow page"/), '--snapshot', '-i');
    expect(click.code, click.stderr).toBe(0);
    expect(snapshotPart(click.stdout)).toMatch(/^# "Slow parse"/);
    expect(snapshotPart(click.stdout)).toContain('button "Late button"');
  });

  it('navigate --snapshot -i prints the interactive snapshot of the page it opened', async () => {
    const nav = await relay.cli('navigate', relay.server.url('/nav-a.html?snap=1'), '--new-tab', '--snapshot', '-i');
    expect(nav.code, nav.stderr).toBe(0);
    expect(resultPart(nav.stdout)).toMatchObject({ ready: true, newTab: true });
    const after = snapshotPart(nav.stdout);
    expect(after).toMatch(/^# "Nav A"/);
    expect(after).toContain('button "Press"');
    // -i: actionable elements only, so the page's heading is not listed.
    expect(after).not.toContain('heading');
  });

  it('-d and -s shape the snapshot after the action; -s is --scope where the command has its own -s', async () => {
    const tab = await open(relay, '/form.html');
    const text = await snapshot(relay, tab.tabId);
    const field = refFor(text, /textbox/);
    const whole = await relay.cli('focus', field, '--snapshot');
    expect(snapshotPart(whole.stdout)).toContain('option "Germany"');
    const shallow = await relay.cli('focus', field, '--snapshot', '-d', '0');
    expect(shallow.code, shallow.stderr).toBe(0);
    expect(snapshotPart(shallow.stdout)).toContain('combobox "Country"');
    expect(snapshotPart(shallow.stdout)).not.toContain('option "Germany"');
    // --max-chars bounds what is printed after the result, with the marker that says so.
    const cut = await relay.cli('focus', field, '--snapshot', '--max-chars', '100');
    expect(cut.code, cut.stderr).toBe(0);
    expect(snapshotPart(cut.stdout)).toMatch(/\n!!! TRUNCATED: showing \d+ of \d+ characters/);
    expect(snapshotPart(cut.stdout)).not.toContain('option "Germany"');
    // The header, at most 100 characters of tree, the marker line.
    expect(snapshotPart(cut.stdout).length).toBeLessThan(600);
    expect(snapshotPart(cut.stdout).length).toBeLessThan(snapshotPart(whole.stdout).length);
    const scoped = await relay.cli('type', 'x', '-s', field, '--snapshot', '--scope', field);
    expect(scoped.code, scoped.stderr).toBe(0);
    const lines = snapshotPart(scoped.stdout).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`[ref=${field.slice(1)}]`);
  });

  it('a snapshot flag without --snapshot is invalid_arguments naming it, and nothing is clicked', async () => {
    const tab = await open(relay, '/button.html');
    const click = await relay.cli('click', refFor(await snapshot(relay, tab.tabId), /button "Increment"/), '-i');
    expect(click.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'interactive' } });
    expect(await read<number>(await relay.page(tab.path), 'window.clicks')).toBe(0);
  });

  it('a dialog the action opened is said instead of a snapshot; the action stands', async () => {
    const tab = await open(relay, '/dialogs.html');
    const click = await relay.cli('click', refFor(await snapshot(relay, tab.tabId), /button "Save"/), '--snapshot');
    expect(click.code, click.stderr).toBe(0);
    expect(click.stdout).toContain('"dialog":{"type":"alert"');
    expect(click.stdout).toContain('(no snapshot: a dialog is open on the tab');
    await relay.cli('dialog', 'accept', '--tab', String(tab.tabId));
  });
});
