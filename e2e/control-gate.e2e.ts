/**
 * One gate for every tab an agent names, lists or changes. The person has tabs of their own — one with an unsaved
 * draft titled "Re: salary review" — in a tab group "Personal" they made; agents work in their own tabs ("agent
 * tabs only", the default). The person acts only in their own tabs and through the extension's pages; the agent only
 * through the built CLI and an MCP server. Every way of naming tabs is tried:
 *
 *   - lists: `tabs`, `group list`, `workspace list` (CLI and MCP) show only what the agent may act on; the person's
 *     tabs and groups are counted (otherTabs, otherGroups), never shown by URL, title or name;
 *   - groups by name: `group close Personal` (with --allow-partial too), `group add Personal <agent tab>` (with a
 *     missing tab and --allow-partial: the `failed` list), `--group Personal`, over the CLI and MCP, answer exactly as a
 *     name nobody uses — the person's group names are not probed that way either; `group create Personal` makes the
 *     agent a group of its own beside theirs; a group with one agent tab and one of the person's is theirs;
 *   - groups by the person's tab ids: `group create` with one is refused; the person's tabs, draft and group untouched;
 *   - ids: `close <person's tab>`, `lease claim --tab <person's tab>`: refused (as they were before this gate);
 *   - workspaces: a tab the person moved into the agent's workspace window is not listed, and `workspace close`
 *     refuses to close it with the window;
 *   - and what is the agent's still works: its own group is created, listed and closed; a tab the person lends by
 *     putting it into a group named "chrome-relay" is listed and usable.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type CliResult, type Relay } from './harness.js';
import { keptAnswers, mcpClient, okJson, open, read } from './helpers.js';
import { extensionPage, personTabIds } from './personOptions.js';

const DRAFT = 'Sam — the number I can live with is 92k. Do not forward.';

let relay: Relay;
let mcp: Client;
let options: Page;
let draft: Page;
let mine: { draft: number; other: number };
let group: number;
const { told, cli } = keptAnswers(() => relay);

interface Listed {
  windows: { id: number; tabs: { id: number; url: string; title: string; groupId: number }[] }[];
  otherTabs?: number;
}

function refused(result: CliResult, what: string): void {
  expect(result.code, `${what}: ${result.stdout}`).toBe(1);
  expect(result.error, `${what}: ${result.stderr}`).toMatchObject({ code: 'target_conflict', details: { reason: 'not_agent_tab' } });
}

/** The person's side: their tab group, as Chrome holds it. */
async function personGroup(): Promise<{ title: string; color: string; tabs: number[] }> {
  return options.evaluate(async (id) => {
    const found = await chrome.tabGroups.get(id);
    const tabs = await chrome.tabs.query({ groupId: id });
    return { title: found.title ?? '', color: found.color, tabs: tabs.map((t) => t.id ?? -1).sort((a, b) => a - b) };
  }, group);
}

async function personIntact(): Promise<void> {
  expect(await personGroup()).toEqual({ title: 'Personal', color: 'purple', tabs: [mine.draft, mine.other].sort((a, b) => a - b) });
  expect(await read<string>(draft, 'document.getElementById("draft").value')).toBe(DRAFT);
}

beforeAll(async () => {
  relay = await startRelay();
  mcp = await mcpClient(relay.env, '--caps', 'all');
  options = await extensionPage(relay, 'options.html');
  // The person's own tabs: a draft they are writing, and another page, in a group of theirs.
  draft = await relay.devtools.newPage();
  await draft.goto(relay.server.url('/salary-draft.html?person=draft'));
  await draft.type('#draft', DRAFT);
  const other = await relay.devtools.newPage();
  await other.goto(relay.server.url('/personal.html?person=other'));
  const [draftId] = await personTabIds(options, relay.server.url('/salary-draft.html?person=draft'));
  const [otherId] = await personTabIds(options, relay.server.url('/personal.html?person=other'));
  if (draftId === undefined || otherId === undefined) throw new Error("the person's tabs are not open");
  mine = { draft: draftId, other: otherId };
  group = await options.evaluate(async (ids) => {
    const id = await chrome.tabs.group({ tabIds: ids as [number, ...number[]] });
    await chrome.tabGroups.update(id, { title: 'Personal', color: 'purple' });
    return id;
  }, [mine.draft, mine.other]);
}, 90_000);
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await relay?.stop();
});

describe('lists show only what the agent may act on', () => {
  it("tabs and group list count the person's tabs and groups, never show them (CLI and MCP)", async () => {
    const agent = await open(relay, '/button.html');
    const tabs = (await okJson(relay, 'tabs')) as unknown as Listed;
    const ids = tabs.windows.flatMap((w) => w.tabs.map((t) => t.id));
    expect(ids).toContain(agent.tabId);
    expect(ids).not.toContain(mine.draft);
    expect(ids).not.toContain(mine.other);
    // The two tabs of the group, the options page, and the tab the browser started with.
    expect(tabs.otherTabs).toBeGreaterThanOrEqual(3);
    const groups = (await okJson(relay, 'group', 'list')) as { groups: { name: string }[]; otherGroups?: number };
    expect(groups.groups.map((g) => g.name)).not.toContain('Personal');
    expect(groups.otherGroups).toBe(1);
    const viaMcp = JSON.stringify(await mcp.callTool({ name: 'tabs', arguments: {} })) + JSON.stringify(await mcp.callTool({ name: 'group_list', arguments: {} }));
    told.push(JSON.stringify(tabs), JSON.stringify(groups), viaMcp);
    for (const text of told) {
      expect(text).not.toMatch(/salary|salary-draft\.html|personal\.html|Personal|chrome-extension/);
    }
  });
});

/**
 * A name only the person's groups carry answers exactly as a name nobody uses: same exit, same stdout, same stderr
 * (code, message, details), the name aside. `args` hold NAME where the group's name goes.
 */
async function likeNobody(name: string, ...args: string[]): Promise<CliResult> {
  const theirs = await cli(...args.map((a) => a.replaceAll('NAME', name)));
  const nobody = await cli(...args.map((a) => a.replaceAll('NAME', 'Nobody')));
  const what = args.join(' ');
  expect(theirs.code, `${what}: ${theirs.stdout}`).toBe(1);
  expect(theirs.error?.code, `${what}: ${theirs.stderr}`).toBe('target_not_found');
  expect(theirs.stderr, what).toBe(nobody.stderr.replaceAll('Nobody', name));
  expect(theirs.stdout, what).toBe(nobody.stdout.replaceAll('Nobody', name));
  return theirs;
}

describe("the person's groups and tabs, named any way", () => {
  it("group close, group add and --group answer a person's group name as one nobody uses; group create gets a group of the agent's own; nothing of theirs changes", async () => {
    const agent = await open(relay, '/button.html');
    for (const shape of [
      ['group', 'close', 'NAME'],
      ['group', 'close', 'NAME', '--allow-partial'],
      ['group', 'add', 'NAME', String(agent.tabId)],
      // With a tab that does not exist beside it: the `failed` list is no oracle either.
      ['group', 'add', 'NAME', String(agent.tabId), '999999', '--allow-partial'],
      ['--group', 'NAME', 'snapshot'],
      ['--group', 'NAME', 'close'],
      ['--group', 'NAME', 'click', '@e1'],
    ]) {
      await likeNobody('Personal', ...shape);
    }
    await personIntact();
    const agentTab = ((await okJson(relay, 'tabs')) as unknown as Listed).windows.flatMap((w) => w.tabs).find((t) => t.id === agent.tabId);
    expect(agentTab?.groupId).toBe(-1);
    // Over MCP the same.
    const viaMcp = async (name: string) => JSON.stringify(await mcp.callTool({ name: 'group_close', arguments: { name } }));
    expect(await viaMcp('Personal')).toBe((await viaMcp('Nobody')).replaceAll('Nobody', 'Personal'));
    expect(await viaMcp('Personal')).toContain('target_not_found');
    await personIntact();
    // The person's tab named by id is still refused whole, whatever the group's name.
    refused(await cli('group', 'create', 'mine', String(agent.tabId), String(mine.other)), 'group create with their tab');
    refused(await cli('group', 'create', 'mine', String(agent.tabId), String(mine.other), '--allow-partial'), 'group create --allow-partial with their tab');
    // Their group's name is free for the agent: a group of its own, beside theirs (Chrome allows two of one title).
    const created = await okJson(relay, 'group', 'create', 'Personal', String(agent.tabId), '--json');
    expect(created.groupId).not.toBe(group);
    await personIntact();
    const listed = (await okJson(relay, 'group', 'list')) as { groups: { name: string; groupId: number; tabIds: number[] }[]; otherGroups?: number };
    expect(listed.groups.filter((g) => g.name === 'Personal')).toEqual([expect.objectContaining({ groupId: created.groupId, tabIds: [agent.tabId] })]);
    expect(listed.otherGroups).toBe(1);
    // From then on the name is the agent's group, never an ambiguity that counts theirs.
    const second = await open(relay, '/button.html');
    expect((await cli('group', 'add', 'Personal', String(second.tabId))).code).toBe(0);
    expect((await okJson(relay, 'group', 'close', 'Personal')).applied).toEqual([agent.tabId, second.tabId]);
    await personIntact();
    // By id: close and lease claim (refused before this gate too; kept beside the group roads).
    refused(await cli('close', String(mine.draft)), 'close');
    refused(await cli('--tab', String(mine.other), 'close'), '--tab close');
    refused(await cli('--agent', 'a1', 'lease', 'claim', '--tab', String(mine.draft)), 'lease claim');
    const closeViaMcp = await mcp.callTool({ name: 'close', arguments: { tabs: [mine.draft] } });
    expect(closeViaMcp.isError).toBe(true);
    await personIntact();
  });

  it('a group holding one agent tab and one of the person\'s is the person\'s: not named, not closed, its agent tab still the agent\'s', async () => {
    const agent = await open(relay, '/button.html');
    const page = await relay.devtools.newPage();
    await page.goto(relay.server.url('/personal.html?person=mixed'));
    const [theirs] = await personTabIds(options, relay.server.url('/personal.html?person=mixed'));
    if (theirs === undefined) throw new Error('no mixed tab');
    const mixed = await options.evaluate(async (ids) => {
      const id = await chrome.tabs.group({ tabIds: ids as [number, ...number[]] });
      await chrome.tabGroups.update(id, { title: 'Mixed' });
      return id;
    }, [agent.tabId, theirs]);
    for (const shape of [['group', 'close', 'NAME', '--allow-partial'], ['group', 'add', 'NAME', String(agent.tabId)], ['--group', 'NAME', 'snapshot']]) {
      await likeNobody('Mixed', ...shape);
    }
    const kept = await options.evaluate((id) => chrome.tabs.query({ groupId: id }).then((tabs) => tabs.map((t) => t.id ?? -1).sort((a, b) => a - b)), mixed);
    expect(kept).toEqual([agent.tabId, theirs].sort((a, b) => a - b));
    expect((await cli('snapshot', '--tab', String(agent.tabId))).code).toBe(0);
    await page.close();
    await personIntact();
  });
});

describe("workspaces hold only the agent's tabs", () => {
  it("a tab the person moved into the agent's workspace is not listed, and workspace close refuses to close it", async () => {
    const created = await okJson(relay, 'workspace', 'create', 'wsp', '--url', relay.server.url('/button.html'));
    const windowId = created.windowId as number;
    const page = await relay.devtools.newPage();
    await page.goto(relay.server.url('/personal.html?person=moved'));
    const [moved] = await personTabIds(options, relay.server.url('/personal.html?person=moved'));
    if (moved === undefined) throw new Error('no moved tab');
    await options.evaluate((tab, win) => chrome.tabs.move(tab, { windowId: win, index: -1 }).then(() => undefined), moved, windowId);
    const listed = (await okJson(relay, 'workspace', 'list')) as { workspaces: { name: string; tabIds: number[] }[]; otherTabs?: number };
    expect(listed.workspaces.find((w) => w.name === 'wsp')?.tabIds).toEqual([created.tabId]);
    expect(listed.otherTabs).toBe(1);
    refused(await cli('workspace', 'close', 'wsp'), 'workspace close');
    expect(await personTabIds(options, relay.server.url('/personal.html?person=moved'))).toEqual([moved]);
    // Once the person takes their tab back, the workspace is the agent's alone again.
    await options.evaluate((tab) => chrome.windows.getAll().then(async (wins) => {
      const home = wins.find((w) => w.type === 'normal' && w.focused) ?? wins[0];
      if (home?.id !== undefined) await chrome.tabs.move(tab, { windowId: home.id, index: -1 });
    }), moved);
    expect((await cli('workspace', 'close', 'wsp')).code).toBe(0);
    expect(await personTabIds(options, relay.server.url('/personal.html?person=moved'))).toEqual([moved]);
    await page.close();
  });
});

describe("what is the agent's still works", () => {
  it('its own group is made, listed and closed; a tab the person lends through a "chrome-relay" group is listed and usable', async () => {
    const a = await open(relay, '/button.html');
    const b = await open(relay, '/button.html');
    expect((await cli('group', 'create', 'work', String(a.tabId), String(b.tabId))).code).toBe(0);
    const groups = (await okJson(relay, 'group', 'list')) as { groups: { name: string; tabIds: number[] }[] };
    expect(groups.groups.find((g) => g.name === 'work')?.tabIds).toEqual([a.tabId, b.tabId]);
    expect((await okJson(relay, 'group', 'close', 'work')).applied).toEqual([a.tabId, b.tabId]);

    const lent = await relay.devtools.newPage();
    await lent.goto(relay.server.url('/personal.html?person=lent'));
    const [lentId] = await personTabIds(options, relay.server.url('/personal.html?person=lent'));
    if (lentId === undefined) throw new Error('no lent tab');
    await options.evaluate(async (tab) => {
      const id = await chrome.tabs.group({ tabIds: [tab] });
      await chrome.tabGroups.update(id, { title: 'chrome-relay' });
    }, lentId);
    const tabs = (await okJson(relay, 'tabs')) as unknown as Listed;
    expect(tabs.windows.flatMap((w) => w.tabs.map((t) => t.id))).toContain(lentId);
    // The person's other tabs are still only counted.
    expect(tabs.windows.flatMap((w) => w.tabs.map((t) => t.id))).not.toContain(mine.draft);
    expect(tabs.otherTabs).toBeGreaterThanOrEqual(2);
    expect(((await okJson(relay, 'group', 'list')) as { groups: { name: string }[] }).groups.map((g) => g.name)).toContain('chrome-relay');
    expect((await cli('snapshot', '--tab', String(lentId))).code).toBe(0);
    await personIntact();
    for (const text of told) expect(text).not.toContain('salary');
  });
});
