/**
 * Widgets from the libraries apps are built from act on the press: Radix Select and DropdownMenu open on pointerdown,
 * MUI Select and react-select on mousedown, and draw their popup over the point; Headless UI and Radix choose an
 * option on the press and unmount it. The release then goes to something else. Such a click did its job, once: exit
 * 0, saying what the press did (`acted`) — and the agent's retry never closes what it opened. A press that did not
 * visibly act stays click_intercepted, and whatever took the release never hears of it (e2e/pages/delivery-press.html).
 * Pages built from the real libraries: e2e/libs/.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, until, type CliResult, type Relay } from './harness.js';
import { open, read, refFor, snapshot } from './helpers.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay.stop();
});

interface Acted {
  what: string;
  popup?: { role: string; name?: string };
  releaseHeld?: true;
  summary: string;
}

async function widget(name: string): Promise<{ tabId: number; page: Page; text: () => Promise<string> }> {
  const tab = await open(relay, `/libs/${name}.html`);
  const page = await relay.page(tab.path);
  // The library renders after its bundle runs: wait for the first control.
  const text = (): Promise<string> => snapshot(relay, tab.tabId);
  await until(async () => /\[ref=e\d+\]/.test(await text()), 10_000, `${name} rendered`);
  return { tabId: tab.tabId, page, text };
}

async function click(tabId: number, ref: string): Promise<{ result: CliResult; acted: Acted | undefined }> {
  const result = await relay.cli('click', ref, '--tab', String(tabId), '--json');
  expect(result.code, `click ${ref}\n${result.stderr}`).toBe(0);
  return { result, acted: (result.json as { acted?: Acted }).acted };
}

/** Open the widget with ONE click and choose `option` with one more; the page's own record after each. */
async function openAndChoose(name: string, control: RegExp, option: RegExp, popupRole: string): Promise<{ opened: Acted | undefined; chosen: Acted | undefined; page: Page }> {
  const { tabId, page, text } = await widget(name);
  const { acted: opened } = await click(tabId, refFor(await text(), control));
  expect(await read(page, 'window.record.opened'), 'the popup opened').toBe(true);
  expect(opened, 'the answer says the press opened the popup').toMatchObject({ what: 'opened', popup: { role: popupRole } });
  // Its options, as the next snapshot shows them (a popup may still be fading in).
  const listed = await until(async () => {
    const now = await text();
    return option.test(now) ? now : undefined;
  }, 10_000, `${name}: the options in a snapshot`);
  const { acted: chosen } = await click(tabId, refFor(listed, option));
  return { opened, chosen, page };
}

describe('widgets that act on the press: one click, exit 0, and the answer says what it did', () => {
  it('Radix Select (opens on pointerdown, chooses on pointerup): opened: listbox, then an option scrolled into the list is selected', async () => {
    // The option lies below the list's viewport: scrolled to, the list shows its scroll-up button a frame later.
    const { opened, chosen, page } = await openAndChoose('radix-select', /combobox "Time zone"/, /option "New Zealand Time"/, 'listbox');
    // Radix draws the list over the trigger: the release went to it and was held back.
    expect(opened?.releaseHeld).toBe(true);
    expect(opened?.summary).toBe('opened: listbox');
    // The option took the pointerup and left with its list: the rest of that release goes to what held it, not held back.
    expect(chosen).toEqual({ what: 'selected', summary: 'selected' });
    expect(await read(page, 'window.record')).toEqual({ value: 'New Zealand Time', opened: false });
  });

  it('Radix DropdownMenu (opens on pointerdown): opened: menu, and an item is chosen exactly once', async () => {
    const { opened, chosen, page } = await openAndChoose('radix-menu', /button "File actions"/, /menuitem "Archive"/, 'menu');
    expect(opened).toMatchObject({ popup: { role: 'menu', name: 'File actions' }, releaseHeld: true, summary: 'opened: menu "File actions"' });
    expect(chosen?.what).toBe('chosen');
    expect(await read(page, 'window.record')).toEqual({ chosen: ['Archive'], opened: false });
  });

  it('react-select (opens on mousedown; its value is drawn beside the input): opened: listbox, then the option is the value, selected', async () => {
    const { chosen, page } = await openAndChoose('react-select', /combobox "Flavour"/, /option "Vanilla"/, 'listbox');
    expect(chosen).toEqual({ what: 'selected', summary: 'selected' });
    expect(await read(page, 'window.record')).toEqual({ value: 'vanilla', opened: false });
  });

  it('Headless UI Combobox (its button opens the options; an option is chosen on the press): selected, exit 0', async () => {
    const { chosen, page } = await openAndChoose('headless-combobox', /button "Show people"/, /option "Tom Cook"/, 'listbox');
    expect(chosen).toMatchObject({ what: 'selected', releaseHeld: true });
    expect(await read(page, 'window.record')).toEqual({ value: 'Tom Cook', opened: false });
  });

  it('MUI Select (opens on mousedown under a backdrop that takes the release): opened: listbox "Size", then the option is the value', async () => {
    const { opened, page } = await openAndChoose('mui-select', /combobox "Size"/, /option "Large"/, 'listbox');
    expect(opened).toMatchObject({ popup: { role: 'listbox', name: 'Size' }, releaseHeld: true });
    expect(await read(page, 'window.record')).toEqual({ value: 'Large', opened: false });
  });
});

describe('a press that did not visibly act is not a success', () => {
  async function refused(tabId: number, ref: string): Promise<CliResult> {
    const result = await relay.cli('click', ref, '--tab', String(tabId));
    expect(result.code, result.stdout).toBe(1);
    expect(result.error?.code, result.stderr).toBe('click_intercepted');
    return result;
  }

  it('a dialog of no relation to the button, shown and focused on its press, is click_intercepted; the dialog hears nothing', async () => {
    const tab = await open(relay, '/delivery-press.html');
    const page = await relay.page(tab.path);
    const result = await refused(tab.tabId, refFor(await snapshot(relay, tab.tabId), /button "Pay now"/));
    expect(result.error?.details.when).toBe('on_press');
    expect(result.error?.message).toMatch(/dialog "Special offer"/);
    expect(await read(page, 'window.record')).toMatchObject({ trapClicks: 0, dialog: [] });
  });

  it('a list that closes when its option is pressed, choosing nothing, is not "selected": click_intercepted', async () => {
    const tab = await open(relay, '/delivery-press.html');
    const page = await relay.page(tab.path);
    // Its button opens the list on the press (a layer over the page that takes the release): that did act.
    const opened = await click(tab.tabId, refFor(await snapshot(relay, tab.tabId), /button "Fruit: none"/));
    expect(opened.acted).toMatchObject({ what: 'opened', popup: { role: 'listbox' }, releaseHeld: true });
    await refused(tab.tabId, refFor(await snapshot(relay, tab.tabId), /option "Apple"/));
    expect(await read(page, 'window.record')).toMatchObject({ fruit: 'none', options: [] });
    // A combobox whose field beside its input changed as the list closed, but does not show the option: nothing chosen.
    await refused(tab.tabId, refFor(await snapshot(relay, tab.tabId), /option "Red"/));
    expect(await read(page, 'window.record.colour')).toBeUndefined();
  });

  it('names what covered the target by role and short name: never a style sheet, never the text of a container holding it', async () => {
    const tab = await open(relay, '/delivery-press.html');
    const page = await relay.page(tab.path);
    const text = await snapshot(relay, tab.tabId);
    const veiled = await refused(tab.tabId, refFor(text, /button "Veiled"/));
    expect(veiled.error?.message).toMatch(/<div id="veil"> "Limited offer, today only" \(@e\d+\)/);
    expect((await relay.cli('js', 'reset()', '--tab', String(tab.tabId))).code).toBe(0);
    const through = await refused(tab.tabId, refFor(text, /button "Through"/));
    expect(through.error?.message).toMatch(/<section id="panel"> \(@e\d+\)/);
    for (const result of [veiled, through]) {
      expect(result.stderr).not.toMatch(/color:|veil-note|9876-SECRET/);
    }
    expect(await read(page, 'window.record')).toMatchObject({ veil: [], through: 0, panel: [] });
  });
});

describe('pointer capture: the page choosing who hears the release of a press its control took', () => {
  it("a track that captures the pointer when its handle is pressed takes the release: exit 0; a decoy handed the capture is click_intercepted and hears nothing", async () => {
    const tab = await open(relay, '/delivery-capture.html');
    const page = await relay.page(tab.path);
    const text = await snapshot(relay, tab.tabId);
    await click(tab.tabId, refFor(text, /button "Handle"/));
    const own = await read<Record<string, string[]>>(page, 'window.record');
    expect(own.handle?.slice(0, 1), 'the press reached the handle').toEqual(['pointerdown']);
    expect(own.own, 'the track it captured to heard the release').toEqual(expect.arrayContaining(['pointerup', 'click']));
    const stolen = await relay.cli('click', refFor(text, /button "Stolen"/), '--tab', String(tab.tabId));
    expect(stolen.code, stolen.stdout).toBe(1);
    expect(stolen.error?.code, stolen.stderr).toBe('click_intercepted');
    expect(stolen.error?.details.when).toBe('on_press');
    expect(stolen.error?.message).toMatch(/<div id="decoy">/);
    expect(await read(page, 'window.record.decoy'), 'the decoy heard nothing of the release').toEqual([]);
  });

  it("MUI Slider: a click on a thumb's slider ref (MUI captures the pointer to the slider's root) exits 0 and leaves no drag running; a click on its rail sets the value", async () => {
    const { tabId, page, text } = await widget('mui-slider');
    const snap = await text();
    await click(tabId, refFor(snap, /slider "Volume"/));
    expect(await read(page, 'window.record.volume'), 'pressed where the thumb is: the value stays').toBe(20);
    // Had the release been held back, MUI would still be dragging: the pointer moving to the other slider would move this one.
    await click(tabId, refFor(snap, /slider "Maximum price"/));
    expect(await read(page, 'window.record.volume')).toBe(20);
    const rail = await read<{ x: number; y: number }>(page, `(() => { const r = document.querySelector('.MuiSlider-root').getBoundingClientRect(); return { x: Math.round(r.left + r.width * 0.75), y: Math.round(r.top + r.height / 2) }; })()`);
    const atRail = await relay.cli('click', '--x', String(rail.x), '--y', String(rail.y), '--tab', String(tabId));
    expect(atRail.code, atRail.stderr).toBe(0);
    const volume = await read<number>(page, 'window.record.volume');
    expect(volume).toBeGreaterThan(65);
    expect(volume).toBeLessThan(85);
  });

  it('the other kits that capture the pointer or follow it from the window take a click on their controls: Radix Slider, Shoelace range, react-aria slider (its input clipped by a wrapper: a slider in the snapshot now), a dnd-kit sortable item', async () => {
    const radix = await widget('radix-form');
    await click(radix.tabId, refFor(await radix.text(), /slider "Volume"/));
    expect(await read(radix.page, 'window.record.volume') ?? 30, 'Radix: pressed where the thumb is').toBe(30);
    // A native range in a shadow root: the browser moves its thumb to where it is pressed, its middle.
    const shoelace = await widget('shoelace');
    await click(shoelace.tabId, refFor(await shoelace.text(), /slider "Volume"/));
    expect(await read(shoelace.page, 'window.record.volume')).toBe(50);
    // react-aria: the input is clipped by a VisuallyHidden wrapper inside the thumb, which is where the pointer goes.
    const aria = await widget('react-aria-slider');
    await click(aria.tabId, refFor(await aria.text(), /slider "Brightness" \[range=0\.\.100\] \[ref=e\d+\]: "40"/));
    expect(await read(aria.page, 'window.record.brightness')).toBe(40);
    // dnd-kit follows the pointer from the document and starts a drag only once it moved: a click is a click.
    const dnd = await widget('dnd-kit');
    await click(dnd.tabId, refFor(await dnd.text(), /button "Banana"/));
    expect(await read(dnd.page, 'window.record')).toEqual({ order: ['Apple', 'Banana', 'Cherry'], clicked: 'Banana' });
  });

  it('a sortable list moves the target item aside to make room for the item dragged onto it, and the release lands on the list: the drop is made, exit 0 (dnd-kit too); a target moved aside where what takes the release was put there, or to which nothing dragged came, is click_intercepted and nothing there hears it', async () => {
    const room = await open(relay, '/delivery-room.html');
    const roomPage = await relay.page(room.path);
    const list = await snapshot(relay, room.tabId);
    const sorted = await relay.cli('drag', refFor(list, /button "Apple"/), refFor(list, /button "Cherry"/), '--tab', String(room.tabId));
    expect(sorted.code, sorted.stderr).toBe(0);
    expect(await read(roomPage, 'window.record')).toEqual({ order: ['Banana', 'Cherry', 'Apple'], releases: ['list'], sheet: [] });
    const dnd = await widget('dnd-kit');
    const items = await dnd.text();
    const dragged = await relay.cli('drag', refFor(items, /button "Apple"/), refFor(items, /button "Cherry"/), '--tab', String(dnd.tabId));
    expect(dragged.code, dragged.stderr).toBe(0);
    expect(await read(dnd.page, 'window.record.order')).toEqual(['Banana', 'Cherry', 'Apple']);
    // The traps: each drag must be refused at the drop, and the page's record read after it.
    const refusedDrop = async (path: string, trap?: string): Promise<Page> => {
      const tab = await open(relay, path);
      const page = await relay.page(tab.path);
      if (trap !== undefined) expect((await relay.cli('js', `reset('${trap}')`, '--tab', String(tab.tabId))).code).toBe(0);
      const snap = await snapshot(relay, tab.tabId);
      const [source, target] = path.startsWith('/delivery-room') ? [/button "Apple"/, /button "Cherry"/] : [/button "Handle"/, /button "Drop zone"/];
      const result = await relay.cli('drag', refFor(snap, source), refFor(snap, target), '--tab', String(tab.tabId));
      expect(result.code, result.stdout).toBe(1);
      expect(result.error).toMatchObject({ code: 'click_intercepted', details: { when: 'on_drop' } });
      return page;
    };
    // The item dragged follows the pointer and the target moves aside, but into a sheet laid over the page: the sheet
    // holds the target now, yet it did not hold it when the drag began.
    const wrapped = await refusedDrop('/delivery-room.html?trap=wrap');
    expect(await read(wrapped, 'window.record')).toEqual({ order: ['Apple', 'Banana', 'Cherry'], releases: [], sheet: [] });
    // The zone jumps aside and a decoy takes its place.
    const aside = await refusedDrop('/delivery-drop.html', 'aside');
    expect(await read(aside, 'window.record')).toEqual({ drops: [], releases: [], decoy: [] });
    // The zone jumps aside and the release lands on the page that holds it: the zone's own pointerup never runs, and
    // the handle dragged never left its place.
    const away = await refusedDrop('/delivery-drop.html', 'away');
    expect(await read(away, 'window.record')).toEqual({ drops: [], releases: [], decoy: [] });
  });
});

describe('an element that leaves on its own release: the click landed', () => {
  it('removed or hidden by its pointerup, mouseup or click handler, the rest of the click going to what held it: exit 0; replaced by a decoy, the decoy hears nothing; a Shoelace option selected', async () => {
    for (const [name, id, heard] of [
      ['Removed on pointerup', 'removed-on-pointerup', 'pointerup'],
      ['Removed on mouseup', 'removed-on-mouseup', 'mouseup'],
      ['Hidden on mouseup', 'hidden-on-mouseup', 'mouseup'],
      ['List hidden on mouseup', 'list-hidden-on-mouseup', 'mouseup'],
      ['Removed on click', 'removed-on-click', 'click'],
      ['Replaced on pointerup', 'replaced-on-pointerup', 'pointerup'],
    ] as const) {
      const tab = await open(relay, '/delivery-leave.html');
      const page = await relay.page(tab.path);
      await click(tab.tabId, refFor(await snapshot(relay, tab.tabId), new RegExp(`generic "${name}"`)));
      expect(await read(page, `window.record[${JSON.stringify(id)}]`), name).toBe(heard);
      expect(await read(page, 'window.record.decoy'), name).toEqual([]);
    }
    // A library's: Shoelace's select chooses the option on mouseup, then hides its list behind a 100 ms animation.
    const { tabId, page, text } = await widget('shoelace');
    await click(tabId, refFor(await text(), /combobox "Shipping"/));
    const listed = await until(async () => {
      const now = await text();
      return /option "Express"/.test(now) ? now : undefined;
    }, 10_000, 'the options in a snapshot');
    const { acted } = await click(tabId, refFor(listed, /option "Express"/));
    expect(acted).toMatchObject({ what: 'selected' });
    expect(await read(page, 'window.record.shipping')).toBe('express');
    await until(async () => !/option "Express"/.test(await text()), 10_000, 'the list closed');
    expect(await text()).toMatch(/combobox "Shipping" .*: "Express"/);
  });
});

