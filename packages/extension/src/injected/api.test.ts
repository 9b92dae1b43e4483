// @vitest-environment happy-dom
/**
 * The page API as the worker calls it, on small DOM fixtures: a page call reaches only the world whose stamp it
 * carries; refs are bound only when the worker commits the snapshot that computed them; a ref keeps naming its element,
 * heals onto a provable re-rendered copy and dies otherwise (changed, vanished, ambiguous, hidden); and its reads
 * never echo a secret.
 */
import { describe, expect, it } from 'vitest';
import { callExpression } from '../page/pageCall.js';
import { useFakeRendering } from '../testing/fakeRendering.js';
import { createPageApi } from './api.js';
import type { PageApi, PageNode, PageSnapshot } from './types.js';

useFakeRendering();

/** Every ref in a tree, with its line: `button "Save"`. */
function refsOf(tree: readonly PageNode[], out = new Map<string, string>()): Map<string, string> {
  for (const node of tree) {
    if (node.ref !== undefined) out.set(`${node.role} ${JSON.stringify(node.name ?? '')}`, node.ref);
    if (node.children !== undefined) refsOf(node.children, out);
  }
  return out;
}

/** Snapshot and commit (as the worker does once it stored the counter): the refs by `role "name"`. */
function snapshot(api: PageApi, nextRef = 1): { page: PageSnapshot; refs: Map<string, string> } {
  const page = api.snapshot({ nextRef });
  expect(api.commit({ token: page.token })).toEqual({ committed: true });
  return { page, refs: refsOf(page.tree) };
}

function refOf(refs: Map<string, string>, line: string): string {
  const ref = refs.get(line);
  if (ref === undefined) throw new Error(`no ${line} in ${[...refs.keys()].join(', ')}`);
  return ref;
}

/** Evaluate a page call as the worker sends it, in a global whose page script is `api`. */
function pageCall(expression: string, api: unknown): unknown {
  return (new Function('globalThis', `return ${expression};`) as (scope: object) => unknown)({ __chromeRelay: api });
}

describe('the stamp: a call reaches only its own world', () => {
  it('each installed API has its own random stamp', () => {
    const one = createPageApi();
    const two = createPageApi();
    expect(one.stamp).toMatch(/^[0-9a-f]{16}$/);
    expect(two.stamp).not.toBe(one.stamp);
  });

  it('a call carrying the stamp is answered, by the stamp and the JSON answer; another world answers 0', () => {
    const ours = createPageApi();
    const theirs = createPageApi();
    const call = callExpression('resolve', { ref: 'e1' }, ours.stamp);
    expect(pageCall(call, ours)).toBe(`${ours.stamp}:{"status":"stale","reason":"unknown_ref"}`);
    expect(pageCall(call, theirs)).toBe(0);
    // The first call, before the worker knows the stamp, learns it from the answer.
    expect(String(pageCall(callExpression('readyState', undefined, undefined), ours))).toMatch(new RegExp(`^${ours.stamp}:`));
  });

  it('installing twice keeps the first API, whose bindings the issued refs point at', async () => {
    const scope = globalThis as { __chromeRelay?: PageApi };
    // Read through a function: what the imports install is out of the type checker's sight.
    const installed = (): PageApi | undefined => scope.__chromeRelay;
    delete scope.__chromeRelay;
    try {
      await import('./index.js');
      const first = installed();
      expect(first?.version).toBe(1);
      // The same script evaluated again (two calls that both found the API missing): a module of its own.
      const again = './index.js?again';
      await import(/* @vite-ignore */ again);
      expect(installed()).toBe(first);
    } finally {
      delete scope.__chromeRelay;
    }
  });
});

describe('snapshot, then commit: refs exist only once the worker committed them', () => {
  it('numbers refs from the counter it is given, binds nothing until commit, and commits only its own token once', () => {
    document.body.innerHTML = '<button>Save</button><a href="/next">Next</a>';
    const api = createPageApi();
    const page = api.snapshot({ nextRef: 40 });
    expect([...refsOf(page.tree).entries()]).toEqual([
      ['button "Save"', 'e40'],
      ['link "Next"', 'e41'],
    ]);
    expect(page.nextRef).toBe(42);
    expect(page.refCount).toBe(2);
    expect(api.resolve({ ref: 'e40' })).toEqual({ status: 'stale', reason: 'unknown_ref' });
    expect(api.commit({ token: 'not-it' })).toEqual({ committed: false });
    expect(api.commit({ token: page.token })).toEqual({ committed: true });
    expect(api.resolve({ ref: 'e40' })).toEqual({ status: 'live', healed: false });
    expect(api.commit({ token: page.token })).toEqual({ committed: false });
  });

  it('a newer snapshot keeps the refs of elements still there, and drops those of elements gone for good', () => {
    document.body.innerHTML = '<button>Save</button><button id="x">Delete</button>';
    const api = createPageApi();
    const first = snapshot(api).refs;
    document.getElementById('x')?.remove();
    const second = snapshot(api, 10);
    expect(refOf(second.refs, 'button "Save"')).toBe(refOf(first, 'button "Save"'));
    expect(second.page.nextRef).toBe(10);
    expect(api.resolve({ ref: refOf(first, 'button "Delete"') })).toEqual({ status: 'stale', reason: 'unknown_ref' });
  });

  it('a scope that matches nothing computes nothing and says why', () => {
    document.body.innerHTML = '<button>Save</button>';
    const api = createPageApi();
    expect(api.snapshot({ nextRef: 1, scope: { selector: '#missing' } })).toMatchObject({ tree: [], refCount: 0, scopeMissing: 'no element matches the scope selector "#missing"' });
    expect(api.snapshot({ nextRef: 1, scope: { selector: '[' } })).toMatchObject({ tree: [], refCount: 0, scopeRefused: { status: 'bad_selector' } });
    expect(api.snapshot({ nextRef: 1, scope: { ref: 'e9' } })).toMatchObject({ scopeMissing: 'scope @e9 is stale (unknown_ref)' });
  });
});

describe('a ref names one element, or is stale and says why', () => {
  it('changed: the element is there but no longer what the agent saw', () => {
    document.body.innerHTML = '<button id="b">Follow</button>';
    const api = createPageApi();
    const ref = refOf(snapshot(api).refs, 'button "Follow"');
    const button = document.getElementById('b');
    if (button === null) throw new Error('fixture');
    button.textContent = 'Following';
    expect(api.resolve({ ref })).toEqual({ status: 'stale', reason: 'changed' });
    expect(api.element({ ref })).toBeNull();
  });

  it('healed: the element was re-rendered as one provable copy, and the ref moves to it', () => {
    document.body.innerHTML = '<div id="list"><button>Archive</button></div>';
    const api = createPageApi();
    const ref = refOf(snapshot(api).refs, 'button "Archive"');
    const list = document.getElementById('list');
    if (list === null) throw new Error('fixture');
    list.innerHTML = '<button>Archive</button>';
    expect(api.resolve({ ref })).toEqual({ status: 'live', healed: true });
    expect(api.element({ ref })).toBe(list.querySelector('button'));
    expect(api.resolve({ ref })).toEqual({ status: 'live', healed: false });
  });

  it('vanished, or ambiguous when two copies could be it: never a guess', () => {
    document.body.innerHTML = '<div id="list"><button>Archive</button></div>';
    const api = createPageApi();
    const ref = refOf(snapshot(api).refs, 'button "Archive"');
    const list = document.getElementById('list');
    if (list === null) throw new Error('fixture');
    list.innerHTML = '<button>Archive</button><button>Archive</button>';
    expect(api.resolve({ ref })).toEqual({ status: 'stale', reason: 'ambiguous' });
    list.innerHTML = '';
    expect(api.resolve({ ref })).toEqual({ status: 'stale', reason: 'vanished' });
  });

  it('twins (same role, name and context) are never healed by position', () => {
    document.body.innerHTML = '<ul id="rows"><li><button>Remove</button></li><li><button>Remove</button></li></ul>';
    const api = createPageApi();
    const page = api.snapshot({ nextRef: 1 });
    api.commit({ token: page.token });
    const rows = document.getElementById('rows');
    if (rows === null) throw new Error('fixture');
    rows.innerHTML = '<li><button>Remove</button></li><li><button>Remove</button></li>';
    expect(api.resolve({ ref: 'e1' })).toEqual({ status: 'stale', reason: 'ambiguous' });
    expect(api.resolve({ ref: 'e2' })).toEqual({ status: 'stale', reason: 'ambiguous' });
  });

  it('hidden: kept while the element is hidden, usable again once it shows', () => {
    document.body.innerHTML = '<div id="menu"><button>Rename</button></div><button>Open</button>';
    const api = createPageApi();
    const ref = refOf(snapshot(api).refs, 'button "Rename"');
    const menu = document.getElementById('menu');
    if (menu === null) throw new Error('fixture');
    menu.style.display = 'none';
    const hidden = snapshot(api, 10).page;
    expect(hidden.hidden).toEqual([[ref, 'button', 'Rename']]);
    expect(api.resolve({ ref })).toEqual({ status: 'stale', reason: 'hidden' });
    menu.style.display = '';
    expect(api.resolve({ ref })).toEqual({ status: 'live', healed: false });
  });

  it('a press on a disabled control is refused before anything is armed', () => {
    document.body.innerHTML = '<button disabled>Pay</button>';
    const api = createPageApi();
    const ref = refOf(snapshot(api).refs, 'button "Pay"');
    expect(api.prepareClick({ ref, arm: ['press', 'release'] })).toEqual({ status: 'disabled', healed: false });
  });
});

describe('actions and reads by ref', () => {
  it("a password is typed, never read back: fill plans typing; value, text and the value attribute are masked", () => {
    document.body.innerHTML = '<label>Password <input type="password" value="hunter2"></label><label>Name <input value="Ada"></label>';
    const api = createPageApi();
    const { refs } = snapshot(api);
    const password = refOf(refs, 'textbox "Password"');
    expect(api.fill({ ref: password, value: 'new-secret' })).toEqual({ status: 'typing', plan: 'typed', healed: false });
    expect(api.value({ ref: password })).toEqual({ status: 'ok', value: 'hunter2', secret: true });
    for (const args of [{ what: 'value' }, { what: 'text' }, { what: 'attr', name: 'value' }, { what: 'attr', name: 'Value' }] as const) {
      expect(api.read({ ref: password, ...args }), JSON.stringify(args)).toEqual({ status: 'ok', value: '••••••', healed: false });
    }
    expect(api.read({ ref: refOf(refs, 'textbox "Name"'), what: 'value' })).toEqual({ status: 'ok', value: 'Ada', healed: false });
    expect(api.value({ ref: refOf(refs, 'textbox "Name"') })).toEqual({ status: 'ok', value: 'Ada', secret: false });
  });

  it('select, check state and fill of a picker act on the ref\'s element; refusals and stale refs come back as values', () => {
    document.body.innerHTML = '<label>Size <select><option>S</option><option>M</option></select></label><label><input type="checkbox" checked> Gift</label><label>Day <input type="date"></label><div>Plain text</div>';
    const api = createPageApi();
    const { refs } = snapshot(api);
    expect(api.select({ ref: refOf(refs, 'combobox "Size"'), values: ['M'] })).toMatchObject({ status: 'done', healed: false });
    // (Read from the select: happy-dom keeps a select's selectedOptions from its first read, the snapshot's.)
    expect(document.querySelector('select')?.value).toBe('M');
    expect(api.checkState({ ref: refOf(refs, 'checkbox "Gift"') })).toEqual({ status: 'ok', checked: 'true', radio: false, healed: false });
    expect(api.fill({ ref: refOf(refs, 'textbox "Day"'), value: '2024-05-31' })).toEqual({ status: 'done', value: '2024-05-31', healed: false });
    expect(api.fill({ ref: refOf(refs, 'checkbox "Gift"'), value: 'x' })).toMatchObject({ status: 'refused', reason: expect.stringContaining('chrome-relay check') });
    for (const call of [() => api.fill({ ref: 'e99', value: 'x' }), () => api.read({ ref: 'e99', what: 'text' }), () => api.focus({ ref: 'e99' }), () => api.value({ ref: 'e99' })]) {
      expect(call()).toEqual({ status: 'stale', reason: 'unknown_ref' });
    }
  });
});

describe('listener hints', () => {
  it('a document wants its listeners read until it is handed them, and again once elements come or go', async () => {
    document.body.innerHTML = '<div id="zone">Drop here</div><button onclick="go()">Go</button><a onmousedown="x()" ondblclick="y()">A</a><p ondblclick="z()">P</p>';
    const api = createPageApi();
    // Due for a read: with the count of elements whose inline handlers are click-type ones (the read needs it).
    expect(api.listenerScanState()).toEqual({ stale: true, known: [], inlineClicks: 2 });
    expect(api.documentNode()).toBe(document);
    const zone = document.getElementById('zone');
    if (zone === null) throw new Error('fixture');
    expect(api.noteListeners([], [7], [zone])).toBe(1);
    expect(api.listenerScanState()).toEqual({ stale: false, known: [7], inlineClicks: -1 });
    // Text alone changing keeps the read.
    zone.textContent = 'Drop files here';
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(api.listenerScanState().stale).toBe(false);
    document.body.append(document.createElement('section'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(api.listenerScanState()).toEqual({ stale: true, known: [7], inlineClicks: 2 });
  });

  it('a hinted element gets a ref in the next snapshot though nothing else says it can be acted on', () => {
    document.body.innerHTML = '<div id="zone">Drop here</div>';
    const api = createPageApi();
    expect(refsOf(api.snapshot({ nextRef: 1 }).tree).size).toBe(0);
    const zone = document.getElementById('zone');
    if (zone === null) throw new Error('fixture');
    api.noteListeners([], [7], [zone]);
    expect([...refsOf(api.snapshot({ nextRef: 1 }).tree).keys()]).toEqual(['generic "Drop here"']);
  });
});
