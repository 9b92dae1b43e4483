/**
 * What the agent sees is what it can act on. Through the built CLI, on small fixtures: refs for every
 * element a person acts on (double-click, drag and drop, hover rows), names and states as the browser computes
 * them, context in -i, refs that survive a re-rendering list, and readers that reach into shadow roots and frames.
 * Every assertion about an effect reads the page's own record through the DevTools observer.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { until } from './harness.js';
import { crossSiteRig, okJson, okText, open, read, refFor, snapshot } from './helpers.js';

const rig = crossSiteRig();

const ok = (...args: string[]): Promise<Record<string, unknown>> => okJson(rig.relay, ...args);

const text = (...args: string[]): Promise<string> => okText(rig.relay, ...args);

/** -i output → each summarised container's refs, by its summary (the refs indented below its line). */
function containers(snap: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: { name: string; indent: number } | undefined;
  for (const line of snap.split('\n')) {
    const indent = line.search(/\S/);
    const head = /^\s*- (?:row|listitem) "([^"]*)"/.exec(line);
    if (head?.[1] !== undefined) {
      current = { name: head[1], indent };
      out.set(head[1], []);
      continue;
    }
    if (current !== undefined && indent <= current.indent) current = undefined;
    const ref = /\[ref=(e\d+)\]/.exec(line)?.[1];
    if (current !== undefined && ref !== undefined) out.get(current.name)?.push(ref);
  }
  return out;
}

describe('every element a person can act on gets a ref', () => {
  it('double-click targets, pointer cards, inline handlers and focusable panels act through their refs', async () => {
    const tab = await open(rig.relay, '/fidelity-act.html');
    const snap = await snapshot(rig.relay, tab.tabId);
    const page = await rig.relay.page(tab.path);
    // A <p> whose only sign is a dblclick listener added by script.
    await ok('click', refFor(snap, /"Ada Lovelace" \[ref=/), '--double');
    await ok('click', refFor(snap, /"Rename by double-click" \[ref=/), '--double');
    await ok('click', refFor(snap, /"Quarterly report Updated today" \[ref=/));
    await ok('focus', refFor(snap, /"Focusable panel" \[ref=/));
    await ok('keys', 'a');
    expect(await read<string[]>(page, 'window.log')).toEqual(['name-dblclick', 'inline-dblclick', 'card', 'key']);
  });

  it('elements with click listeners added by script keep their refs beside as many inline handlers', async () => {
    const tab = await open(rig.relay, '/fidelity-clicks.html');
    const snap = await snapshot(rig.relay, tab.tabId);
    const page = await rig.relay.page(tab.path);
    for (const name of ['Inline one', 'Inline two', 'Added three', 'Added four']) await ok('click', refFor(snap, new RegExp(`"${name}" \\[ref=`)));
    expect(await read<string[]>(page, 'window.log')).toEqual(['inline-one', 'inline-two', 'added-three', 'added-four']);
  });

  it('drags a draggable onto drop targets given as a ref, a CSS selector and a point', async () => {
    const tab = await open(rig.relay, '/fidelity-act.html');
    const snap = await snapshot(rig.relay, tab.tabId);
    const page = await rig.relay.page(tab.path);
    const chip = refFor(snap, /"Invoice 42" \[ref=/);
    expect(await ok('drag', chip, refFor(snap, /"Archive" \[ref=/))).toMatchObject({ to: { ref: refFor(snap, /"Archive" \[ref=/).slice(1) } });
    expect(await ok('drag', chip, '--to-selector', '#shelf')).toMatchObject({ to: { selector: '#shelf' } });
    const bin = await read<number[]>(page, `(() => { const r = document.getElementById('bin').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`);
    await ok('drag', chip, '--to-x', String(bin[0]), '--to-y', String(bin[1]));
    expect(await read<string[]>(page, 'window.log')).toEqual(['drop:bin:invoice-42', 'drop:shelf:invoice-42', 'drop:bin:invoice-42']);
    const missing = await rig.relay.cli('drag', chip, '--to-selector', '#nowhere');
    expect(missing.error).toMatchObject({ code: 'element_not_found', details: { reason: 'no_match' } });
    const both = await rig.relay.cli('drag', chip, refFor(snap, /"Archive" \[ref=/), '--to-x', '5', '--to-y', '5');
    expect(both.error).toMatchObject({ code: 'invalid_arguments' });
  });

  it('a row with controls that show on hover gets a ref; hovering it reveals them, and they act', async () => {
    const tab = await open(rig.relay, '/fidelity-act.html');
    const snap = await snapshot(rig.relay, tab.tabId);
    const page = await rig.relay.page(tab.path);
    expect(snap).not.toMatch(/button "Edit"/);
    await ok('hover', refFor(snap, /listitem "Call the bank" \[ref=/));
    const shown = await snapshot(rig.relay, tab.tabId);
    const edit = refFor(shown, /button "Edit" \[ref=/);
    await ok('click', edit);
    expect(await read<string[]>(page, 'window.log')).toEqual(['hover:Call the bank', 'edit-bank']);
  });
});

describe('names and states as the browser computes them', () => {
  it('names from slots, CSS content and file inputs; three kinds of text field told apart; the states an agent needs', async () => {
    const tab = await open(rig.relay, '/fidelity-names.html');
    const snap = await snapshot(rig.relay, tab.tabId);
    expect(snap).toMatch(/- link "Read the docs" \[ref=e\d+\]/);
    expect(snap).toMatch(/- button "×" \[ref=e\d+\]/);
    expect(snap).toMatch(/- button "▶ Play" \[ref=e\d+\]/);
    expect(snap).toMatch(/- button "Attachment" \[ref=e\d+\]: "No file chosen"/);
    expect(snap).toMatch(/- button "Choose File" \[ref=e\d+\]: "No file chosen"/);
    // Unlabelled, it is named by the text just before it, as a person reads it, and says so.
    expect(snap).toMatch(/- textbox "Comment" \[multiline\] \[label\] \[ref=e\d+\]\n/);
    expect(snap).toMatch(/- textbox \[ref=e\d+\]\n/);
    expect(snap).toMatch(/- textbox \[richtext\] \[ref=e\d+\]\n/);
    expect(snap).toMatch(/- button "Bold" \[pressed\] \[ref=e\d+\]/);
    expect(snap).toMatch(/- button "Italic" \[ref=e\d+\]/);
    expect(snap).toMatch(/- textbox "Email" \[required\] \[ref=e\d+\]/);
    expect(snap).toMatch(/- textbox "Password" \[ref=e\d+\]: "••••••"/);
    expect(snap).not.toContain('hunter2');
    expect(snap).toMatch(/- button "Send" \[disabled\] \[ref=e\d+\]/);
    expect(snap).toMatch(/- button "Menu" \[collapsed\] \[ref=e\d+\]/);
    expect(snap).toMatch(/- checkbox "Subscribed" \[checked\] \[ref=e\d+\]/);
    expect(snap).toMatch(/- tab "First tab" \[selected\] \[ref=e\d+\]/);
    // A cell holding a link and text says both (its text was once lost with the cell's name).
    expect(snap).toMatch(/- cell:\n\s+- link "Bren Estuary" \[ref=e\d+\]\n\s+- ", sea level"\n/);

    // The chosen file shows; focus shows where keys go.
    const dir = mkdtempSync(join(tmpdir(), 'cr-fidelity-'));
    const file = join(dir, 'invoice.pdf');
    writeFileSync(file, 'x');
    await ok('upload', refFor(snap, /button "Attachment"/), file);
    await ok('focus', refFor(snap, /textbox "Email"/));
    const after = await snapshot(rig.relay, tab.tabId);
    expect(after).toMatch(/- button "Attachment" \[ref=e\d+\]: "invoice.pdf"/);
    expect(after).toMatch(/- textbox "Email" \[required\] \[focused\] \[ref=e\d+\]/);
    expect(after.match(/\[focused\]/g)).toHaveLength(1);
  });
});

describe('context in -i', () => {
  it('rows whose controls look alike keep a short summary; -i elision says how many and how to see them', async () => {
    const tab = await open(rig.relay, '/rows?n=30');
    const compact = await text('snapshot', '-i', '--tab', String(tab.tabId));
    const rows = containers(compact);
    expect([...rows.keys()].slice(0, 3)).toEqual(['Item 1', 'Item 2', 'Item 3']);
    expect(compact).toMatch(/… 18 more row items like these but for their text \(18 refs not shown; --no-elide shows them\)/);
    const page = await rig.relay.page(tab.path);
    const open5 = rows.get('Item 5')?.[0];
    expect(open5).toBeDefined();
    await ok('click', `@${open5 ?? ''}`);
    expect(await read<number>(page, 'window.lastOpened')).toBe(5);
    const all = containers(await text('snapshot', '-i', '--no-elide', '--tab', String(tab.tabId)));
    expect(all.size).toBe(30);
    expect(all.get('Item 27')).toHaveLength(1);
  });

  it('an unnamed checkbox reads as belonging to its item', async () => {
    const tab = await open(rig.relay, '/fidelity-rerender.html');
    const compact = await text('snapshot', '-i', '--tab', String(tab.tabId));
    expect(compact.match(/listitem "[^"]*"/g)).toEqual(['Write report', 'Buy milk', 'Call mom', 'Same', 'Same'].map((name) => `listitem "${name}"`));
    expect(compact).toMatch(/- listitem "Buy milk":\n\s+- checkbox \[ref=e\d+\]\n\s+- button "Ping" \[ref=e\d+\]/);
    const rows = containers(compact);
    const page = await rig.relay.page(tab.path);
    await ok('check', `@${rows.get('Buy milk')?.[0] ?? ''}`);
    expect(await read<boolean[]>(page, 'window.items.map((i) => Boolean(i.done))')).toEqual([false, true, false, false, false]);
  });
});

describe('refs survive re-rendering apps', () => {
  it('stay the same across 10 snapshots with edits in between, while every element is replaced; twins never swap', async () => {
    const tab = await open(rig.relay, '/fidelity-rerender.html');
    const page = await rig.relay.page(tab.path);
    const t = String(tab.tabId);
    const itemRefs = (snap: string): Map<string, string> => {
      // Unique rows only: summary → its refs joined.
      const out = new Map<string, string>();
      for (const [name, refs] of containers(snap)) if (name !== 'Same') out.set(name, refs.join(' '));
      return out;
    };
    let snap = await text('snapshot', '-i', '--tab', t);
    const first = itemRefs(snap);
    expect(first.size).toBe(3);
    const edits: ((s: string) => Promise<void>)[] = [
      async (s) => void (await ok('click', refFor(s, /button "Refresh"/))),
      async (s) => void (await ok('check', `@${containers(s).get('Write report')?.[0] ?? ''}`)),
      async (s) => {
        // Titles unlike any other row's: a row's summary is the shortest start of its text that no look-alike shares.
        await ok('fill', refFor(s, /textbox "New item"/), ['Water plants', 'Feed the cat'][added++] ?? 'Wash the car');
        await ok('click', refFor(s, /button "Add"/));
      },
      async (s) => void (await ok('click', `@${containers(s).get('Call mom')?.[1] ?? ''}`)),
      async (s) => void (await ok('uncheck', `@${containers(s).get('Write report')?.[0] ?? ''}`)),
    ];
    let added = 0;
    let renders = await read<number>(page, 'window.renders');
    let previous = first;
    for (let i = 0; i < 10; i++) {
      const edit = edits[i % edits.length];
      if (edit === undefined) throw new Error('no edit');
      await edit(snap);
      const now = await read<number>(page, 'window.renders');
      expect(now, 'the list was re-rendered (every row element replaced)').toBeGreaterThan(renders);
      renders = now;
      snap = await text('snapshot', '-i', '--tab', t);
      const current = itemRefs(snap);
      for (const [name, refs] of previous) expect(current.get(name), `${name} after edit ${i + 1}\n${snap}`).toBe(refs);
      previous = current;
    }
    for (const [name, refs] of first) expect(previous.get(name)).toBe(refs);
    // Pings went where their refs said: "Call mom" is item 3.
    expect(await read<number[]>(page, 'window.hits')).toEqual([3, 3]);

    // True twins: after a re-render nothing tells them apart, so their refs are never carried over or swapped.
    const twinPings = (from: string): string[] => {
      const lines = from.split('\n');
      return lines.flatMap((line, i) => {
        if (!/listitem "Same"/.test(line)) return [];
        const ping = lines.slice(i + 1).find((l) => l.includes('button "Ping"')) ?? '';
        return [/\[ref=(e\d+)\]/.exec(ping)?.[1] ?? ''];
      });
    };
    const old = twinPings(snap);
    expect(old).toHaveLength(2);
    await ok('click', refFor(snap, /button "Refresh"/));
    // Before any new snapshot: the old twin ref cannot tell which copy is its own.
    const stale = await rig.relay.cli('click', `@${old[1] ?? ''}`);
    expect(stale.error).toMatchObject({ code: 'stale_ref', details: { reason: 'ambiguous' } });
    snap = await text('snapshot', '-i', '--tab', t);
    const fresh = twinPings(snap);
    expect(fresh).toHaveLength(2);
    for (const ref of fresh) expect(old).not.toContain(ref);
    const hits = (await read<number[]>(page, 'window.hits')).length;
    await ok('click', `@${fresh[1] ?? ''}`);
    expect((await read<number[]>(page, 'window.hits')).slice(hits)).toEqual([5]);
  });

  it('a page whose listeners are read before every snapshot keeps answering (20 presses, 20 snapshots)', async () => {
    // Reading listeners with `pierce` on an isolated world's document crashed the tab within a few reads once the
    // page allocated: every later call was timeout/page_busy.
    const tab = await open(rig.relay, '/fidelity-churn.html');
    const page = await rig.relay.page(tab.path);
    const t = String(tab.tabId);
    let snap = await text('snapshot', '-i', '--tab', t);
    for (let i = 0; i < 20; i++) {
      await ok('click', refFor(snap, /button "Again"/));
      snap = await text('snapshot', '-i', '--tab', t);
      expect(snap).toMatch(/"row 299"/);
    }
    expect(await read<number>(page, 'window.presses')).toBe(20);
  });
});

describe('readers reach where refs reach', () => {
  it('wait and get pierce open shadow roots (nested too)', async () => {
    const tab = await open(rig.relay, '/fidelity-readers.html');
    const t = String(tab.tabId);
    expect(await ok('wait', '--text', 'Shipped to Lisbon', '--tab', t, '--timeout', '5000')).toMatchObject({ condition: 'text' });
    expect(await ok('wait', '--selector', '.badge', '--tab', t, '--timeout', '3000')).toMatchObject({ condition: 'selector' });
    expect(await ok('get', 'text', '-s', '.title', '--tab', t)).toMatchObject({ value: 'Order 17' });
    expect(await ok('get', 'count', '-s', '.badge', '--tab', t)).toMatchObject({ value: 1 });
    expect(await ok('get', 'value', '-s', '.qty', '--tab', t)).toMatchObject({ value: '3' });
    expect(await ok('get', 'attr', 'title', '-s', '.badge', '--tab', t)).toMatchObject({ value: 'state' });
    const absent = await rig.relay.cli('wait', '--text', 'Delivered', '--tab', t, '--timeout', '300');
    expect(absent.error).toMatchObject({ code: 'timeout', details: { reason: 'condition_not_met' } });
  });

  it('click --triple sends a triple click (a whole paragraph selected)', async () => {
    const tab = await open(rig.relay, '/fidelity-readers.html');
    const snap = await snapshot(rig.relay, tab.tabId);
    const page = await rig.relay.page(tab.path);
    await ok('click', refFor(snap, /textbox "Draft"/), '--triple');
    expect(await read<number[]>(page, 'window.details')).toEqual([1, 2, 3]);
    expect(await read<string>(page, 'window.getSelection().toString().trim()')).toBe('The first sentence of a paragraph. The second sentence follows it.');
    const both = await rig.relay.cli('click', refFor(snap, /textbox "Draft"/), '--triple', '--double');
    // The error names a flag as typed, and its message both flags that give clickCount.
    expect(both.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'triple' } });
    expect(both.error?.message).toMatch(/--double and --triple both give clickCount/);
  });

  it('a ref hidden for a moment is stale_ref hidden (not unknown), and works again once shown', async () => {
    const tab = await open(rig.relay, '/fidelity-readers.html');
    const snap = await snapshot(rig.relay, tab.tabId);
    const page = await rig.relay.page(tab.path);
    const exportRef = refFor(snap, /button "Export"/);
    const toggle = refFor(snap, /button "Options"/);
    await ok('click', toggle);
    expect(await snapshot(rig.relay, tab.tabId)).not.toContain('Export');
    const hidden = await rig.relay.cli('click', exportRef);
    expect(hidden.error).toMatchObject({ code: 'stale_ref', details: { reason: 'hidden', ref: exportRef.slice(1) } });
    expect(hidden.error?.message).toMatch(/hidden right now/);
    await ok('click', toggle);
    await ok('click', exportRef);
    expect(await read<string>(page, 'window.chosen')).toBe('export');
    const unknown = await rig.relay.cli('click', '@e999999');
    expect(unknown.error).toMatchObject({ code: 'stale_ref', details: { reason: 'unknown_ref' } });
  });

  it('js, get and wait take --frame @ref for same-origin and cross-origin frames', async () => {
    const tab = await open(rig.relay, `/frame-parent.html?x=${encodeURIComponent(rig.crossServer.url('/frame-child.html'))}`);
    const page = await rig.relay.page(tab.path);
    const frameOf = (host: string) => (): Frame => {
      const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().startsWith(host));
      if (frame === undefined) throw new Error(`no frame on ${host}`);
      return frame;
    };
    const cross = frameOf(rig.crossServer.origin);
    await until(async () => {
      try {
        return (await cross().evaluate('document.readyState')) === 'complete' && (await frameOf(rig.relay.server.origin)().evaluate('document.readyState')) === 'complete';
      } catch {
        return false;
      }
    }, 10_000, 'frames loaded');
    const snap = await snapshot(rig.relay, tab.tabId);
    const same = refFor(snap, /iframe "Same origin frame" \[ref=/);
    const other = refFor(snap, /iframe "Cross origin frame" \[ref=/);
    expect(await ok('js', 'document.title + " " + typeof window.clicks', '--frame', same)).toMatchObject({ value: 'Frame child number' });
    expect(await ok('js', 'location.origin', '--frame', other)).toMatchObject({ value: rig.crossServer.origin });
    expect(await ok('get', 'text', '-s', '#out', '--frame', other)).toMatchObject({ value: 'Child clicked 0' });
    expect(await ok('get', 'url', '--frame', same)).toMatchObject({ value: expect.stringContaining('/frame-child.html') });
    await ok('click', refFor(snap, /button "Child button"/, 1));
    expect(await ok('wait', '--text', 'Child clicked 1', '--frame', other, '--timeout', '5000')).toMatchObject({ condition: 'text' });
    expect(await ok('js', 'window.clicks', '--frame', other)).toMatchObject({ value: 1 });
    expect(await cross().evaluate('window.clicks')).toBe(1);
    const notFrame = await rig.relay.cli('js', '1', '--frame', refFor(snap, /button "Parent button"/));
    expect(notFrame.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'frame' } });
    const tabWide = await rig.relay.cli('wait', '--networkidle', '--frame', same);
    expect(tabWide.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'frame' } });
  });
});
