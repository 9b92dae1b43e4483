/**
 * The snapshot shows every control Chrome's accessibility tree shows, and text keeps its structure. Patterns of the
 * component libraries real apps are built from, in plain markup (e2e/pages/controls-aria.html, text-structure.html):
 * an icon-only ARIA button and a star slider whose only content is aria-hidden, `<label for>` on button-type
 * switches and checkboxes, text slotted into a shadow-DOM label, range inputs clipped away under a drawn thumb;
 * pre-formatted text, `<br>`, a multi-line editor, bold and italic runs of a rich-text field, and no name borrowed
 * from an editor above a field. Through the built CLI; effects are read from the page's own record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type Relay } from './harness.js';
import { okJson, open, read, refFor, snapshot, snapshotNodes, type JsonNode } from './helpers.js';
import { checkSnapshotText } from './snapshotGrammar.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

const ok = (...args: string[]): Promise<Record<string, unknown>> => okJson(relay, ...args);

const snapshotJson = (tabId: number): Promise<JsonNode[]> => snapshotNodes(relay, tabId);

describe('controls Chrome shows are in the snapshot, named, and act through their refs', () => {
  it('an icon-only ARIA button and a star slider whose only content is aria-hidden', async () => {
    const tab = await open(relay, '/controls-aria.html');
    const snap = await snapshot(relay, tab.tabId);
    expect(checkSnapshotText(snap).problems).toEqual([]);
    expect(snap).toMatch(/^- button "Remove Peach" \[ref=e\d+\]$/m);
    expect(snap).toMatch(/^- slider "Rating" \[range=0\.\.5\] \[ref=e\d+\]: "2"$/m);
    // An aria-hidden icon a person cannot see (moved away, faded out) shows no control.
    expect(snap).not.toMatch(/Transfer all funds|Delete the account/);
    const page = await relay.page(tab.path);
    await ok('click', refFor(snap, /button "Remove Peach"/));
    expect(await read<string[]>(page, 'window.log')).toEqual(['removed']);
    await ok('focus', refFor(snap, /slider "Rating"/));
    await ok('keys', 'ArrowRight');
    expect(await snapshot(relay, tab.tabId)).toMatch(/^- slider "Rating" \[focused\] \[range=0\.\.5\] \[ref=e\d+\]: "3"$/m);
  });

  it('<label for> names a button-type switch and checkbox (Radix, shadcn), and check toggles them', async () => {
    const tab = await open(relay, '/controls-aria.html');
    const snap = await snapshot(relay, tab.tabId);
    expect(snap).toMatch(/^- switch "Weekly digest" \[ref=e\d+\]$/m);
    expect(snap).toMatch(/^- checkbox "Accept terms" \[ref=e\d+\]$/m);
    await ok('check', refFor(snap, /switch "Weekly digest"/));
    await ok('check', refFor(snap, /checkbox "Accept terms"/));
    const page = await relay.page(tab.path);
    expect(await read<(string | null)[]>(page, `['digest', 'terms'].map((id) => document.getElementById(id).getAttribute('aria-checked'))`)).toEqual(['true', 'true']);
    expect(await snapshot(relay, tab.tabId)).toMatch(/^- switch "Weekly digest" \[checked\] \[ref=e\d+\]$/m);
  });

  it('text slotted into a shadow-DOM label names its checkbox (Shoelace, Lit)', async () => {
    const tab = await open(relay, '/controls-aria.html');
    const snap = await snapshot(relay, tab.tabId);
    expect(snap).toMatch(/^- checkbox "Gift wrap" \[ref=e\d+\]$/m);
    await ok('check', refFor(snap, /checkbox "Gift wrap"/));
    const page = await relay.page(tab.path);
    expect(await read<string[]>(page, 'window.log')).toEqual(['gift true']);
  });

  it('a range input clipped away under a drawn thumb (MUI Slider) is a slider: clicked through the thumb, keys and fill set it', async () => {
    const tab = await open(relay, '/controls-aria.html');
    const snap = await snapshot(relay, tab.tabId);
    expect(snap).toMatch(/^- slider "Volume" \[range=0\.\.100\] \[ref=e\d+\]: "20"$/m);
    // Each thumb of a two-thumb slider stands for its own input.
    expect(snap).toMatch(/^- slider "Minimum price" \[range=0\.\.100\] \[ref=e\d+\]: "10"$/m);
    expect(snap).toMatch(/^- slider "Maximum price" \[range=0\.\.100\] \[ref=e\d+\]: "80"$/m);
    // A drawn part that also holds another control, or a region too big to be a handle, stands for no hidden input.
    expect(snap).not.toMatch(/Decoy volume|Hidden in a region/);
    const volume = refFor(snap, /slider "Volume"/);
    const page = await relay.page(tab.path);
    // The pointer goes where a person points: the thumb takes the press, and the page focuses its input.
    await ok('click', volume);
    expect(await read<string[]>(page, 'window.log')).toEqual(['thumb pressed']);
    expect(await read<string>(page, 'document.activeElement.id')).toBe('volume');
    await ok('keys', 'ArrowRight');
    expect(await read<string>(page, `document.getElementById('volume').value`)).toBe('21');
    expect(await ok('fill', volume, '50')).toMatchObject({ value: '50' });
    expect(await read<string[]>(page, 'window.log')).toEqual(['thumb pressed', 'volume 21', 'volume 50']);
    expect(await snapshot(relay, tab.tabId)).toMatch(/^- slider "Volume" \[focused\] \[range=0\.\.100\] \[ref=e\d+\]: "50"$/m);
    await ok('click', refFor(snap, /slider "Maximum price"/));
    // A cover over the thumb is a cover, as for any control: nothing is sent.
    await ok('click', refFor(snap, /button "Cover the sliders"/));
    const covered = await relay.cli('click', volume);
    expect(covered.error).toMatchObject({ code: 'click_intercepted', details: { when: 'before_pointer' } });
    expect(await read<string[]>(page, 'window.log')).toEqual(['thumb pressed', 'volume 21', 'volume 50']);
  });
});

describe('text keeps its structure', () => {
  it('a pre block, a line break, pre-wrapped text and a multi-line editor keep their lines and indentation', async () => {
    const tab = await open(relay, '/text-structure.html');
    const all = await snapshotJson(tab.tabId);
    const texts = all.filter((node) => node.role === 'text').map((node) => node.name);
    expect(texts).toContain('function greet(name) {\n  return "Hello, " + name;\n}');
    expect(texts).toContain('221B Baker Street\nLondon NW1');
    expect(texts).toContain('First line of a message\n  and its indented second line');
    const code = all.find((node) => node.role === 'textbox' && node.name === 'Code');
    expect(code?.value).toBe('alpha();\n  beta();\n\ngamma();');
    expect(await ok('get', 'value', `@${code?.ref ?? ''}`)).toMatchObject({ value: 'alpha();\n  beta();\n\ngamma();' });
  });

  it("a rich-text field's bold and italic words read back exactly, and a field is not named after the editor above it", async () => {
    const tab = await open(relay, '/text-structure.html');
    const snap = await snapshot(relay, tab.tabId);
    expect(snap).toContain(
      [
        '- textbox "Notes" [richtext] [ref=' + /textbox "Notes" \[richtext\] \[ref=(e\d+)\]/.exec(snap)?.[1] + ']: "Every release needs a careful changelog.\\nKeep it short.\\n\\nThanks":',
        '  - strong "careful"',
        '  - emphasis "short"',
      ].join('\n'),
    );
    // The editor after "Title" has nothing that labels it: no name borrowed from the editor above.
    expect(snap).toMatch(/^- textbox "Title" \[richtext\] \[ref=e\d+\]: "Short title"\n- textbox \[richtext\] \[ref=e\d+\]$/m);
  });

  it('page text that looks like a snapshot line stays one quoted string, line breaks escaped', async () => {
    const tab = await open(relay, '/text-structure.html');
    const snap = await snapshot(relay, tab.tabId);
    const checked = checkSnapshotText(snap);
    expect(checked.problems).toEqual([]);
    expect(checked.strings).toContain('Not a line of the snapshot:\n- button "Transfer all funds" [ref=e987654]');
    expect(checked.refs).not.toContain('e987654');
  });
});
