import { describe, expect, it } from 'vitest';
import type { SnapshotNode } from '@chrome-relay/protocol';
import { ELIDE_RUN, shapeTree } from './snapshotShape.js';

const item = (ref: string, name = 'Add'): SnapshotNode => ({ role: 'listitem', children: [{ role: 'button', name, ref }] });

describe('shapeTree', () => {
  it('elides a long run of siblings identical apart from refs, keeping head and tail', () => {
    const list: SnapshotNode = { role: 'list', children: Array.from({ length: 30 }, (_, i) => item(`e${i + 1}`)) };
    const [shaped] = shapeTree([list], {});
    const children = shaped?.children ?? [];
    expect(children).toHaveLength(13);
    expect(children[10]).toEqual({ role: 'elided', name: expect.stringMatching(/^18 more listitem items .*18 refs not shown/) });
    expect(children[12]?.children?.[0]?.ref).toBe('e30');
  });

  it('never elides distinct items, a short run, or with elide:false', () => {
    const distinct: SnapshotNode = { role: 'list', children: Array.from({ length: 40 }, (_, i) => item(`e${i + 1}`, `Open ${i}`)) };
    expect(shapeTree([distinct], {})[0]?.children).toHaveLength(40);
    const short: SnapshotNode = { role: 'list', children: Array.from({ length: ELIDE_RUN }, (_, i) => item(`e${i + 1}`)) };
    expect(shapeTree([short], {})[0]?.children).toHaveLength(ELIDE_RUN);
    const long: SnapshotNode = { role: 'list', children: Array.from({ length: 30 }, (_, i) => item(`e${i + 1}`)) };
    expect(shapeTree([long], { elide: false })[0]?.children).toHaveLength(30);
  });

  it('interactive keeps actionable nodes and their ancestors only', () => {
    const tree: SnapshotNode[] = [
      { role: 'text', name: 'prose' },
      { role: 'navigation', name: 'Main', children: [{ role: 'text', name: 'x' }, { role: 'link', name: 'Home', ref: 'e1' }] },
      { role: 'list', children: [{ role: 'listitem', children: [{ role: 'text', name: 'only text' }] }] },
    ];
    expect(shapeTree(tree, { interactive: true })).toEqual([{ role: 'navigation', name: 'Main', children: [{ role: 'link', name: 'Home', ref: 'e1' }] }]);
  });

  it('depth replaces deeper children with a marker counting their refs', () => {
    const tree: SnapshotNode[] = [{ role: 'main', children: [{ role: 'list', children: [item('e1'), item('e2')] }] }];
    expect(shapeTree(tree, { depth: 1 })).toEqual([
      { role: 'main', children: [{ role: 'list', children: [{ role: 'elided', name: '2 children below --depth 1 (2 refs); raise --depth or use --scope' }] }] },
    ]);
  });
});

describe('shapeTree --interactive context', () => {
  const row = (i: number, ref: string): SnapshotNode => ({
    role: 'row',
    children: [
      { role: 'cell', name: `Item ${i}` },
      { role: 'cell', name: String(i * 37) },
      { role: 'cell', children: [{ role: 'button', name: 'Open', ref }] },
    ],
  });

  it('names rows whose controls look alike by the shortest start of their own text, and elides them loosely', () => {
    const table: SnapshotNode = { role: 'table', children: Array.from({ length: 30 }, (_, i) => row(i + 1, `e${i + 1}`)) };
    const shaped = shapeTree([table], { interactive: true });
    // The unnamed table and the cells give way to their content; each row keeps a summary.
    expect(shaped[0]).toEqual({ role: 'row', name: 'Item 1', children: [{ role: 'button', name: 'Open', ref: 'e1' }] });
    expect(shaped[9]?.name).toBe('Item 10');
    expect(shaped[10]).toEqual({ role: 'elided', name: '18 more row items like these but for their text (18 refs not shown; --no-elide shows them)' });
    expect(shaped).toHaveLength(13);
    expect(shapeTree([table], { interactive: true, elide: false })).toHaveLength(30);
  });

  it('keeps an unnamed item only to group controls one of which is ambiguous; unique controls stand alone', () => {
    const list: SnapshotNode = {
      role: 'list',
      children: [
        { role: 'listitem', children: [{ role: 'link', name: 'Home', ref: 'e1' }] },
        { role: 'listitem', children: [{ role: 'link', name: '^', ref: 'e2' }, { role: 'text', name: 'Hale (2011).' }, { role: 'link', name: 'Floods', ref: 'e3' }] },
        { role: 'listitem', children: [{ role: 'link', name: '^', ref: 'e4' }, { role: 'text', name: 'Marsh (1994).' }, { role: 'link', name: 'Weirs', ref: 'e5' }] },
      ],
    };
    expect(shapeTree([list], { interactive: true })).toEqual([
      { role: 'link', name: 'Home', ref: 'e1' },
      { role: 'listitem', children: [{ role: 'link', name: '^', ref: 'e2' }, { role: 'link', name: 'Floods', ref: 'e3' }] },
      { role: 'listitem', children: [{ role: 'link', name: '^', ref: 'e4' }, { role: 'link', name: 'Weirs', ref: 'e5' }] },
    ]);
  });

  it('an unnamed checkbox in each item reads as belonging to it', () => {
    const item = (title: string, ref: string): SnapshotNode => ({ role: 'listitem', children: [{ role: 'checkbox', ref }, { role: 'text', name: title }] });
    const shaped = shapeTree([{ role: 'list', children: [item('Write report', 'e1'), item('Buy milk', 'e2')] }], { interactive: true });
    expect(shaped).toEqual([
      { role: 'listitem', name: 'Write report', children: [{ role: 'checkbox', ref: 'e1' }] },
      { role: 'listitem', name: 'Buy milk', children: [{ role: 'checkbox', ref: 'e2' }] },
    ]);
  });

  it('a heading named like its only child, a link, does not repeat the name (full snapshots too)', () => {
    const heading: SnapshotNode = { role: 'heading', name: 'Headline', level: 3, children: [{ role: 'link', name: 'Headline', ref: 'e1' }] };
    const expected = [{ role: 'heading', level: 3, children: [{ role: 'link', name: 'Headline', ref: 'e1' }] }];
    expect(shapeTree([heading], {})).toEqual(expected);
    expect(shapeTree([heading], { interactive: true })).toEqual(expected);
  });
});

describe('a dropdown in --interactive', () => {
  it('lists every choice (no refs: a native popup takes no page pointer events) under its value, the selected one marked', () => {
    const dropdown: SnapshotNode = {
      role: 'combobox',
      name: 'Country',
      ref: 'e5',
      value: 'Chile',
      children: [
        { role: 'option', name: 'Chile', selected: true },
        { role: 'option', name: 'Peru' },
      ],
    };
    expect(shapeTree([{ role: 'form', name: 'Order', children: [dropdown] }], { interactive: true })).toEqual([
      {
        role: 'form',
        name: 'Order',
        children: [{ role: 'combobox', name: 'Country', ref: 'e5', value: 'Chile', children: [{ role: 'option', name: 'Chile', selected: true }, { role: 'option', name: 'Peru' }] }],
      },
    ]);
    // The full snapshot keeps every option.
    expect(shapeTree([dropdown], {})[0]?.children).toHaveLength(2);
  });
});

describe('a rich-text field in --interactive', () => {
  it('keeps its bold and italic runs under it, like its value', () => {
    const field: SnapshotNode = {
      role: 'textbox',
      name: 'Notes',
      ref: 'e8',
      richtext: true,
      value: 'A careful plan',
      children: [{ role: 'strong', name: 'careful' }],
    };
    expect(shapeTree([{ role: 'generic', children: [{ role: 'text', name: 'Notes' }, field] }], { interactive: true })).toEqual([field]);
  });
});
