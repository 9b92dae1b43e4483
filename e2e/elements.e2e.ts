/**
 * Element-addressed actions through the built CLI. Every assertion reads the
 * page's own state (what its listeners recorded), never chrome-relay's claim alone.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

async function ok(...args: string[]): Promise<Record<string, unknown>> {
  const result = await relay.cli(...args);
  expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(0);
  return result.json as Record<string, unknown>;
}

describe('fill', () => {
  it('fills a React-tracked input (the tracker sees the change), a textarea and a contenteditable', async () => {
    const tab = await open(relay, '/form.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    expect(await ok('fill', refFor(snap, /textbox "Name"/), 'Ada Lovelace')).toMatchObject({ value: 'Ada Lovelace' });
    expect(await read<string[]>(page, 'window.reactChanges')).toEqual(['Ada Lovelace']);
    expect(await read<string>(page, "document.getElementById('react').value")).toBe('Ada Lovelace');
    await ok('fill', refFor(snap, /textbox "Bio"/), 'line one\nline two');
    expect(await read<string>(page, "document.getElementById('bio').value")).toBe('line one\nline two');
    await ok('fill', refFor(snap, /textbox "Editor"/), 'rich text');
    expect(await read<string>(page, "document.getElementById('editor').innerText.trim()")).toBe('rich text');
    expect(await read<string[]>(page, 'window.events')).toEqual(expect.arrayContaining(['bio:input', 'editor:input']));
    await ok('fill', refFor(snap, /textbox "Name"/), '');
    expect(await read<string>(page, "document.getElementById('react').value")).toBe('');
    expect(await read<string[]>(page, 'window.reactChanges')).toEqual(['Ada Lovelace', '']);
  });

  it('fills a <select> by visible text and a date input, firing input and change', async () => {
    const tab = await open(relay, '/form.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    expect(await ok('fill', refFor(snap, /combobox "Country"/), 'Germany')).toMatchObject({ value: 'de' });
    await ok('fill', refFor(snap, /"Due"/), '2024-05-31');
    expect(await read<string>(page, "document.getElementById('country').value")).toBe('de');
    expect(await read<string>(page, "document.getElementById('due').value")).toBe('2024-05-31');
    expect(await read<string[]>(page, 'window.events')).toEqual(['country:input', 'country:change', 'due:input', 'due:change']);
  });

  it('refuses what it cannot fill exactly: a checkbox, an unknown option, a value the field truncates', async () => {
    const tab = await open(relay, '/form.html');
    const snap = await snapshot(relay, tab.tabId);
    const checkbox = await relay.cli('fill', refFor(snap, /checkbox "Agree"/), 'x');
    expect(checkbox.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'ref' } });
    expect(checkbox.error?.message).toMatch(/check/);
    const option = await relay.cli('fill', refFor(snap, /combobox "Country"/), 'Atlantis');
    expect(option.error?.code).toBe('invalid_arguments');
    expect(option.error?.message).toMatch(/Germany/);
    const short = await relay.cli('fill', refFor(snap, /textbox "Short"/), 'abcdef');
    expect(short.error?.code).toBe('partial_success_disallowed');
    expect(short.error?.details).toMatchObject({ expected: 'abcdef', actual: 'abc' });
  });

  it('fills a covered input (no hit-test: a modal over a field does not stop fill)', async () => {
    const tab = await open(relay, '/overlay.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    await page.evaluate('showModal()');
    await ok('fill', refFor(snap, /textbox "Covered input"/), 'under the modal');
    expect(await read<string>(page, "document.getElementById('covered-input').value")).toBe('under the modal');
  });
});

describe('select, check, focus, hover', () => {
  it('selects several options of a <select multiple>, all or nothing', async () => {
    const tab = await open(relay, '/form.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    const colors = refFor(snap, /listbox "Colors"/);
    expect(await ok('select', colors, 'red', 'blue')).toMatchObject({ selected: ['red', 'blue'] });
    const bad = await relay.cli('select', colors, 'green', 'purple');
    expect(bad.error?.code).toBe('invalid_arguments');
    expect(await read<string[]>(page, "[...document.getElementById('colors').selectedOptions].map(o => o.value)")).toEqual(['red', 'blue']);
  });

  it('check/uncheck click only when needed and verify; a click the page refuses is not success', async () => {
    const tab = await open(relay, '/form.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    const agree = refFor(snap, /checkbox "Agree"/);
    expect(await ok('check', agree)).toMatchObject({ checked: true, changed: true });
    expect(await ok('check', agree)).toMatchObject({ checked: true, changed: false });
    expect(await read<boolean>(page, "document.getElementById('agree').checked")).toBe(true);
    expect(await ok('uncheck', agree)).toMatchObject({ checked: false, changed: true });
    // An ARIA switch that re-renders asynchronously.
    expect(await ok('check', refFor(snap, /switch "Dark mode"/))).toMatchObject({ checked: true, changed: true });
    expect(await read<string>(page, "document.getElementById('switch').getAttribute('aria-checked')")).toBe('true');
    const locked = await relay.cli('check', refFor(snap, /checkbox "Locked"/));
    expect(locked.error?.code).toBe('partial_success_disallowed');
    expect(await read<boolean>(page, "document.getElementById('locked').checked")).toBe(false);
  });

  it('focus gives keyboard focus', async () => {
    const tab = await open(relay, '/form.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    await ok('focus', refFor(snap, /button "Go"/));
    expect(await read<string[]>(page, 'window.focused')).toEqual(['go']);
  });

  it('hover moves a trusted pointer onto the element; a covered one is refused', async () => {
    const tab = await open(relay, '/pointer.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    await ok('hover', refFor(snap, /button "Hover me"/));
    await until(async () => (await read<string[]>(page, 'window.log')).includes('enter'), 5000, 'mouseenter');
    const overlay = await open(relay, '/overlay.html');
    const osnap = await snapshot(relay, overlay.tabId);
    const opage = await relay.page(overlay.path);
    await opage.evaluate('showModal()');
    const covered = await relay.cli('hover', refFor(osnap, /button "Covered target"/));
    expect(covered.error?.code).toBe('click_intercepted');
  });
});

describe('scroll, drag, click options, upload', () => {
  it('scrolls the page, a container, and a ref into view', async () => {
    const tab = await open(relay, '/pointer.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    const down = await ok('scroll', 'down', '200', '--tab', String(tab.tabId));
    expect(down).toMatchObject({ container: 'page', moved: true, after: { y: 200 } });
    expect(await read<number>(page, 'scrollY')).toBe(200);
    const inBox = await ok('scroll', 'down', '300', '--in', refFor(snap, /button "Deep"/));
    expect(inBox).toMatchObject({ container: 'element', after: { y: 300 } });
    expect(await read<number>(page, "document.getElementById('box').scrollTop")).toBe(300);
    await ok('scroll', '--into-view', refFor(snap, /button "Far button"/));
    expect(await read<boolean>(page, "(() => { const r = document.getElementById('far').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()")).toBe(true);
    const bad = await relay.cli('scroll', 'sideways');
    expect(bad.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'direction' } });
  });

  it('drags with HTML5 drag and drop and with plain pointer events', async () => {
    const tab = await open(relay, '/pointer.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    await ok('drag', refFor(snap, /button "Card A"/), refFor(snap, /button "Drop zone"/));
    await until(async () => ((await read<string[] | undefined>(page, 'window.drops')) ?? []).length === 1, 5000, 'drop');
    expect(await read<string[]>(page, 'window.drops')).toEqual(['card-a']);
    await ok('drag', refFor(snap, /button "Handle"/), refFor(snap, /button "Drop zone"/));
    expect(await read<string>(page, 'window.pointerDrag')).toBe('dst');
  });

  it('click --double, --button right and --modifiers reach an off-screen button', async () => {
    const tab = await open(relay, '/pointer.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    const far = refFor(snap, /button "Far button"/);
    await ok('click', far, '--double');
    await ok('click', far, '--button', 'right');
    await ok('click', far, '--modifiers', 'Shift');
    expect(await read<number>(page, 'window.dbl')).toBe(1);
    expect(await read<number>(page, 'window.ctx')).toBe(1);
    expect(await read<string[]>(page, 'window.farClicks')).toEqual(['plain', 'plain', 'shift']);
    const bad = await relay.cli('click', far, '--modifiers', 'Hyper');
    expect(bad.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'modifiers' } });
  });

  it('uploads to a hidden input, through a file chooser (--via), and refuses missing files and non-file inputs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cr-upload-'));
    const a = join(dir, 'a.txt');
    const b = join(dir, 'b.txt');
    writeFileSync(a, 'alpha');
    writeFileSync(b, 'beta');
    const tab = await open(relay, '/pointer.html');
    const snap = await snapshot(relay, tab.tabId);
    const page = await relay.page(tab.path);
    expect(await ok('upload', '--via', refFor(snap, /button "Choose files"/), a, b)).toMatchObject({ via: 'chooser' });
    expect(await read<string[]>(page, 'window.files()')).toEqual(['a.txt', 'b.txt']);
    await ok('upload', refFor(snap, /"Single file"/), b);
    expect(await read<string[]>(page, "[...document.getElementById('visible-file').files].map(f => f.name)")).toEqual(['b.txt']);
    const missing = await relay.cli('upload', refFor(snap, /"Single file"/), join(dir, 'nope.txt'));
    expect(missing.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'files' } });
    const notFile = await relay.cli('upload', refFor(snap, /button "Hover me"/), a);
    expect(notFile.error?.code).toBe('invalid_arguments');
    expect(notFile.error?.message).toMatch(/not an <input type=file>/);
  });
});

describe('snapshot options', () => {
  it('-i keeps only actionable elements with their hierarchy; -d cuts depth; -s scopes by css and by ref', async () => {
    const tab = await open(relay, '/snapshot-options.html');
    const full = await snapshot(relay, tab.tabId);
    expect(full).toMatch(/- "Some prose/);
    const interactive = await ok2('snapshot', '--tab', String(tab.tabId), '-i');
    expect(interactive).not.toMatch(/Some prose/);
    expect(interactive).toMatch(/navigation "Main":\n\s+- link "Alpha" \[ref=e\d+\]/);
    const shallow = await ok2('snapshot', '--tab', String(tab.tabId), '-d', '0');
    expect(shallow).toMatch(/children below --depth 0/);
    expect(shallow).not.toMatch(/link "Alpha"/);
    const byCss = await ok2('snapshot', '--tab', String(tab.tabId), '-s', 'form#login');
    expect(byCss).toMatch(/button "Sign in"/);
    expect(byCss).not.toMatch(/Alpha/);
    const byRef = await ok2('snapshot', '--tab', String(tab.tabId), '-s', refFor(full, /link "Beta"/));
    expect(byRef.trim().split('\n').slice(1)).toEqual([expect.stringMatching(/^- link "Beta" \[ref=e\d+\]$/)]);
    // Refs outside a scoped snapshot keep working.
    expect((await relay.cli('click', refFor(full, /button "Nested"/))).code).toBe(0);
    const missing = await relay.cli('snapshot', '--tab', String(tab.tabId), '-s', '#nope');
    expect(missing.error?.code).toBe('element_not_found');
  });

  it('elides only runs of identical siblings, never distinct items; --no-elide shows all', async () => {
    const tab = await open(relay, '/snapshot-options.html');
    const text = await snapshot(relay, tab.tabId);
    expect(text.match(/button "Add"/g)?.length).toBe(12);
    expect(text).toMatch(/… 18 more listitem items identical to these \(18 refs not shown; --no-elide shows them\)/);
    for (let i = 1; i <= 30; i++) expect(text).toContain(`Item ${i}`);
    const all = await ok2('snapshot', '--tab', String(tab.tabId), '--no-elide');
    expect(all.match(/button "Add"/g)?.length).toBe(30);
  });

  it('--max-chars truncates loudly; --diff shows only what changed with stable refs', async () => {
    const tab = await open(relay, '/snapshot-options.html');
    await snapshot(relay, tab.tabId);
    const cut = await ok2('snapshot', '--tab', String(tab.tabId), '--max-chars', '300');
    expect(cut).toMatch(/!!! TRUNCATED: showing \d+ of \d+ characters .* Narrow with --scope/);
    expect(cut.length).toBeLessThan(700);
    const same = await ok2('snapshot', '--tab', String(tab.tabId), '--diff');
    expect(same).toMatch(/no changes since the previous snapshot/);
    const page = await relay.page(tab.path);
    await page.evaluate('addItem()');
    const diff = await ok2('snapshot', '--tab', String(tab.tabId), '--diff');
    expect(diff).toMatch(/1 line added, 0 removed/);
    expect(diff).toMatch(/\+ {3}- button "Forgot password" \[ref=e\d+\]/);
    expect(diff).toMatch(/form "Login"/);
  });
});

describe('scrolled containers', () => {
  it('clicks a ref hidden inside a scrolled container, below its sticky header, without a false refusal', async () => {
    const tab = await open(relay, '/scroller.html');
    const page = await relay.page(tab.path);
    const text = await snapshot(relay, tab.tabId);
    for (const row of [35, 2, 40]) {
      const click = await relay.cli('click', refFor(text, new RegExp(`button "Row ${row}"`)));
      expect(click.code, click.stderr).toBe(0);
    }
    await until(async () => (await read<number[]>(page, 'window.clicked')).length === 3, 5000, 'three clicks');
    expect(await read<number[]>(page, 'window.clicked')).toEqual([35, 2, 40]);
  });
});


async function ok2(...args: string[]): Promise<string> {
  const result = await relay.cli(...args);
  expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

describe('shadow DOM and type -s', () => {
  it('fills, types into (-s @ref) and hovers elements inside an open shadow root', async () => {
    const tab = await open(relay, '/shadow.html');
    const page = await relay.page(tab.path);
    const text = await snapshot(relay, tab.tabId);
    const fill = await relay.cli('fill', refFor(text, /textbox "Email"/), 'ada@example.com');
    expect(fill.code, fill.stderr).toBe(0);
    expect(await read<string>(page, "shadowValue('email')")).toBe('ada@example.com');

    const typed = await relay.cli('type', 'hi there', '-s', refFor(text, /textbox "Note"/));
    expect(typed.code, typed.stderr).toBe(0);
    expect(await read<string>(page, "shadowValue('note')")).toBe('hi there');
    // Trusted typing: the editor saw beforeinput for every character.
    expect((await read<string[]>(page, 'window.typed')).filter((t) => t === 'insertText')).toHaveLength('hi there'.length);

    const hover = await relay.cli('hover', refFor(text, /button "Help"/));
    expect(hover.code, hover.stderr).toBe(0);
    await until(async () => (await read<number>(page, 'window.hovers')) === 1, 5000, 'mouseenter on the shadow button');

    const badTarget = await relay.cli('type', 'x', '-s', 'help');
    expect(badTarget.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'target' } });
  });
});

describe('get box', () => {
  it('prints the element box the page itself measures, scrolled into view; a stale ref is stale_ref', async () => {
    const tab = await open(relay, '/scroller.html');
    const snap = await snapshot(relay, tab.tabId);
    // Row 30 is below the fold of its scrolled container: get box scrolls it into view first.
    const ref = refFor(snap, /button "Row 30"/);
    const box = await ok('get', 'box', ref);
    const page = await relay.page(tab.path);
    // The page's own measure, after chrome-relay scrolled the element into view.
    const measured = await read<{ x: number; y: number; width: number; height: number; vw: number; vh: number }>(
      page,
      `(() => { const el = document.querySelectorAll('#box button')[29]; const r = el.getBoundingClientRect(); return { x: r.left, y: r.top, width: r.width, height: r.height, vw: innerWidth, vh: innerHeight }; })()`,
    );
    expect(box).toMatchObject({ tabId: tab.tabId, ref: ref.slice(1) });
    expect(box).not.toHaveProperty('healed');
    for (const key of ['x', 'y', 'width', 'height'] as const) expect(box[key] as number).toBeCloseTo(measured[key], 0);
    expect(measured.y).toBeGreaterThanOrEqual(0);
    expect(measured.y + measured.height).toBeLessThanOrEqual(measured.vh);

    await page.evaluate("document.body.innerHTML = '<p>gone</p>'");
    const stale = await relay.cli('get', 'box', ref);
    expect(stale.error).toMatchObject({ code: 'stale_ref', tool: 'get box', details: { protocolTool: 'get_box' } });
  });
});

describe('get style', () => {
  it("prints the element's computed CSS values as the browser applies them, even when the page patches its own getComputedStyle", async () => {
    const tab = await open(relay, '/style.html');
    const ref = refFor(await snapshot(relay, tab.tabId), /button "Go"/);
    const got = await ok('get', 'style', ref, 'display', 'color', 'font-size', 'background-image', 'not-a-property', '--', '--brand');
    const page = await relay.page(tab.path);
    // The page's own values, read with the getComputedStyle it kept before patching the global.
    const truth = await read<Record<string, string>>(
      page,
      `(() => { const s = window.realStyle(document.getElementById('go')); return Object.fromEntries(['display', 'color', 'font-size', '--brand', 'background-image'].map((p) => [p, s.getPropertyValue(p).trim()])); })()`,
    );
    expect(truth.display).toBe('inline-block');
    expect(got).toEqual({ tabId: tab.tabId, ref: ref.slice(1), style: { ...truth, 'not-a-property': '' } });
    expect(got.style).toMatchObject({ color: 'rgb(10, 20, 30)', 'font-size': '18px', '--brand': '#123456' });
  });

  it('refuses a name that is no CSS property before anything is sent; a stale ref is stale_ref', async () => {
    const tab = await open(relay, '/style.html');
    const ref = refFor(await snapshot(relay, tab.tabId), /button "Go"/);
    const bad = await relay.cli('get', 'style', ref, 'color;x');
    expect(bad.error).toMatchObject({ code: 'invalid_arguments', details: { field: 'properties' } });
    const page = await relay.page(tab.path);
    await page.evaluate("document.body.innerHTML = '<p>gone</p>'");
    const stale = await relay.cli('get', 'style', ref, 'display');
    expect(stale.error).toMatchObject({ code: 'stale_ref', tool: 'get style', details: { protocolTool: 'get_style' } });
  });
});
