// @vitest-environment happy-dom
/**
 * Names as an agent reads them: a control's accessible name is what it picks a ref by, and a wrong one sends its
 * click elsewhere. Real DOM trees in happy-dom (boxes and initial styles from testing/fakeRendering.ts).
 */
import { describe, expect, it } from 'vitest';
import { useFakeRendering } from '../testing/fakeRendering.js';
import { controlValue, createLabelIndex, cssUrl, explicitName, fallbackName, fileWords, iconClassWords, inferredName } from './names.js';
import { Walker } from './walker.js';

useFakeRendering();

/** Render `html` and return the element matching `selector` (in the document, or under `root`). */
function render(html: string, selector: string): Element {
  document.body.innerHTML = html;
  return find(selector);
}

function find(selector: string, root: ParentNode = document): Element {
  const element = root.querySelector(selector);
  if (element === null) throw new Error(`no ${selector}`);
  return element;
}

/** The name with both label lookups (the element's own `labels`, and the index a walk builds once): they must agree. */
function labelled(element: Element): string {
  const native = explicitName(element);
  expect(explicitName(element, createLabelIndex())).toBe(native);
  return native;
}

/** Role and name exactly as the snapshot gives them. */
const described = (element: Element) => new Walker().describe(element);

describe('icon names from what a page draws', () => {
  it("an image URL's file name, without sizes, states and icon-set prefixes", () => {
    expect(fileWords('../common/special/email-inbox/delete.png')).toBe('delete');
    expect(fileWords('/img/ic_trash_24dp.svg?v=3')).toBe('trash');
    expect(fileWords('https://cdn.example/icons/star-clicked.png')).toBe('star');
    expect(fileWords('/i/left-arrow-white@2x.png')).toBe('left arrow');
    expect(fileWords('sprite.svg#icon-send')).toBe('send');
    expect(fileWords('data:image/png;base64,AAAA')).toBe('');
    expect(fileWords('')).toBe('');
  });

  it('the first url() of a computed value, quoted or not', () => {
    expect(cssUrl('url("http://x/a/b/reply.png")')).toBe('http://x/a/b/reply.png');
    expect(cssUrl("url('x.svg') no-repeat")).toBe('x.svg');
    expect(cssUrl('url(plain.gif)')).toBe('plain.gif');
    expect(cssUrl('linear-gradient(red, blue)')).toBe('');
  });

  it("an icon font's class says the icon, its markers and sizes do not", () => {
    expect(iconClassWords('fa fa-star fa-lg')).toBe('star');
    expect(iconClassWords('icon-send')).toBe('send');
    expect(iconClassWords('bi bi-trash-fill')).toBe('trash fill');
    expect(iconClassWords('glyphicon glyphicon-remove')).toBe('remove');
    expect(iconClassWords('btn btn-primary')).toBe('');
    expect(iconClassWords('fa fa-fw')).toBe('');
  });
});

describe('names from a <label>', () => {
  it('label for= names its control, text of nested markup included', () => {
    expect(labelled(render('<label for="mail">Email <b>address</b></label><input id="mail">', 'input'))).toBe('Email address');
  });

  it('a wrapping label names the control inside it, without the control itself', () => {
    expect(labelled(render('<label>Quantity <select><option>3</option></select> items</label>', 'select'))).toBe('Quantity items');
    expect(labelled(render('<label><input type="checkbox"> Remember me</label>', 'input'))).toBe('Remember me');
  });

  it('every label of a control counts, in document order', () => {
    expect(labelled(render('<label for="x">First</label><input id="x"><label for="x">Second</label>', 'input'))).toBe('First Second');
  });

  it('an element in the label that carries aria-label contributes that, not its content', () => {
    expect(labelled(render('<label for="q"><span aria-label="Search query">🔍</span></label><input id="q">', 'input'))).toBe('Search query');
  });

  it('labels every labelable element: a <button role=switch> by its label, not its own text', () => {
    expect(labelled(render('<label for="s">Airplane mode</label><button id="s" role="switch">off</button>', 'button'))).toBe('Airplane mode');
    expect(described(find('button'))).toEqual({ role: 'switch', name: 'Airplane mode' });
    for (const tag of ['textarea', 'meter', 'progress', 'output']) {
      expect(labelled(render(`<label for="c">Level</label><${tag} id="c"></${tag}>`, tag)), tag).toBe('Level');
    }
  });

  it('a label in a shadow root names the control of that shadow root only', () => {
    document.body.innerHTML = '<label for="f">Outside</label><x-field></x-field>';
    const root = find('x-field').attachShadow({ mode: 'open' });
    root.innerHTML = '<label for="f">Inside</label><input id="f">';
    expect(labelled(find('input', root))).toBe('Inside');
  });

  it('text slotted into a shadow-DOM label is the label text, as Chrome reads it', () => {
    document.body.innerHTML = '<x-cb>Gift wrap</x-cb>';
    const root = find('x-cb').attachShadow({ mode: 'open' });
    root.innerHTML = '<label><input type="checkbox"><slot></slot></label>';
    const box = find('input', root);
    expect(labelled(box)).toBe('Gift wrap');
    expect(described(box)).toEqual({ role: 'checkbox', name: 'Gift wrap' });
  });

  it("a slot's fallback content names only while nothing is slotted", () => {
    document.body.innerHTML = '<x-cb></x-cb>';
    const root = find('x-cb').attachShadow({ mode: 'open' });
    root.innerHTML = '<label><input type="checkbox"><slot>Default</slot></label>';
    expect(labelled(find('input', root))).toBe('Default');
  });
});

describe('names from aria-labelledby and aria-label', () => {
  it('aria-labelledby joins the referenced elements in its own order, and wins over aria-label and <label>', () => {
    const input = render('<span id="b">Billing</span><span id="a">Address</span><label for="i">Street</label><input id="i" aria-label="Ignored" aria-labelledby="a b">', 'input');
    expect(labelled(input)).toBe('Address Billing');
  });

  it('a referenced element counts even when hidden; a missing id is skipped; a referenced field gives its value', () => {
    const input = render('<span id="h" style="display:none">Hidden hint</span><input id="v" value="42"><button aria-labelledby="nothing h v">x</button>', 'button');
    expect(labelled(input)).toBe('Hidden hint 42');
  });

  it('a referenced element with aria-label gives that label', () => {
    expect(labelled(render('<div id="t" aria-label="Dialog title">long text</div><button aria-labelledby="t">x</button>', 'button'))).toBe('Dialog title');
  });

  it('ids are looked up in the control\'s own tree scope (a shadow root), not the document', () => {
    document.body.innerHTML = '<span id="l">Outside</span><x-dialog></x-dialog>';
    const root = find('x-dialog').attachShadow({ mode: 'open' });
    root.innerHTML = '<span id="l">Inside</span><button aria-labelledby="l">x</button>';
    expect(labelled(find('button', root))).toBe('Inside');
  });

  it('aria-label wins over the tag\'s own label; blank ones do not count', () => {
    expect(labelled(render('<label for="i">Label</label><input id="i" aria-label="  Aria  ">', 'input'))).toBe('Aria');
    expect(labelled(render('<label for="i">Label</label><input id="i" aria-label="   " aria-labelledby=" ">', 'input'))).toBe('Label');
  });

  it('an element without attributes (bare) is named by its tag alone', () => {
    const img = render('<img alt="Logo">', 'img');
    expect(explicitName(img, undefined, true)).toBe('Logo');
  });
});

describe("names from the tag's own parts", () => {
  it('button inputs: their value, else the browser\'s own caption', () => {
    expect(labelled(render('<input type="submit">', 'input'))).toBe('Submit');
    expect(labelled(render('<input type="reset">', 'input'))).toBe('Reset');
    expect(labelled(render('<input type="submit" value="Send  now">', 'input'))).toBe('Send now');
    expect(labelled(render('<input type="button">', 'input'))).toBe('');
    expect(labelled(render('<input type="image" alt="Go">', 'input'))).toBe('Go');
    expect(labelled(render('<input type="image">', 'input'))).toBe('Submit');
  });

  it('a file input is named by its label, else by its button caption', () => {
    expect(labelled(render('<input type="file">', 'input'))).toBe('Choose File');
    expect(labelled(render('<input type="file" multiple>', 'input'))).toBe('Choose Files');
    expect(labelled(render('<label for="f">Avatar</label><input type="file" id="f">', 'input'))).toBe('Avatar');
  });

  it('alt, legend, caption, figcaption, an svg title and a frame title', () => {
    expect(labelled(render('<img alt=" Company  logo ">', 'img'))).toBe('Company logo');
    expect(labelled(render('<fieldset><legend>Shipping</legend><input></fieldset>', 'fieldset'))).toBe('Shipping');
    expect(labelled(render('<table><caption>Prices</caption><tr><td>1</td></tr></table>', 'table'))).toBe('Prices');
    expect(labelled(render('<figure><img alt=""><figcaption>Chart</figcaption></figure>', 'figure'))).toBe('Chart');
    expect(labelled(render('<svg><title>Close</title></svg>', 'svg'))).toBe('Close');
    expect(labelled(render('<iframe title="Payment"></iframe>', 'iframe'))).toBe('Payment');
    // Only the element's own legend: one of a nested fieldset does not name the outer one.
    expect(labelled(render('<fieldset><div><legend>Not mine</legend></div></fieldset>', 'fieldset'))).toBe('');
  });

  it('a plain element has no name of its own', () => {
    expect(labelled(render('<div>Some text</div>', 'div'))).toBe('');
  });
});

describe('fallback names: title, then placeholder', () => {
  it('title first, then a text field\'s placeholder, then aria-placeholder', () => {
    expect(fallbackName(render('<input title="Tip" placeholder="Type here">', 'input'))).toBe('Tip');
    expect(fallbackName(render('<input placeholder=" Type  here ">', 'input'))).toBe('Type here');
    expect(fallbackName(render('<textarea placeholder="Message"></textarea>', 'textarea'))).toBe('Message');
    expect(fallbackName(render('<div role="textbox" aria-placeholder="Write…"></div>', 'div'))).toBe('Write…');
    expect(fallbackName(render('<div placeholder="not a field"></div>', 'div'))).toBe('');
  });

  it('a snapshot names a field by its label before its placeholder, and by the placeholder without one', () => {
    expect(described(render('<label for="i">City</label><input id="i" placeholder="e.g. Paris">', 'input'))).toEqual({ role: 'textbox', name: 'City' });
    expect(described(render('<input placeholder="e.g. Paris">', 'input'))).toEqual({ role: 'textbox', name: 'e.g. Paris' });
  });
});

describe("a control's value: shown, except the person's secrets", () => {
  it('a password or one-time code is masked, an empty one stays empty, any other field shows its value', () => {
    expect(controlValue(render('<input type="password" value="hunter2">', 'input'), 'textbox')).toBe('••••••');
    expect(controlValue(render('<input type="password">', 'input'), 'textbox')).toBe('');
    expect(controlValue(render('<input autocomplete="one-time-code" value="123456">', 'input'), 'textbox')).toBe('••••••');
    expect(controlValue(render('<input autocomplete="section-login current-password" value="pw">', 'input'), 'textbox')).toBe('••••••');
    expect(controlValue(render('<input autocomplete="new-password" value="pw">', 'input'), 'textbox')).toBe('••••••');
    expect(controlValue(render('<input type="email" value="me@example.com">', 'input'), 'textbox')).toBe('me@example.com');
    expect(controlValue(render('<input type="number" value="3">', 'input'), 'spinbutton')).toBe('3');
  });

  it('the snapshot tree never carries a secret, whatever the field is named', () => {
    document.body.innerHTML = '<label>Password <input type="password" value="hunter2"></label><label>Code <input autocomplete="one-time-code" value="90210"></label>';
    const walk = new Walker().walkDocument();
    expect(JSON.stringify(walk.tree)).not.toMatch(/hunter2|90210/);
    expect(walk.actionables.map((actionable) => actionable.node.value)).toEqual(['••••••', '••••••']);
  });

  it('a select shows its chosen option\'s label; a textarea its value; a file input its files or none', () => {
    expect(controlValue(render('<select><option value="1">One</option><option value="2" selected> Two\n items </option></select>', 'select'), 'combobox')).toBe('Two items');
    expect(controlValue(render('<select></select>', 'select'), 'combobox')).toBe('');
    expect(controlValue(render('<textarea>line one</textarea>', 'textarea'), 'textbox')).toBe('line one');
    expect(controlValue(render('<input type="file">', 'input'), 'button')).toBe('No file chosen');
  });

  it('a checkbox or button input has no value to show; a slider says its value text first', () => {
    expect(controlValue(render('<input type="checkbox" value="on">', 'input'), 'checkbox')).toBeUndefined();
    expect(controlValue(render('<input type="submit" value="Go">', 'input'), 'button')).toBeUndefined();
    expect(controlValue(render('<div role="slider" aria-valuenow="3" aria-valuetext="Medium"></div>', 'div'), 'slider')).toBe('Medium');
    expect(controlValue(render('<div role="slider" aria-valuenow="3"></div>', 'div'), 'slider')).toBe('3');
    expect(controlValue(render('<div role="progressbar"></div>', 'div'), 'progressbar')).toBeUndefined();
  });
});

describe('inferred names, for controls Chrome would leave nameless', () => {
  it('a tooltip attribute first, then the icon the control shows', () => {
    expect(inferredName(render('<button data-tooltip="Delete row"><i class="fa fa-trash"></i></button>', 'button'), 'button')).toEqual({ name: 'Delete row', from: 'tooltip' });
    expect(inferredName(render('<button><i class="fa fa-trash fa-lg"></i></button>', 'button'), 'button')).toEqual({ name: 'trash', from: 'icon' });
    expect(inferredName(render('<button><img src="/img/ic_send_24dp.png"></button>', 'button'), 'button')).toEqual({ name: 'send', from: 'icon' });
    expect(inferredName(render('<button><svg><title>Star</title></svg></button>', 'button'), 'button')).toEqual({ name: 'Star', from: 'icon' });
    expect(inferredName(render('<button><svg><use href="sprite.svg#icon-close"></use></svg></button>', 'button'), 'button')).toEqual({ name: 'close', from: 'icon' });
  });

  it('a field without a label is named by the short text right before it', () => {
    expect(inferredName(render('<div><span>Departure date</span><input></div>', 'input'), 'textbox')).toEqual({ name: 'Departure date', from: 'label' });
    expect(inferredName(render('<div>Guests <input type="number"></div>', 'input'), 'spinbutton')).toEqual({ name: 'Guests', from: 'label' });
    // Only fields: a button is not named by the text before it.
    expect(inferredName(render('<div><span>Departure date</span><button></button></div>', 'button'), 'button')).toBeUndefined();
  });

  it('not through another control, nor from text too long or on several lines to be a label', () => {
    expect(inferredName(render('<div><span>From</span><input id="a"><input id="b"></div>', '#b'), 'textbox')).toBeUndefined();
    expect(inferredName(render(`<div><span>${'a long paragraph '.repeat(5)}</span><input></div>`, 'input'), 'textbox')).toBeUndefined();
    expect(inferredName(render('<div><pre style="white-space: pre">line one\nline two</pre><input></div>', 'input'), 'textbox')).toBeUndefined();
    // Decoration hidden from assistive technology is passed over.
    expect(inferredName(render('<div><span>Amount</span><span aria-hidden="true">€</span><input></div>', 'input'), 'textbox')).toEqual({ name: 'Amount', from: 'label' });
  });

  it('not from a custom element before the field whose shadow root holds a control: that text is the control\'s', () => {
    document.body.innerHTML = '<div><x-cb>Gift wrap</x-cb><input type="password"></div>';
    find('x-cb').attachShadow({ mode: 'open' }).innerHTML = '<label><input type="checkbox"><slot></slot></label>';
    expect(inferredName(find('input[type=password]'), 'textbox')).toBeUndefined();
  });
});
