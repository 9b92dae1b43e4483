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
