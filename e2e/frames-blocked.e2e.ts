/**
 * The person's site block list inside pages: a page on an unblocked site embeds a blocked one, out of process
 * (127.0.0.2, a second fixture server: another site) and on the page's own origin under a blocked path. The
 * person sets the rules in the options page (their UI, driven as they would); agents act only through the built
 * CLI. What the blocked frames heard is read through the DevTools observer, never acted on through it.
 *
 *   - the snapshot shows each blocked frame as its iframe marked with the rule, none of its text and no ref in
 *     it, in text and in --json; the unblocked frame next to them still works;
 *   - `get`/`js --frame` into a blocked frame fail site_blocked and never run;
 *   - a ref taken inside a frame before the person blocked its site fails site_blocked, and nothing is clicked;
 *   - a click at coordinates over a blocked frame, a drag dropped there, or a click on its iframe's ref, fails and the frame hears nothing;
 *   - keys never follow focus into a blocked frame.
 */
import type { Frame, Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { until, type CliResult } from './harness.js';
import { okJson, open, refFor, snapshot, type Opened } from './helpers.js';
import { blockListRig, saveOptions } from './personOptions.js';
import { checkSnapshotText } from './snapshotGrammar.js';

const CROSS_RULE = '127.0.0.2';
const PATH_RULE = '127.0.0.1:*/frame-secret*';
const SECRETS = ['Secret balance', 'Transfer everything', 'Secret memo', 'Secret bank title', '4711'];

const rig = blockListRig();

const ok = (...args: string[]): Promise<Record<string, unknown>> => okJson(rig.relay, ...args);

/** The call failed with site_blocked naming the rule (and, for a frame, its origin), and printed nothing of the frame. */
function expectBlocked(result: CliResult, rule: string, origin: string): void {
  expect(result.code, result.stdout).not.toBe(0);
  expect(result.error?.code, result.stderr).toBe('target_conflict');
  expect(result.error?.details).toMatchObject({ reason: 'site_blocked', rule, origin, frame: true });
  for (const secret of SECRETS) expect(result.stdout + result.stderr).not.toContain(secret);
}

interface BlockedPage {
  tab: Opened;
  page: Page;
  bank: () => Frame;
  vault: () => Frame;
  child: () => Frame;
}

async function openPage(): Promise<BlockedPage> {
  const tab = await open(rig.relay, `/frame-blocked.html?x=${encodeURIComponent(rig.crossServer.url('/frame-secret.html?who=bank'))}`);
  const page = await rig.relay.page(tab.path);
  const find = (test: (url: string) => boolean) => (): Frame => {
    const frame = page.frames().find((f) => f !== page.mainFrame() && test(f.url()));
    if (frame === undefined) throw new Error(`no such frame: ${page.frames().map((f) => f.url()).join(', ')}`);
    return frame;
  };
  const opened: BlockedPage = {
    tab,
    page,
    bank: find((url) => url.startsWith(rig.crossServer.origin)),
    vault: find((url) => url.includes('who=vault')),
    child: find((url) => url.includes('/frame-child.html')),
  };
  await until(async () => {
    try {
      const states = await Promise.all([opened.bank(), opened.vault(), opened.child()].map((frame) => frame.evaluate('document.readyState')));
      return states.every((state) => state === 'complete');
    } catch {
      return false;
    }
  }, 10_000, 'all three frames loaded');
  return opened;
}

async function heard(frame: Frame): Promise<string[]> {
  return (await frame.evaluate('window.heard')) as string[];
}

describe('blocked sites inside pages', () => {
  it('the snapshot shows a blocked frame as its marked iframe, nothing inside it; the open frame next to it works', async () => {
    const { tab, bank, vault, child } = await openPage();
    // The page loads first: once a rule is in force, the network barrier keeps the blocked site out of agent
    // tabs altogether (control-barrier.e2e.ts). What is tested here is a page that already shows one.
    await saveOptions(rig.options, { blocked: `${CROSS_RULE}\n${PATH_RULE}` });
    const snap = await snapshot(rig.relay, tab.tabId);
    expect(checkSnapshotText(snap).problems).toEqual([]);
    expect(snap).toMatch(/^- iframe "Bank frame" \[ref=e\d+\] \[site-blocked="127\.0\.0\.2"\]$/m);
    expect(snap).toMatch(/^- iframe "Vault frame" \[ref=e\d+\] \[site-blocked="127\.0\.0\.1:\*\/frame-secret\*"\]$/m);
    for (const secret of SECRETS) expect(snap).not.toContain(secret);

    const json = await ok('snapshot', '--tab', String(tab.tabId), '--json');
    type Node = { role: string; name?: string; siteBlocked?: string; children?: Node[] };
    const all = (nodes: Node[]): Node[] => nodes.flatMap((node) => [node, ...all(node.children ?? [])]);
    const frames = all(json.tree as Node[]).filter((node) => node.role === 'iframe');
    expect(frames.map((node) => [node.name, node.siteBlocked, node.children])).toEqual([
      ['Bank frame', CROSS_RULE, undefined],
      ['Vault frame', PATH_RULE, undefined],
      ['Open frame', undefined, expect.any(Array)],
    ]);
    for (const secret of SECRETS) expect(JSON.stringify(json)).not.toContain(secret);

    await ok('click', refFor(snap, /button "Child button"/));
    expect(await child().evaluate('window.clicks')).toBe(1);
    expect(await heard(bank())).toEqual([]);
    expect(await heard(vault())).toEqual([]);
  });

  it('get and js --frame into a blocked frame fail site_blocked and never run', async () => {
    const { tab, bank, vault } = await openPage();
    // The page loads first: once a rule is in force, the network barrier keeps the blocked site out of agent
    // tabs altogether (control-barrier.e2e.ts). What is tested here is a page that already shows one.
    await saveOptions(rig.options, { blocked: `${CROSS_RULE}\n${PATH_RULE}` });
    const snap = await snapshot(rig.relay, tab.tabId);
    const frames: [string, string, string, () => Frame][] = [
      [refFor(snap, /iframe "Bank frame"/), CROSS_RULE, rig.crossServer.origin, bank],
      [refFor(snap, /iframe "Vault frame"/), PATH_RULE, rig.relay.server.origin, vault],
    ];
    for (const [ref, rule, origin, frame] of frames) {
      expectBlocked(await rig.relay.cli('get', 'text', '-s', 'body', '--frame', ref), rule, origin);
      expectBlocked(await rig.relay.cli('js', 'window.ran = document.body.innerText', '--frame', ref), rule, origin);
      expectBlocked(await rig.relay.cli('wait', '--text', 'Secret', '--frame', ref, '--timeout', '2000'), rule, origin);
      expect(await frame().evaluate('window.ran')).toBeUndefined();
    }
  });

  it('a ref taken inside a frame before the person blocked its site fails site_blocked, and nothing is clicked', async () => {
    const { tab, bank, vault } = await openPage();
    const snap = await snapshot(rig.relay, tab.tabId);
    const inBank = refFor(snap, /button "Transfer everything"/, 0);
    const inVault = refFor(snap, /button "Transfer everything"/, 1);
    const memo = refFor(snap, /textbox "Secret memo"/, 0);
    await saveOptions(rig.options, { blocked: `${CROSS_RULE}\n${PATH_RULE}` });
    expectBlocked(await rig.relay.cli('click', inBank), CROSS_RULE, rig.crossServer.origin);
    expectBlocked(await rig.relay.cli('click', inVault), PATH_RULE, rig.relay.server.origin);
    expectBlocked(await rig.relay.cli('fill', memo, 'hello'), CROSS_RULE, rig.crossServer.origin);
    expect(await heard(bank())).toEqual([]);
    expect(await heard(vault())).toEqual([]);
    expect(await bank().evaluate(`document.getElementById('memo').value`)).toBe('');
  });

  it('a click at coordinates over a blocked frame, a drag dropped there, or a click on its iframe, fails and the frame hears nothing', async () => {
    const { tab, page, bank, vault } = await openPage();
    // The page loads first: once a rule is in force, the network barrier keeps the blocked site out of agent
    // tabs altogether (control-barrier.e2e.ts). What is tested here is a page that already shows one.
    await saveOptions(rig.options, { blocked: `${CROSS_RULE}\n${PATH_RULE}` });
    const centre = async (id: string): Promise<[number, number]> =>
      (await page.evaluate(`(() => { const r = document.getElementById('${id}').getBoundingClientRect(); return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]; })()`)) as [number, number];
    const [bx, by] = await centre('bank');
    expectBlocked(await rig.relay.cli('click', '--x', String(bx), '--y', String(by), '--tab', String(tab.tabId)), CROSS_RULE, rig.crossServer.origin);
    const [vx, vy] = await centre('vault');
    expectBlocked(await rig.relay.cli('click', '--x', String(vx), '--y', String(vy), '--tab', String(tab.tabId)), PATH_RULE, rig.relay.server.origin);
    const snap = await snapshot(rig.relay, tab.tabId);
    // A drag whose drop point is over a blocked frame: refused before any input is sent. Its source is brought into
    // view first (that may scroll the page), and the drop point is taken where the frame is drawn then.
    const source = refFor(snap, /button "Focus the bank"/);
    await ok('scroll', '--into-view', source);
    const [dx, dy] = await centre('vault');
    expect(dy, 'the vault frame is in view below the scrolled page top').toBeGreaterThan(0);
    expectBlocked(await rig.relay.cli('drag', source, '--to-x', String(dx), '--to-y', String(dy)), PATH_RULE, rig.relay.server.origin);
    expectBlocked(await rig.relay.cli('click', refFor(snap, /iframe "Bank frame"/)), CROSS_RULE, rig.crossServer.origin);
    expectBlocked(await rig.relay.cli('hover', refFor(snap, /iframe "Vault frame"/)), PATH_RULE, rig.relay.server.origin);
    expect(await heard(bank())).toEqual([]);
    expect(await heard(vault())).toEqual([]);
  });

  it('keys do not follow focus into a blocked frame', async () => {
    const { tab, page, bank } = await openPage();
    // The page loads first: once a rule is in force, the network barrier keeps the blocked site out of agent
    // tabs altogether (control-barrier.e2e.ts). What is tested here is a page that already shows one.
    await saveOptions(rig.options, { blocked: `${CROSS_RULE}\n${PATH_RULE}` });
    await ok('click', refFor(await snapshot(rig.relay, tab.tabId), /button "Focus the bank"/));
    await until(async () => (await page.evaluate('document.activeElement.id')) === 'bank', 5000, 'focus in the bank frame');
    expectBlocked(await rig.relay.cli('keys', 'a', '--tab', String(tab.tabId)), CROSS_RULE, rig.crossServer.origin);
    expectBlocked(await rig.relay.cli('type', 'secret', '--tab', String(tab.tabId)), CROSS_RULE, rig.crossServer.origin);
    expect(await heard(bank())).toEqual([]);
  });
});
