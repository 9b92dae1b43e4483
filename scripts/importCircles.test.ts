import { describe, expect, it } from 'vitest';
import { areaGraph, areaOf, circlesOf } from './importCircles.mjs';

type Graph = Map<string, string[]>;
const graphOf = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges));
const circles = (edges: Record<string, string[]>): string[][] => circlesOf(graphOf(edges)) as string[][];

describe('circlesOf', () => {
  it('finds two files that import each other, and a longer loop as one circle', () => {
    expect(circles({ a: ['b'], b: ['a'] })).toEqual([['a', 'b']]);
    expect(circles({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [] })).toEqual([['a', 'b', 'c']]);
  });

  it('finds a file that imports itself, and several circles apart', () => {
    expect(circles({ a: ['a'], b: ['c'], c: ['b'] })).toEqual([['a'], ['b', 'c']]);
  });

  it('finds none in a chain or a diamond, nor through a file outside the graph', () => {
    expect(circles({ a: ['b', 'c'], b: ['d'], c: ['d'], d: ['x'] })).toEqual([]);
  });

  it('walks a long chain without overflowing the stack', () => {
    const edges: Record<string, string[]> = {};
    for (let i = 0; i < 50_000; i++) edges[`f${i}`] = [`f${i + 1}`];
    edges.f50000 = ['f0'];
    expect(circles(edges)[0]).toHaveLength(50_001);
  });
});

describe('areaGraph', () => {
  it('names a package by its folder, e2e and scripts as a whole', () => {
    expect(areaOf('packages/extension/src/a.ts')).toBe('packages/extension');
    expect(areaOf('e2e/fixtures/x.ts')).toBe('e2e');
    expect(areaOf('scripts/torture/main.ts')).toBe('scripts');
  });

  it('makes a circle of two areas whose files import each other, though no two files do', () => {
    const { graph, witness } = areaGraph(
      graphOf({ 'e2e/a.ts': ['scripts/torture/prng.ts'], 'scripts/torture/prng.ts': [], 'scripts/bench.ts': ['e2e/harness.ts'], 'e2e/harness.ts': [] }),
    );
    expect(circlesOf(graphOf({}))).toEqual([]);
    expect(circlesOf(graph)).toEqual([['e2e', 'scripts']]);
    expect(witness.get('e2e scripts')).toBe('e2e/a.ts → scripts/torture/prng.ts');
  });

  it('has no circle when the areas import downwards only', () => {
    const { graph } = areaGraph(graphOf({ 'scripts/bench.ts': ['e2e/harness.ts', 'packages/protocol/src/index.ts'], 'e2e/harness.ts': ['packages/protocol/src/index.ts'], 'packages/protocol/src/index.ts': [] }));
    expect(circlesOf(graph)).toEqual([]);
  });
});
