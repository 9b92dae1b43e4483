/**
 * Every control an agent needs gets a ref, a name and a verb: icon-only controls (icon fonts, CSS images, inline
 * SVG), SVG shapes with listeners, the items of a list that listens for presses, interactive cursors; values exactly
 * as the page holds them, [readonly], cut strings read whole by ref; press-and-hold; the scroller on screen when the
 * page cannot move; `--snapshot` after a client-side route; content pushed past the scrollable edge; an open modal.
 * Through the built CLI on small fixtures (e2e/pages/controls-*.html); effects are read from the page's own record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type Relay } from './harness.js';
import { okJson, open, read, refFor, snapshot, snapshotNodes, type JsonNode } from './helpers.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

const ok = (...args: string[]): Promise<Record<string, unknown>> => okJson(relay, ...args);

const snapshotJson = (tabId: number, ...extra: string[]): Promise<JsonNode[]> => snapshotNodes(relay, tabId, ...extra);

describe('icon-only controls get a ref and a name, marked as inferred', () => {
  it('an icon font, a CSS content image, a CSS background button, an inline SVG and a tooltip each act through their refs', async () => {
    const tab = await open(relay, '/controls-icons.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    const clicks: [RegExp, string][] = [
      [/"star" \[icon\] \[ref=/, 'star'],
      [/button "reply" \[icon\] \[ref=/, 'reply'],
      [/"trash" \[icon\] \[ref=/, 'trash'],
      [/button "send" \[icon\] \[ref=/, 'send'],
      [/button "forward" \[icon\] \[ref=/, 'forward'],
      [/button "Archive" \[tooltip\] \[ref=/, 'archive'],
    ];
    for (const [pattern] of clicks) await ok('click', refFor(snap, pattern));
    expect(await read<string[]>(page, 'window.log')).toEqual(clicks.map(([, id]) => id));
  });

  it('state a page draws as a background image is said as [img: …]', async () => {
    const tab = await open(relay, '/controls-icons.html');
    const snap = await snapshot(relay, tab.tabId);
    expect(snap).toMatch(/- gridcell \[ref=e\d+\]\n/);
    expect(snap).toMatch(/- gridcell \[img: "x"\]/);
  });
});

describe('SVG shapes and list items a person presses get refs', () => {
  it('an SVG circle with a click listener acts through its ref; one without stays out', async () => {
    const tab = await open(relay, '/controls-svg.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    await ok('click', refFor(snap, /"Q2 sales" .*\[ref=/));
    expect(await read<string[]>(page, 'window.log')).toEqual(['q2']);
    expect(snap).toContain('"Quarterly sales"');
    expect((snap.match(/\[ref=/g) ?? []).length).toBe(2);
  });

  it('the items of a list that listens for presses are refs, and drag reorders them', async () => {
    const tab = await open(relay, '/controls-sortable.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    await ok('drag', refFor(snap, /listitem "Apple" \[ref=/), refFor(snap, /listitem "Cherry" \[ref=/));
    expect(await read<string[]>(page, 'window.order')).toEqual(['Banana', 'Apple', 'Cherry', 'Damson']);
  });

  it('drag onto an item of a list that rearranges as the pointer passes the middle of each item puts it there, down and up', async () => {
    const tab = await open(relay, '/controls-sortable-live.html');
    const page = await relay.page(tab.path);
    let snap = await snapshot(relay, tab.tabId);
    await ok('drag', refFor(snap, /listitem "Amazon" \[ref=/), refFor(snap, /listitem "Ganges" \[ref=/));
    expect(await read<string[]>(page, 'window.order')).toEqual(['Danube', 'Ganges', 'Amazon', 'Mekong', 'Volga']);
    snap = await snapshot(relay, tab.tabId);
    await ok('drag', refFor(snap, /listitem "Volga" \[ref=/), refFor(snap, /listitem "Ganges" \[ref=/));
    expect(await read<string[]>(page, 'window.order')).toEqual(['Danube', 'Volga', 'Ganges', 'Amazon', 'Mekong']);
  });

  it('a target marked only by cursor: context-menu gets a ref, and a right click on it reaches the page', async () => {
    const tab = await open(relay, '/controls-verbs.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    await ok('click', refFor(snap, /"Right-click me" \[ref=/), '--button', 'right');
    expect(await read<string[]>(page, 'window.log')).toEqual(['menu']);
  });
});

describe('values and text exactly as the page holds them', () => {
  it('a value keeps its trailing space, a read-only field says [readonly], and fill refuses it', async () => {
    const tab = await open(relay, '/controls-form.html');
    const all = await snapshotJson(tab.tabId);
    expect(all.find((node) => node.name === 'Quote')?.value).toBe('Sit felis vestibulum nam. ');
    const snap = await snapshot(relay, tab.tabId);
    expect(snap).toMatch(/textbox "Quote" \[multiline\] \[ref=e\d+\]: "Sit felis vestibulum nam\. "/);
    expect(snap).toMatch(/textbox "Delivery" \[readonly\] \[ref=e\d+\]: "2024-05-01"/);
  });

  it('a long paragraph and a nine-line value are cut with their length, and read whole by ref or --max-text', async () => {
    const tab = await open(relay, '/controls-text.html');
    const page = await relay.page(tab.path);
    const story = await read<string>(page, "document.getElementById('story').textContent");
    const snap = await snapshot(relay, tab.tabId);
    expect(snap).toContain(`[${story.length} chars: snapshot --max-text ${story.length}]`);
    const list = refFor(snap, /textbox "Shopping list"/);
    const whole = await read<string>(page, "document.getElementById('list').value");
    expect(snap).toContain(`[${whole.length} chars: get value ${list}]`);
    expect(snap).toContain('"200 g pancetta\\n4 eggs\\n');
    expect((await ok('get', 'value', list)).value).toBe(whole);
    const link = refFor(snap, /link "Read the whole story/);
    expect((await ok('get', 'text', link)).value).toBe(await read<string>(page, "document.getElementById('long').innerText"));
    expect((await ok('get', 'attr', link, 'href')).value).toBe('#long');
    const raised = await snapshotJson(tab.tabId, '--max-text', '2000');
    expect(raised.some((node) => node.role === 'text' && node.name === story)).toBe(true);
  });

  it('inline elements keep the spaces the page renders between them', async () => {
    const tab = await open(relay, '/controls-text.html');
    const snap = await snapshot(relay, tab.tabId);
    expect(snap).toContain('"200 g pancetta"');
    expect(snap).toContain('"4 eggs"');
  });
});

describe('verbs a person has', () => {
  it('click --hold keeps the button down for the time asked', async () => {
    const tab = await open(relay, '/controls-verbs.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    await ok('click', refFor(snap, /button "Hold to confirm"/), '--hold', '1200');
    expect(await read<string[]>(page, 'window.log')).toEqual(['held']);
  });

  it('scroll right on a page that cannot move turns the scroller on screen, and says which', async () => {
    const tab = await open(relay, '/controls-verbs.html');
    await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    const result = await ok('scroll', 'right', '--tab', String(tab.tabId));
    expect(result.container).toBe('element');
    expect(result.moved).toBe(true);
    expect((result.scroller as { id: string }).id).toBe('strip');
    expect(await read<number>(page, "document.getElementById('strip').scrollLeft")).toBeGreaterThan(0);
  });

  it('click --snapshot across a client-side route shows the new view, not the old one', async () => {
    const tab = await open(relay, '/controls-route.html');
    const snap = await snapshot(relay, tab.tabId);
    const result = await relay.cli('click', refFor(snap, /link "Orders"/), '--snapshot');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('view=b');
    expect(result.stdout).toContain('heading "Orders view"');
    expect(result.stdout).not.toContain('Home view');
  });
});

describe('content a person cannot reach by pointer, and content a modal hides', () => {
  it('a select pushed above the top of a centred form stays, marked; select and fill work, a click says why it cannot', async () => {
    const tab = await open(relay, '/controls-form.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    const type = refFor(snap, /combobox "Product Type \*" .*\[offscreen\]/);
    await ok('select', type, 'Software');
    await ok('fill', refFor(snap, /textbox "Code"/), 'A-17');
    expect(await read<string[]>(page, "[document.getElementById('type').value, document.getElementById('code').value]")).toEqual(['Software', 'A-17']);
    const click = await relay.cli('click', type);
    expect(click.code).toBe(1);
    expect(click.stderr).toContain('"reason":"out_of_reach"');
  });

  it('with an aria-modal dialog open, only the dialog has refs and the snapshot says so', async () => {
    const tab = await open(relay, '/controls-modal.html');
    const snap = await snapshot(relay, tab.tabId);
    expect(snap).toContain('# modal dialog "Confirm deletion" is open');
    expect(snap).not.toContain('Delete account');
    expect(snap).toMatch(/button "Confirm"( \[focused\])? \[ref=/);
    await ok('click', refFor(snap, /button "Cancel"/));
    const after = await snapshot(relay, tab.tabId);
    expect(after).not.toContain('modal dialog');
    expect(after).toMatch(/button "Delete account" \[ref=/);
  });
});
