// @vitest-environment happy-dom
/**
 * What a press visibly did, judged from the control's own state before and after it: the evidence that lets a click
 * whose release went elsewhere (a popup drawn over the point) still count as delivered. Only the control's own
 * popups and states count; an interstitial of no relation proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { useFakeRendering } from '../testing/fakeRendering.js';
import { beforePress, pressEffect, subjectOf } from './pressEffects.js';

useFakeRendering();

function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`no #${id}`);
  return element;
}

describe('subjectOf: the control a press presses', () => {
  it('the nearest ancestor carrying state (an icon inside a trigger), else the element the agent named', () => {
    document.body.innerHTML = '<div id="menu-button" aria-haspopup="menu"><span><svg id="icon"></svg></span></div><div id="plain"><span id="text">x</span></div>';
    expect(subjectOf(byId('icon'), byId('icon'))).toBe(byId('menu-button'));
    expect(subjectOf(byId('text'), byId('plain'))).toBe(byId('plain'));
  });
});

describe('pressEffect', () => {
  it('opened: aria-expanded turned true and the popup it controls showed', () => {
    document.body.innerHTML = '<button id="b" aria-expanded="false" aria-controls="list">Fruit</button><div id="list" role="listbox" aria-label="Fruits" style="display:none"></div>';
    const before = beforePress(byId('b'));
    byId('b').setAttribute('aria-expanded', 'true');
    byId('list').style.display = '';
    expect(pressEffect(before)).toEqual({ what: 'opened', popup: { role: 'listbox', name: 'Fruits' } });
  });

  it('expanded, or collapsed and closed, by aria-expanded alone', () => {
    document.body.innerHTML = '<button id="b" aria-expanded="false">More</button>';
    let before = beforePress(byId('b'));
    byId('b').setAttribute('aria-expanded', 'true');
    expect(pressEffect(before)).toEqual({ what: 'expanded' });
    document.body.innerHTML = '<button id="b" aria-expanded="true" aria-controls="m">More</button><div id="m" role="menu" aria-label="Actions"></div>';
    before = beforePress(byId('b'));
    byId('b').setAttribute('aria-expanded', 'false');
    byId('m').style.display = 'none';
    expect(pressEffect(before)).toEqual({ what: 'closed', popup: { role: 'menu', name: 'Actions' } });
  });

  it('checked, unchecked, pressed and selected, from the control\'s own state', () => {
    document.body.innerHTML = '<input id="c" type="checkbox"><div id="s" role="switch" aria-checked="true"></div><button id="p" aria-pressed="false">Bold</button><div id="t" role="tab" aria-selected="false">Two</div>';
    const box = byId('c') as HTMLInputElement;
    const checks = [beforePress(box), beforePress(byId('s')), beforePress(byId('p')), beforePress(byId('t'))];
    box.checked = true;
    byId('s').setAttribute('aria-checked', 'false');
    byId('p').setAttribute('aria-pressed', 'true');
    byId('t').setAttribute('aria-selected', 'true');
    expect(checks.map((before) => pressEffect(before))).toEqual([{ what: 'checked' }, { what: 'unchecked' }, { what: 'pressed' }, { what: 'selected' }]);
  });

  it("a popup of the control's own counts without aria-expanded; one of no relation (an interstitial) does not", () => {
    document.body.innerHTML = '<button id="own" aria-haspopup="dialog">Share</button><button id="other">Buy</button><div id="d" role="dialog" aria-label="Share to" style="display:none"></div><div id="ad" role="dialog" aria-label="Sign up!" style="display:none"></div>';
    const own = beforePress(byId('own'));
    byId('d').style.display = '';
    expect(pressEffect(own)).toEqual({ what: 'opened', popup: { role: 'dialog', name: 'Share to' } });
    byId('d').style.display = 'none';
    const other = beforePress(byId('other'));
    byId('ad').style.display = '';
    expect(pressEffect(other)).toBeUndefined();
  });

  it('a menu item that left with its menu was chosen; an option only when its control shows another value', () => {
    document.body.innerHTML = '<div id="menu" role="menu"><div id="item" role="menuitem">Delete</div></div>';
    const chosen = beforePress(byId('item'));
    byId('menu').remove();
    expect(pressEffect(chosen)).toEqual({ what: 'chosen' });

    document.body.innerHTML = '<input id="combo" role="combobox" aria-controls="opts" value="Apple"><div id="opts" role="listbox"><div id="o2" role="option">Pear</div></div>';
    let picked = beforePress(byId('o2'));
    byId('opts').style.display = 'none';
    (byId('combo') as HTMLInputElement).value = 'Pear';
    expect(pressEffect(picked)).toEqual({ what: 'selected' });

    document.body.innerHTML = '<input id="combo" role="combobox" aria-controls="opts" value="Apple"><div id="opts" role="listbox"><div id="o2" role="option">Pear</div></div>';
    picked = beforePress(byId('o2'));
    byId('opts').style.display = 'none';
    // The list closed, but the control still shows what it showed: nothing proves the option was taken.
    expect(pressEffect(picked)).toBeUndefined();
  });

  it('a text field that got the focus was pressed for that; nothing that changed nothing has an effect', () => {
    document.body.innerHTML = '<input id="q"><button id="b">Plain</button>';
    const field = beforePress(byId('q'));
    byId('q').focus();
    expect(pressEffect(field)).toEqual({ what: 'focused' });
    expect(pressEffect(beforePress(byId('b')))).toBeUndefined();
  });
});
