// @vitest-environment happy-dom
/**
 * Roles as the snapshot gives them (computeRole on real elements): what an agent reads before every action, and
 * what decides which elements get a ref (INTERACTIVE_ROLES).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { computeRole, INTERACTIVE_ROLES } from './roles.js';

const TOP = { inGrid: false };

/** The role of the first element matching `selector` once `html` is the body. */
function roleOf(html: string, selector = 'body > *', hints = TOP): string {
  document.body.innerHTML = html;
  const element = document.querySelector(selector);
  if (element === null) throw new Error(`no ${selector} in ${html}`);
  return computeRole(element, hints);
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('inputs: every type an agent meets', () => {
  const ROLE_OF_TYPE: Readonly<Record<string, string>> = {
    text: 'textbox',
    password: 'textbox',
    email: 'textbox',
    tel: 'textbox',
    url: 'textbox',
    date: 'textbox',
    'datetime-local': 'textbox',
    month: 'textbox',
    week: 'textbox',
    time: 'textbox',
    search: 'searchbox',
    number: 'spinbutton',
    range: 'slider',
    checkbox: 'checkbox',
    radio: 'radio',
    button: 'button',
    submit: 'button',
    reset: 'button',
    image: 'button',
    // A file input is operated through its "Choose File" button; a colour input through its swatch button.
    file: 'button',
    color: 'button',
    hidden: 'none',
  };

  it.each(Object.entries(ROLE_OF_TYPE))('type=%s is %s', (type, role) => {
    expect(roleOf(`<input type="${type}">`)).toBe(role);
  });

  it('a missing, unknown or upper-case type reads as the browser does: a text field, or the type it names', () => {
    expect(roleOf('<input>')).toBe('textbox');
    expect(roleOf('<input type="fancy">')).toBe('textbox');
    expect(roleOf('<input type="CHECKBOX">')).toBe('checkbox');
    expect(roleOf('<input type="Range">')).toBe('slider');
  });

  it('a text-like field with a datalist is a combobox; a list on any other type changes nothing', () => {
    for (const type of ['', 'text', 'search', 'email', 'tel', 'url']) expect(roleOf(`<input type="${type}" list="choices">`)).toBe('combobox');
    expect(roleOf('<input list="choices">')).toBe('combobox');
    expect(roleOf('<input type="number" list="choices">')).toBe('spinbutton');
    expect(roleOf('<input type="checkbox" list="choices">')).toBe('checkbox');
    expect(roleOf('<input type="range" list="choices">')).toBe('slider');
  });

  it('every input an agent fills, checks or presses gets a ref; a hidden input never does', () => {
    for (const type of Object.keys(ROLE_OF_TYPE).filter((type) => type !== 'hidden')) {
      expect(INTERACTIVE_ROLES.has(roleOf(`<input type="${type}">`)), type).toBe(true);
    }
    expect(INTERACTIVE_ROLES.has(roleOf('<input type="hidden">'))).toBe(false);
  });
});

describe('other controls', () => {
  it('a select is a combobox, a listbox when it shows several options', () => {
    expect(roleOf('<select><option>a</option></select>')).toBe('combobox');
    expect(roleOf('<select multiple><option>a</option></select>')).toBe('listbox');
    // happy-dom does not reflect `size` as a property: state what a browser reads from the attribute.
    document.body.innerHTML = '<select size="4"><option>a</option></select>';
    const tall = document.querySelector('select');
    if (tall === null) throw new Error('fixture');
    Object.defineProperty(tall, 'size', { value: 4, writable: true });
    expect(computeRole(tall, TOP)).toBe('listbox');
    tall.size = 1;
    expect(computeRole(tall, TOP)).toBe('combobox');
    expect(roleOf('<select><option>a</option></select>', 'option')).toBe('option');
  });

  it('a link needs an href; a summary is pressed like a button; a textarea is a textbox', () => {
    expect(roleOf('<a href="/x">x</a>')).toBe('link');
    expect(roleOf('<a href="">x</a>')).toBe('link');
    expect(roleOf('<a name="top">x</a>')).toBe('generic');
    expect(roleOf('<details><summary>More</summary></details>', 'summary')).toBe('button');
    expect(roleOf('<details><summary>More</summary></details>')).toBe('group');
    expect(roleOf('<textarea></textarea>')).toBe('textbox');
    expect(roleOf('<button>Go</button>')).toBe('button');
  });

  it('a contenteditable region is one textbox: its host, not what is inside it', () => {
    document.body.innerHTML = '<div contenteditable="true"><p>one</p><b>two</b></div>';
    const host = document.querySelector('div');
    const inner = document.querySelector('b');
    if (host === null || inner === null) throw new Error('fixture');
    // happy-dom computes no isContentEditable: state what a browser says.
    Object.defineProperty(host, 'isContentEditable', { value: true });
    Object.defineProperty(inner, 'isContentEditable', { value: true });
    expect(computeRole(host, TOP)).toBe('textbox');
    expect(computeRole(inner, TOP)).toBe('generic');
  });
});

describe('an explicit role', () => {
  it('wins over the tag, and the first role of a fallback list that is known wins', () => {
    expect(roleOf('<div role="button">x</div>')).toBe('button');
    expect(roleOf('<a href="/x" role="tab">x</a>')).toBe('tab');
    expect(roleOf('<button role="switch checkbox">x</button>')).toBe('switch');
    expect(roleOf('<div role="fancy-widget checkbox">x</div>')).toBe('checkbox');
    expect(roleOf('<div role="MENUITEM">x</div>')).toBe('menuitem');
  });

  it('that no one knows, or that is empty, leaves the implicit role', () => {
    expect(roleOf('<button role="fancy">x</button>')).toBe('button');
    expect(roleOf('<input type="checkbox" role="">')).toBe('checkbox');
    // Abstract roles are not roles an author may set.
    expect(roleOf('<div role="widget">x</div>')).toBe('generic');
  });

  it('presentation is none, whatever the tag', () => {
    expect(roleOf('<table role="presentation"><tr><td>x</td></tr></table>')).toBe('none');
    expect(roleOf('<ul role="none"><li>x</li></ul>')).toBe('none');
  });
});

describe('structure', () => {
  it('headings, lists, tables and their cells', () => {
    for (const level of [1, 2, 3, 4, 5, 6]) expect(roleOf(`<h${level}>t</h${level}>`)).toBe('heading');
    expect(roleOf('<ol><li>x</li></ol>')).toBe('list');
    expect(roleOf('<ol><li>x</li></ol>', 'li')).toBe('listitem');
    const table = '<table><thead><tr><th>Name</th><th scope="row">Row</th></tr></thead><tbody><tr><td>x</td></tr></tbody></table>';
    expect(roleOf(table, 'tr')).toBe('row');
    expect(roleOf(table, 'thead')).toBe('rowgroup');
    expect(roleOf(table, 'th')).toBe('columnheader');
    expect(roleOf(table, 'th[scope=row]')).toBe('rowheader');
    expect(roleOf(table, 'td')).toBe('cell');
    // In a grid (the walker knows it from the ancestors), a cell is a gridcell.
    expect(roleOf(table, 'td', { inGrid: true })).toBe('gridcell');
  });

  it('an image with alt="" is decoration; an svg is an image only when it is named', () => {
    expect(roleOf('<img src="a.png" alt="Logo">')).toBe('img');
    expect(roleOf('<img src="a.png">')).toBe('img');
    expect(roleOf('<img src="a.png" alt="">')).toBe('none');
    expect(roleOf('<svg></svg>')).toBe('none');
    expect(roleOf('<svg aria-label="Close"></svg>')).toBe('img');
    expect(roleOf('<svg><title>Close</title></svg>')).toBe('img');
  });

  it('header and footer are landmarks only at the page level; section and form only when named', () => {
    expect(roleOf('<header>x</header>')).toBe('banner');
    expect(roleOf('<footer>x</footer>')).toBe('contentinfo');
    expect(roleOf('<article><header>x</header></article>', 'header')).toBe('generic');
    expect(roleOf('<main><footer>x</footer></main>', 'footer')).toBe('generic');
    expect(roleOf('<section>x</section>')).toBe('generic');
    expect(roleOf('<section aria-label="News">x</section>')).toBe('region');
    expect(roleOf('<section aria-labelledby="h">x</section>')).toBe('region');
    expect(roleOf('<form>x</form>')).toBe('generic');
    expect(roleOf('<form aria-label="Search">x</form>')).toBe('form');
  });

  it('landmarks and the rest of the tag table', () => {
    const cases: [string, string][] = [
      ['<nav>x</nav>', 'navigation'],
      ['<main>x</main>', 'main'],
      ['<aside>x</aside>', 'complementary'],
      ['<dialog>x</dialog>', 'dialog'],
      ['<fieldset>x</fieldset>', 'group'],
      ['<hr>', 'separator'],
      ['<progress></progress>', 'progressbar'],
      ['<meter></meter>', 'meter'],
      ['<output>x</output>', 'status'],
      ['<p>x</p>', 'paragraph'],
      ['<div>x</div>', 'generic'],
      ['<span>x</span>', 'generic'],
    ];
    for (const [html, role] of cases) expect(roleOf(html), html).toBe(role);
  });
});
