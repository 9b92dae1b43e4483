/**
 * The proof an agent would give: a TodoMVC-style app (e2e/pages/todo.html: the list re-rendered from a
 * template on every change, a transparent toggle over its label's circle, double-click to edit, a delete button
 * that only shows on hover) driven the way an agent drives it — snapshot, then refs only: no `js`, no coordinates.
 * Each step is checked against the app's own state (window.todos) through the DevTools observer.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, until, type Relay } from './harness.js';
import { open, read, refFor } from './helpers.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

interface Todo {
  title: string;
  done: boolean;
}

/** The lines of the list item whose name (in `snapshot -i`) is `title`, its own line first. */
function item(snap: string, title: string): string {
  const lines = snap.split('\n');
  const start = lines.findIndex((line) => line.includes(`listitem ${JSON.stringify(title)}`));
  if (start < 0) throw new Error(`no item ${title} in:\n${snap}`);
  const indent = (lines[start] ?? '').search(/\S/);
  const end = lines.findIndex((line, i) => i > start && line.search(/\S/) <= indent);
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('a TodoMVC-style app, by refs only', () => {
  it('adds, edits by double-click, toggles, filters, deletes with a hover-only button and clears completed', async () => {
    const used: string[][] = [];
    /** Every command the "agent" runs goes through here: refs and keys only, never `js` or a coordinate. */
    const agent = async (...args: string[]): Promise<string> => {
      expect(args[0]).not.toBe('js');
      expect(args.some((arg) => /^--(x|y|to-x|to-y)$/.test(arg))).toBe(false);
      used.push(args);
      const result = await relay.cli(...args);
      expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(0);
      return result.stdout;
    };
    const tab = await open(relay, '/todo.html');
    const t = String(tab.tabId);
    const page: Page = await relay.page(tab.path);
    const todos = () => read<Todo[]>(page, 'window.todos');
    const look = () => agent('snapshot', '-i', '--tab', t);

    let snap = await look();
    const input = refFor(snap, /textbox "What needs to be done\?"/);
    for (const title of ['Write report', 'Buy milk', 'Call mom']) {
      await agent('fill', input, title);
      await agent('keys', 'Enter', '--tab', t);
    }
    expect(await todos()).toEqual([
      { title: 'Write report', done: false },
      { title: 'Buy milk', done: false },
      { title: 'Call mom', done: false },
    ]);

    // Edit by double-clicking the label (a listener the page added; the label has a ref for it).
    snap = await look();
    await agent('click', refFor(item(snap, 'Buy milk'), /generic "Buy milk" \[ref=/), '--double');
    snap = await look();
    const editor = refFor(snap, /textbox \[focused\] \[ref=e\d+\]: "Buy milk"/);
    await agent('fill', editor, 'Buy oat milk');
    await agent('keys', 'Enter', '--tab', t);
    expect((await todos()).map((todo) => todo.title)).toEqual(['Write report', 'Buy oat milk', 'Call mom']);

    // Toggle: the checkbox is transparent, laid over the circle its label draws; its row names it.
    snap = await look();
    await agent('check', refFor(item(snap, 'Write report'), /checkbox \[ref=/));
    expect((await todos()).map((todo) => todo.done)).toEqual([true, false, false]);

    // Filters are links. The hash changes at once, the view on the hashchange after it (its link then shows selected).
    const rendered = (): Promise<string | null> => read<string | null>(page, "document.querySelector('footer a.selected')?.getAttribute('href') ?? null");
    snap = await look();
    await agent('click', refFor(snap, /link "Active"/));
    await until(async () => (await read<string>(page, 'location.hash')) === '#/active' && (await rendered()) === '#/active', 5000, 'active filter');
    snap = await look();
    expect(snap.match(/listitem "[^"]+"/g)).toEqual(['listitem "Buy oat milk"', 'listitem "Call mom"']);
    await agent('click', refFor(snap, /link "Completed"/));
    await until(async () => (await read<string>(page, 'location.hash')) === '#/completed' && (await rendered()) === '#/completed', 5000, 'completed filter');
    snap = await look();
    expect(snap.match(/listitem "[^"]+"/g)).toEqual(['listitem "Write report"']);
    await agent('click', refFor(snap, /link "All"/));
    await until(async () => (await read<string>(page, 'location.hash')) === '#/' && (await rendered()) === '#/', 5000, 'all filter');

    // Delete: the × only shows while its row is hovered, so hover the row (it has a ref for that), then click it.
    snap = await look();
    expect(item(snap, 'Call mom')).not.toMatch(/button/);
    await agent('hover', refFor(snap, /listitem "Call mom" \[ref=/));
    snap = await look();
    await agent('click', refFor(item(snap, 'Call mom'), /button "×" \[ref=/));
    expect((await todos()).map((todo) => todo.title)).toEqual(['Write report', 'Buy oat milk']);

    // Clear completed.
    snap = await look();
    await agent('click', refFor(snap, /button "Clear completed"/));
    expect(await todos()).toEqual([{ title: 'Buy oat milk', done: false }]);

    expect(used.map((args) => args[0])).toEqual(expect.not.arrayContaining(['js']));
  });
});
