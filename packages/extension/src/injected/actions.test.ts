// @vitest-environment happy-dom
/**
 * The page-side halves of the element actions on small DOM fixtures: which way `fill` puts a value in (or why it
 * cannot), what `select` and `check` do and refuse, which scroller a scroll turns.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkState, currentValue, focusElement, isFileInput, planFill, scrollContainer, selectForTyping, selectOptions, setPickerValue } from './actions.js';

afterEach(() => {
  document.body.innerHTML = '';
});

function render(html: string, selector = 'body > *'): Element {
  document.body.innerHTML = html;
  const element = document.querySelector(selector);
  if (element === null) throw new Error(`no ${selector}`);
  return element;
}

/** The input and change events an element fires, in order. */
function events(element: Element): string[] {
  const seen: string[] = [];
  for (const type of ['input', 'change']) element.addEventListener(type, () => seen.push(type));
  return seen;
}

describe('planFill: how fill puts a value into an element', () => {
  it('types into every text-like field and a textarea', () => {
    for (const type of ['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number']) {
      expect(planFill(render(`<input type="${type}">`)), type).toEqual({ kind: 'typed' });
    }
    expect(planFill(render('<input>'))).toEqual({ kind: 'typed' });
    expect(planFill(render('<textarea></textarea>'))).toEqual({ kind: 'typed' });
  });

  it('sets the value of a picker (date, time, colour, range…) and selects in a select', () => {
    for (const type of ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']) {
      expect(planFill(render(`<input type="${type}">`)), type).toEqual({ kind: 'set' });
    }
    expect(planFill(render('<select><option>a</option></select>'))).toEqual({ kind: 'select' });
  });

  it('types into a contenteditable editor', () => {
    const editor = render('<div contenteditable="true"></div>');
    // happy-dom computes no isContentEditable: state what a browser says.
    Object.defineProperty(editor, 'isContentEditable', { value: true });
    expect(planFill(editor)).toEqual({ kind: 'contenteditable' });
  });

  it('refuses, naming the command that fits: a checkbox (check), a file input (upload), a button (click), anything else', () => {
    expect(planFill(render('<input type="checkbox">'))).toEqual({ kind: 'refused', reason: expect.stringContaining('chrome-relay check') });
    expect(planFill(render('<input type="radio">'))).toEqual({ kind: 'refused', reason: expect.stringContaining('uncheck') });
    expect(planFill(render('<input type="file">'))).toEqual({ kind: 'refused', reason: expect.stringContaining('chrome-relay upload') });
    for (const type of ['submit', 'button', 'reset', 'image']) expect(planFill(render(`<input type="${type}">`))).toEqual({ kind: 'refused', reason: expect.stringContaining('chrome-relay click') });
    expect(planFill(render('<div>text</div>'))).toEqual({ kind: 'refused', reason: '<div> is not an input, textarea, select or contenteditable element' });
  });

  it('refuses a disabled or read-only field, whatever its type', () => {
    expect(planFill(render('<input disabled>'))).toEqual({ kind: 'refused', reason: '<input[type=text]> is disabled' });
    expect(planFill(render('<textarea readonly></textarea>'))).toEqual({ kind: 'refused', reason: '<textarea> is read-only' });
    expect(planFill(render('<input type="date" readonly>'))).toEqual({ kind: 'refused', reason: '<input[type=date]> is read-only' });
  });
});

describe('selectOptions', () => {
  const FRUIT = '<select><option value="a">Apple</option><option value="b">  Blue\n berry </option><option value="c" disabled>Cherry</option></select>';

  it('selects by value, else by the label a person reads; fires input then change', () => {
    // A fresh select for each (happy-dom keeps a select's selectedOptions from its first read).
    const select = render(FRUIT) as HTMLSelectElement;
    const fired = events(select);
    expect(selectOptions(select, ['b'])).toEqual({ status: 'done', selected: ['b'] });
    expect(fired).toEqual(['input', 'change']);
    expect(selectOptions(render(FRUIT.replace('value="b"', 'value="b" selected')), ['Apple'])).toEqual({ status: 'done', selected: ['a'] });
    expect(selectOptions(render(FRUIT), ['Blue berry'])).toEqual({ status: 'done', selected: ['b'] });
  });

  it('changes nothing when an option is missing (listing what there is) or disabled', () => {
    const select = render(FRUIT) as HTMLSelectElement;
    const fired = events(select);
    expect(selectOptions(select, ['Durian'])).toEqual({ status: 'no_option', missing: 'Durian', available: ['Apple', 'Blue berry', 'Cherry'] });
    expect(selectOptions(select, ['c'])).toEqual({ status: 'refused', reason: 'option "Cherry" is disabled' });
    expect(select.value).toBe('a');
    expect(fired).toEqual([]);
  });

  it('takes several values only in a multiple select, and sets exactly those', () => {
    expect(selectOptions(render(FRUIT), ['a', 'b'])).toEqual({ status: 'refused', reason: 'this <select> takes one option, 2 were given' });
    const multiple = render('<select multiple><option value="1" selected>One</option><option value="2">Two</option><option value="3">Three</option></select>') as HTMLSelectElement;
    expect(selectOptions(multiple, ['2', 'Three'])).toEqual({ status: 'done', selected: ['2', '3'] });
  });

  it('refuses a disabled select, and anything that is not a select', () => {
    expect(selectOptions(render('<select disabled><option>a</option></select>'), ['a'])).toEqual({ status: 'refused', reason: '<select> is disabled' });
    expect(selectOptions(render('<div role="listbox"></div>'), ['a'])).toEqual({ status: 'refused', reason: expect.stringContaining('for a custom listbox, click its options') });
  });
});

describe('checkState', () => {
  it('a native checkbox or radio: checked, unchecked, or mixed while indeterminate', () => {
    const box = render('<input type="checkbox" checked>') as HTMLInputElement;
    expect(checkState(box, 'checkbox')).toEqual({ status: 'ok', checked: 'true', radio: false });
    box.checked = false;
    expect(checkState(box, 'checkbox')).toEqual({ status: 'ok', checked: 'false', radio: false });
    box.indeterminate = true;
    expect(checkState(box, 'checkbox')).toEqual({ status: 'ok', checked: 'mixed', radio: false });
    expect(checkState(render('<input type="radio">'), 'radio')).toEqual({ status: 'ok', checked: 'false', radio: true });
  });

  it('an ARIA checkable by its aria-checked; anything unknown there is unchecked', () => {
    expect(checkState(render('<div role="switch" aria-checked="true"></div>'), 'switch')).toEqual({ status: 'ok', checked: 'true', radio: false });
    expect(checkState(render('<div role="checkbox" aria-checked="mixed"></div>'), 'checkbox')).toEqual({ status: 'ok', checked: 'mixed', radio: false });
    expect(checkState(render('<div role="menuitemradio" aria-checked="yes"></div>'), 'menuitemradio')).toEqual({ status: 'ok', checked: 'false', radio: true });
  });

  it('refuses what has no checked state', () => {
    expect(checkState(render('<button>Go</button>'), 'button')).toEqual({ status: 'refused', reason: '<button> with role button has no checked state' });
    expect(checkState(render('<input type="text">'), 'textbox')).toEqual({ status: 'refused', reason: '<input[type=text]> with role textbox has no checked state' });
  });
});

describe('file inputs, focus and values', () => {
  it('isFileInput: a file input (single or multiple), refusing a disabled one or another element with the move that fits', () => {
    expect(isFileInput(render('<input type="file" multiple>'))).toEqual({ ok: true, multiple: true });
    expect(isFileInput(render('<input type="file">'))).toEqual({ ok: true, multiple: false });
    expect(isFileInput(render('<input type="file" disabled>'))).toEqual({ ok: false, reason: '<input type=file> is disabled' });
    expect(isFileInput(render('<button>Upload</button>'))).toEqual({ ok: false, reason: expect.stringContaining('chrome-relay upload --via') });
  });

  it('focusElement says whether focus is now in the element; selectForTyping selects the whole value to replace', () => {
    const field = render('<input value="old text">') as HTMLInputElement;
    expect(focusElement(field)).toBe(true);
    expect(document.activeElement).toBe(field);
    expect(selectForTyping(field, 'typed')).toBe(true);
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, 'old text'.length]);
    expect(focusElement(render('<input disabled>'))).toBe(false);
  });

  it('currentValue: a field\'s value, a rich editor\'s text', () => {
    expect(currentValue(render('<input value="  spaced  ">'))).toBe('  spaced  ');
    expect(currentValue(render('<div contenteditable="true">Hello\n   world</div>'))).toBe('Hello world');
  });

  it('setPickerValue sets and announces a value the input takes', () => {
    const range = render('<input type="range" min="0" max="10">') as HTMLInputElement;
    const fired = events(range);
    expect(setPickerValue(range, '7')).toBe(true);
    expect(range.value).toBe('7');
    expect(fired).toEqual(['input', 'change']);
  });
});

describe('scrollContainer: the scroller a scroll on an element turns', () => {
  /** happy-dom lays nothing out: give an element the scroll sizes a browser would. */
  function sized(element: Element, sizes: { scrollHeight?: number; clientHeight?: number; scrollWidth?: number; clientWidth?: number }): void {
    for (const [key, value] of Object.entries(sizes)) Object.defineProperty(element, key, { configurable: true, value });
  }

  it('the nearest ancestor that scrolls that way, else the page (null)', () => {
    document.body.innerHTML = '<div id="outer" style="overflow-y: auto"><div id="inner" style="overflow-x: scroll"><p id="row">row</p></div></div>';
    const outer = document.getElementById('outer');
    const inner = document.getElementById('inner');
    const row = document.getElementById('row');
    if (outer === null || inner === null || row === null) throw new Error('fixture');
    sized(outer, { scrollHeight: 2000, clientHeight: 300 });
    sized(inner, { scrollWidth: 900, clientWidth: 300, scrollHeight: 2000, clientHeight: 300 });
    expect(scrollContainer(row, 0, 1)).toBe(outer);
    expect(scrollContainer(row, 1, 0)).toBe(inner);
    // Overflow that fits has nothing to scroll.
    sized(outer, { scrollHeight: 300, clientHeight: 300 });
    expect(scrollContainer(row, 0, 1)).toBeNull();
  });

  it('climbs out of a shadow root to its host', () => {
    document.body.innerHTML = '<div id="panel" style="overflow-y: auto"><x-list></x-list></div>';
    const panel = document.getElementById('panel');
    const host = document.querySelector('x-list');
    if (panel === null || host === null) throw new Error('fixture');
    sized(panel, { scrollHeight: 2000, clientHeight: 300 });
    const root = host.attachShadow({ mode: 'open' });
    root.innerHTML = '<p>inside</p>';
    const inside = root.querySelector('p');
    if (inside === null) throw new Error('fixture');
    expect(scrollContainer(inside, 0, 1)).toBe(panel);
  });
});
