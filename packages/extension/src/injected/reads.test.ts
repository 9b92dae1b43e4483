// @vitest-environment happy-dom
/**
 * The page reads behind `get`, `wait` and element screenshots, on small DOM fixtures: what they find (shadow roots
 * included), what they refuse, and that a secret of the person's never leaves the page by any of them.
 */
import { describe, expect, it } from 'vitest';
import { useFakeRendering } from '../testing/fakeRendering.js';
import { createReads, type WithElement } from './reads.js';

useFakeRendering();

/** Refs are element ids here; a missing one is stale, as the page API answers. */
const byId: WithElement = (ref, act) => {
  const element = document.getElementById(ref);
  return element === null ? { status: 'stale', reason: 'unknown_ref' } : act(element, ref.startsWith('healed'));
};
const reads = createReads(byId);
const read = (what: string, selector: string, name = '') => reads.readElement({ what, selector, name });

function shadowOf(selector: string, html: string): ShadowRoot {
  const host = document.querySelector(selector);
  if (host === null) throw new Error(`no ${selector}`);
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = html;
  return root;
}

describe('readElement (get by selector)', () => {
  it('reads the title and the URL without a selector', () => {
    document.title = 'Inbox';
    expect(read('title', '')).toEqual({ status: 'ok', value: 'Inbox' });
    expect(read('url', '')).toEqual({ status: 'ok', value: location.href });
  });

  it('reads one element: its value, its attribute (null when absent), its text', () => {
    document.body.innerHTML = '<input id="q" value="shoes"><textarea id="t">note</textarea><select id="s"><option value="a">A</option><option value="b" selected>B</option></select><a id="l" href="/next">Next <b>page</b></a>';
    expect(read('value', '#q')).toEqual({ status: 'ok', value: 'shoes' });
    expect(read('value', '#t')).toEqual({ status: 'ok', value: 'note' });
    expect(read('value', '#s')).toEqual({ status: 'ok', value: 'b' });
    expect(read('attr', '#l', 'href')).toEqual({ status: 'ok', value: '/next' });
    expect(read('attr', '#l', 'title')).toEqual({ status: 'ok', value: null });
    expect(read('text', '#l')).toMatchObject({ status: 'ok', value: expect.stringMatching(/^Next\s+page$/) });
  });

  it('refuses what is not one element: none, several (with the count), a value of an element without one, bad CSS', () => {
    document.body.innerHTML = '<p class="x">a</p><p class="x">b</p><div id="d">text</div>';
    expect(read('text', '.missing')).toEqual({ status: 'none' });
    expect(read('text', '.x')).toEqual({ status: 'many', count: 2 });
    expect(read('value', '#d')).toEqual({ status: 'no_value', tag: 'div' });
    expect(read('text', 'p[')).toMatchObject({ status: 'bad_selector' });
    expect(read('count', '.x')).toEqual({ status: 'ok', value: 2 });
  });

  it('matches in open shadow roots as the snapshot sees them, nested ones included', () => {
    document.body.innerHTML = '<p class="row">light</p><x-list></x-list>';
    shadowOf('x-list', '<p class="row">one</p><p class="row" id="deep">two</p><x-inner></x-inner>');
    const inner = document.querySelector('x-list')?.shadowRoot?.querySelector('x-inner');
    inner?.attachShadow({ mode: 'open' }).append(Object.assign(document.createElement('p'), { className: 'row', textContent: 'three' }));
    expect(read('count', '.row')).toEqual({ status: 'ok', value: 4 });
    expect(read('text', '#deep')).toEqual({ status: 'ok', value: 'two' });
  });

  it("never gives out a password or one-time code: not as a value, not as the value attribute a page prefilled", () => {
    document.body.innerHTML = [
      '<input id="pw" type="password" value="hunter2">',
      '<input id="otp" autocomplete="one-time-code" value="90210">',
      '<input id="np" autocomplete="username new-password" value="n3w">',
      '<input id="empty" type="password">',
    ].join('');
    for (const id of ['pw', 'otp', 'np']) {
      expect(read('value', `#${id}`), id).toEqual({ status: 'ok', value: '••••••' });
      expect(read('attr', `#${id}`, 'value'), id).toEqual({ status: 'ok', value: '••••••' });
      expect(read('attr', `#${id}`, 'VALUE'), id).toEqual({ status: 'ok', value: '••••••' });
    }
    // Nothing to hide: an empty one reads empty, and other attributes read as they are.
    expect(read('value', '#empty')).toEqual({ status: 'ok', value: '' });
    expect(read('attr', '#pw', 'type')).toEqual({ status: 'ok', value: 'password' });
    expect(JSON.stringify([read('text', '#pw'), read('text', '#otp')])).not.toMatch(/hunter2|90210/);
  });
});

describe('waitCondition', () => {
  it('text: in the page, or in a shown shadow root; not in a hidden one', () => {
    document.body.innerHTML = '<p>Order placed</p><x-toast></x-toast><x-hidden style="display:none"></x-hidden>';
    shadowOf('x-toast', '<span>Saved to cart</span>');
    shadowOf('x-hidden', '<span>Secret banner</span>');
    expect(reads.waitCondition({ kind: 'text', arg: 'Order placed' })).toEqual({ status: 'ok', met: true });
    expect(reads.waitCondition({ kind: 'text', arg: 'Saved to cart' })).toEqual({ status: 'ok', met: true });
    expect(reads.waitCondition({ kind: 'text', arg: 'Secret banner' })).toEqual({ status: 'ok', met: false });
    expect(reads.waitCondition({ kind: 'text', arg: 'Nowhere' })).toEqual({ status: 'ok', met: false });
  });

  it('selector: met when one match is shown with a box; there but hidden says it exists', () => {
    document.body.innerHTML = '<div class="spinner" style="display:none"></div><div class="done" data-box="0 0 0 0"></div>';
    expect(reads.waitCondition({ kind: 'selector', arg: '.spinner' })).toEqual({ status: 'ok', met: false, exists: true });
    expect(reads.waitCondition({ kind: 'selector', arg: '.done' })).toEqual({ status: 'ok', met: false, exists: true });
    expect(reads.waitCondition({ kind: 'selector', arg: '.missing' })).toEqual({ status: 'ok', met: false, exists: false });
    document.body.insertAdjacentHTML('beforeend', '<x-host></x-host>');
    shadowOf('x-host', '<div class="done" data-box="0 0 10 10"></div>');
    expect(reads.waitCondition({ kind: 'selector', arg: '.done' })).toEqual({ status: 'ok', met: true, exists: true });
    expect(reads.waitCondition({ kind: 'selector', arg: '[' })).toMatchObject({ status: 'bad_selector' });
  });

  it('url answers where the document is; load whether it has loaded', () => {
    expect(reads.waitCondition({ kind: 'url', arg: '' })).toEqual({ status: 'ok', met: false, url: location.href });
    expect(reads.waitCondition({ kind: 'load', arg: '' })).toEqual({ status: 'ok', met: document.readyState === 'complete' });
  });
});

describe('focusReport', () => {
  it('says whether what has focus takes typed text', () => {
    document.body.innerHTML = '<input id="name" name="user"><input id="ro" readonly><input id="box" type="checkbox"><textarea id="ta"></textarea>';
    const focus = (id: string) => (document.getElementById(id) as HTMLElement).focus();
    focus('name');
    expect(reads.focusReport()).toEqual({ editable: true, description: 'input#name[name=user]' });
    focus('ro');
    expect(reads.focusReport()).toMatchObject({ editable: false });
    focus('box');
    expect(reads.focusReport()).toEqual({ editable: false, description: 'input#box[type=checkbox]' });
    focus('ta');
    expect(reads.focusReport()).toEqual({ editable: true, description: 'textarea#ta' });
    (document.activeElement as HTMLElement).blur();
    expect(reads.focusReport()).toEqual({ editable: false, description: 'nothing (the page body)' });
  });

  it('follows focus into an open shadow root', () => {
    document.body.innerHTML = '<x-search></x-search>';
    const root = shadowOf('x-search', '<input id="inner" type="search">');
    (root.getElementById('inner') as HTMLElement).focus();
    expect(reads.focusReport()).toEqual({ editable: true, description: 'input#inner[type=search]' });
  });
});

describe('style and elementBox', () => {
  it('style reads computed values on a ref, cuts a huge one, and passes a stale ref through', () => {
    document.body.innerHTML = `<div id="healed-card" style="color: red; background-image: url(data:image/png;base64,${'A'.repeat(5000)})"></div>`;
    const answer = reads.style({ ref: 'healed-card', properties: ['color', 'background-image'] });
    if (!('style' in answer)) throw new Error('stale');
    expect(answer.style.color).toBe('red');
    expect(answer.style['background-image']).toHaveLength(4096);
    expect(answer.truncated).toEqual(['background-image']);
    expect(answer.healed).toBe(true);
    expect(reads.style({ ref: 'gone', properties: ['color'] })).toEqual({ status: 'stale', reason: 'unknown_ref' });
  });

  it('elementBox: the box of the first match, none, or why the selector is not CSS', () => {
    document.body.innerHTML = '<div class="card" data-box="10 20 300 40"></div>';
    expect(reads.elementBox({ selector: '.card' })).toMatchObject({ found: true, x: 10, y: 20, width: 300, height: 40 });
    expect(reads.elementBox({ selector: '.none' })).toEqual({ found: false });
    expect(reads.elementBox({ selector: '..' })).toMatchObject({ status: 'bad_selector', message: expect.any(String) });
  });
});
