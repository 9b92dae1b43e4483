import { describe, expect, it } from 'vitest';
import { snapshotTreeProblem } from './snapshotNode.js';
import { parseResult } from './validate.js';

describe('snapshot tree validation', () => {
  it('accepts a well-formed forest, deep or wide', () => {
    const deep = { role: 'list', children: [{ role: 'listitem', children: [{ role: 'button', name: 'Go', ref: 'e3', disabled: true }] }] };
    const wide = Array.from({ length: 5000 }, (_, i) => ({ role: 'row', name: `Row ${i}`, children: [{ role: 'button', name: 'Open', ref: `e${i + 1}` }] }));
    expect(snapshotTreeProblem([deep, { role: 'text', name: 'hi' }])).toBeNull();
    expect(snapshotTreeProblem(wide)).toBeNull();
  });

  it('names the first bad path: unknown keys, wrong types, bad refs and checked values', () => {
    expect(snapshotTreeProblem({})).toBe('tree: expected an array');
    expect(snapshotTreeProblem([{ name: 'x' }])).toBe('tree.0.role: expected a string');
    expect(snapshotTreeProblem([{ role: 'list', children: [{ role: 'x', onclick: 'steal()' }] }])).toBe('tree.0.children.0: unknown key "onclick"');
    expect(snapshotTreeProblem([{ role: 'button', ref: '@e1' }])).toBe('tree.0.ref: invalid value');
    expect(snapshotTreeProblem([{ role: 'checkbox', checked: true }])).toBe('tree.0.checked: invalid value');
    expect(snapshotTreeProblem([{ role: 'list', children: 'nope' }])).toBe('tree.0.children: invalid value');
    expect(snapshotTreeProblem([{ role: 'button', pressed: 'yes' }])).toBe('tree.0.pressed: invalid value');
    expect(snapshotTreeProblem([{ role: 'textbox', required: true, focused: true, multiline: true, richtext: false, pressed: 'mixed' }])).toBeNull();
  });

  it('is what the snapshot result schema enforces', () => {
    const good = { tabId: 1, url: 'u', title: 't', refCount: 0, tree: [{ role: 'text', name: 'a' }] };
    expect(parseResult('snapshot', good).tree).toHaveLength(1);
    expect(() => parseResult('snapshot', { ...good, tree: [{ role: 'text', bogus: 1 }] })).toThrow(/unknown key "bogus"/);
  });
});
