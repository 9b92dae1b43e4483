/**
 * The controls and text of real component libraries (e2e/libs/*.tsx, bundled from the npm packages) as Chrome's
 * tree shows them: react-select's icon-only chip remove buttons, Radix Switch/Checkbox named by `<label for>` and
 * Radix Slider, Shoelace's slotted checkbox label and star rating, MUI Slider's clipped range inputs, TipTap's bold
 * and italic runs, CodeMirror's lines and the <pre> above it. Through the built CLI; what the widgets did is read from
 * the page's own record (`window.record`).
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, until, type Relay } from './harness.js';
import { okJson, open, read, refFor, snapshot, type JsonNode, type Opened } from './helpers.js';
import { checkSnapshotText } from './snapshotGrammar.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

const ok = (...args: string[]): Promise<Record<string, unknown>> => okJson(relay, ...args);

/** Open a library page and wait, as an agent would, until it has drawn `ready`. */
async function openLibrary(name: string, ready: string): Promise<Opened & { page: Page }> {
  const tab = await open(relay, `/libs/${name}.html`);
  await ok('wait', '--tab', String(tab.tabId), '--selector', ready);
  return { ...tab, page: await relay.page(tab.path) };
}

function byRef(tree: readonly JsonNode[], ref: string): JsonNode | undefined {
  for (const node of tree) {
    const found = node.ref === ref ? node : byRef(node.children ?? [], ref);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The page's own record of what its widgets did. */
const recorded = (page: Page): Promise<Record<string, unknown>> => read<Record<string, unknown>>(page, 'window.record');

describe('library controls Chrome shows are in the snapshot, named, and act through their refs', () => {
  it("react-select: a chip's remove button, an aria-hidden SVG and nothing else, is a named button", async () => {
    const tab = await openLibrary('react-select-chips', '[aria-label="Remove Peach"] svg');
    const snap = await snapshot(relay, tab.tabId);
    expect(checkSnapshotText(snap).problems).toEqual([]);
    expect(snap).toMatch(/^- button "Remove Peach" \[ref=e\d+\]$/m);
    expect(snap).toMatch(/^- button "Remove Rum raisin" \[ref=e\d+\]$/m);
    await ok('click', refFor(snap, /button "Remove Peach"/));
    expect(await recorded(tab.page)).toEqual({ value: ['rum raisin'] });
    expect(await snapshot(relay, tab.tabId)).not.toMatch(/Peach/);
  });

  it('Radix: Switch and Checkbox named by <label for>, Slider with its range; check and keys act on them', async () => {
    const tab = await openLibrary('radix-form', '[role=slider]');
    const snap = await snapshot(relay, tab.tabId);
    expect(snap).toMatch(/^- switch "Weekly digest" \[ref=e\d+\]$/m);
    expect(snap).toMatch(/^- checkbox "Accept terms" \[ref=e\d+\]$/m);
    expect(snap).toMatch(/^- slider "Volume" \[range=0\.\.100\] \[ref=e\d+\]: "30"$/m);
    await ok('check', refFor(snap, /switch "Weekly digest"/));
    await ok('check', refFor(snap, /checkbox "Accept terms"/));
    await ok('focus', refFor(snap, /slider "Volume"/));
    await ok('keys', 'ArrowRight');
    expect(await recorded(tab.page)).toEqual({ digest: true, terms: true, volume: 31 });
  });

  it("Shoelace: the checkbox named by text slotted into its shadow label, the star rating as a slider", async () => {
    const tab = await openLibrary('shoelace', 'svg[part="svg"]');
    const snap = await snapshot(relay, tab.tabId);
    // One ref each: the pointer-cursor <label> in the shadow root around the input is the control to a person.
    expect(snap).toMatch(/^- checkbox "Gift wrap" \[ref=e\d+\]$/m);
    expect(snap).toMatch(/^- switch "Dark mode" \[ref=e\d+\]$/m);
    expect(snap).not.toMatch(/generic "(Gift wrap|Dark mode)"/);
    expect(snap).toMatch(/^- slider "Rate the shop" \[range=0\.\.5\] \[ref=e\d+\]: "2"$/m);
    await ok('check', refFor(snap, /checkbox "Gift wrap"/));
    await ok('focus', refFor(snap, /slider "Rate the shop"/));
    await ok('keys', 'ArrowRight', 'ArrowRight');
    expect(await recorded(tab.page)).toEqual({ gift: true, rating: 4 });
    expect(await snapshot(relay, tab.tabId)).toMatch(/^- slider "Rate the shop" \[focused\] \[range=0\.\.5\] \[ref=e\d+\]: "4"$/m);
  });

  it("MUI Slider: each thumb's clipped range input is a slider, set through its ref by keys, fill and drag", async () => {
    const tab = await openLibrary('mui-slider', '.MuiSlider-thumb');
    const snap = await snapshot(relay, tab.tabId);
    expect(snap).toMatch(/^ {2}- slider "Volume" \[range=0\.\.100\] \[ref=e\d+\]: "20"$/m);
    expect(snap).toMatch(/^ {2}- slider "Minimum price" \[range=0\.\.100\] \[ref=e\d+\]: "20"$/m);
    expect(snap).toMatch(/^ {2}- slider "Maximum price" \[range=0\.\.100\] \[ref=e\d+\]: "80"$/m);
    const volume = refFor(snap, /slider "Volume"/);
    await ok('focus', volume);
    await ok('keys', 'ArrowRight');
    expect(await recorded(tab.page)).toEqual({ volume: 21 });
    await ok('fill', volume, '50');
    expect(await recorded(tab.page)).toEqual({ volume: 50 });
    // The pointer takes the thumb a person sees, and drags it.
    const track = await read<{ left: number; top: number; width: number; height: number }>(tab.page, `(() => { const r = document.querySelectorAll('.MuiSlider-root')[1].getBoundingClientRect(); return { left: r.left, top: r.top, width: r.width, height: r.height }; })()`);
    await ok('drag', refFor(snap, /slider "Maximum price"/), '--to-x', String(Math.round(track.left + track.width / 2)), '--to-y', String(Math.round(track.top + track.height / 2)));
    const price = (await recorded(tab.page)).price as number[];
    expect(price[0]).toBe(20);
    expect(price[1]).toBeGreaterThan(40);
    expect(price[1]).toBeLessThan(60);
  });
});

describe('a <label> made to look clickable around its own control', () => {
  it('is folded into the control: one ref, named by the label, that acts; a label around more to act on, or labelling another control, keeps its own', async () => {
    const tab = await open(relay, '/label-wrap.html');
    const page = await relay.page(tab.path);
    const snap = await snapshot(relay, tab.tabId);
    expect(checkSnapshotText(snap).problems).toEqual([]);
    for (const control of ['checkbox "Newsletter"', 'radio "Pro plan"', 'checkbox "Styled box"']) expect(snap).toMatch(new RegExp(`^- ${control} \\[ref=e\\d+\\]$`, 'm'));
    expect(snap).not.toMatch(/generic "(Newsletter|Pro plan|Styled box)"/);
    expect(snap).toMatch(/^- generic "I accept the terms" \[ref=e\d+\]:\n {2}- checkbox "I accept the terms" \[ref=e\d+\]\n {2}- link "terms"/m);
    expect(snap).toMatch(/^- generic "Points elsewhere" \[ref=e\d+\]:/m);
    await ok('check', refFor(snap, /checkbox "Newsletter"/));
    await ok('click', refFor(snap, /radio "Pro plan"/));
    await ok('check', refFor(snap, /checkbox "Styled box"/));
    expect(await read(page, 'window.record')).toEqual({ news: true, pro: true, styled: true });
  });
});

describe('library text keeps its structure', () => {
  it("TipTap: a bold word typed and made bold with the toolbar reads back exactly, and the editor below borrows no name", async () => {
    const tab = await openLibrary('tiptap', '.ProseMirror');
    const snap = await snapshot(relay, tab.tabId);
    const notes = refFor(snap, /textbox "Notes"/);
    expect(snap).toContain(`- textbox "Notes" [richtext] [ref=${notes.slice(1)}]: "Every release needs a careful changelog.\\nKeep it short.":\n  - strong "careful"\n  - emphasis "short"\n- textbox [richtext] [ref=`);
    await ok('click', notes);
    await ok('keys', 'Control+End');
    await ok('type', ' Ship it');
    // ProseMirror reads typed text back from the DOM a moment later: look again before selecting in it, as an agent would.
    await until(async () => String((await recorded(tab.page)).notes ?? '').includes('Ship it'), 5000, 'the typed text in the editor');
    await ok('keys', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'Shift+ArrowLeft', 'Shift+ArrowLeft', 'Shift+ArrowLeft', 'Shift+ArrowLeft');
    await ok('click', refFor(snap, /button "Bold"/));
    expect(await recorded(tab.page)).toMatchObject({ notes: '<p>Every release needs a <strong>careful</strong> changelog.</p><p>Keep it <em>short</em>. <strong>Ship</strong> it</p>' });
    const after = await snapshot(relay, tab.tabId);
    expect(after).toContain(`: "Every release needs a careful changelog.\\nKeep it short. Ship it":\n  - strong "careful"\n  - emphasis "short"\n  - strong "Ship"\n`);
    expect(checkSnapshotText(after).problems).toEqual([]);
  });

  it('CodeMirror: the <pre> block and the editor keep their lines and indentation; code filled in reads back exactly', async () => {
    const tab = await openLibrary('codemirror', '.cm-line');
    const snap = await snapshot(relay, tab.tabId);
    const target = 'const names = users.map((u) => u.name);\n  console.log(names.join(", "));';
    expect(snap).toContain(`- ${JSON.stringify(target)}\n`);
    const editor = refFor(snap, /textbox "Code editor"/);
    expect(snap).toContain(`- textbox "Code editor" [multiline] [ref=${editor.slice(1)}]: ${JSON.stringify('function greet(name) {\n  return "Hello, " + name;\n}\n\nexport default greet;\n')}`);
    // The answer holds the code as the editor holds it, lines and indentation kept.
    expect(await ok('fill', editor, target)).toMatchObject({ value: target });
    expect(await recorded(tab.page)).toEqual({ doc: target });
    const tree = (await ok('snapshot', '--tab', String(tab.tabId), '--json')).tree as JsonNode[];
    expect(byRef(tree, editor.slice(1))?.value).toBe(target);
  });
});

describe('fill on a rich-text field reads it back as the snapshot and `get value` do, line for line', () => {
  it('TipTap: two paragraphs filled in are two paragraphs, and the answer, `get value` and the snapshot say so', async () => {
    const tab = await openLibrary('tiptap', '.ProseMirror');
    const notes = refFor(await snapshot(relay, tab.tabId), /textbox "Notes"/);
    const text = 'Ship the release today.\nTell the support team.';
    expect(await ok('fill', notes, text)).toMatchObject({ value: text });
    expect(await recorded(tab.page)).toMatchObject({ notes: '<p>Ship the release today.</p><p>Tell the support team.</p>' });
    expect(await ok('get', 'value', notes)).toMatchObject({ value: text });
    expect(await snapshot(relay, tab.tabId)).toContain(`- textbox "Notes" [richtext] [focused] [ref=${notes.slice(1)}]: ${JSON.stringify(text)}\n`);
  });

  it('an editor that joins the lines into one is partial_success_disallowed, saying what it holds; a plain contenteditable holds its lines', async () => {
    // A beforeinput-driven editor whose model keeps the line break as a character it renders as a space.
    const joined = await open(relay, '/editor.html');
    const page = await relay.page(joined.path);
    const result = await relay.cli('fill', refFor(await snapshot(relay, joined.tabId), /textbox "Editor"/), 'line one\nline two');
    expect(result.code, result.stdout).toBe(1);
    expect(result.error).toMatchObject({ code: 'partial_success_disallowed', details: { expected: 'line one\nline two', actual: 'line one line two' } });
    expect(await read(page, 'window.model')).toBe('line one\nline two');
    const form = await open(relay, '/form.html');
    const editor = refFor(await snapshot(relay, form.tabId), /textbox "Editor"/);
    expect(await ok('fill', editor, 'line one\nline two')).toMatchObject({ value: 'line one\nline two' });
  });
});

