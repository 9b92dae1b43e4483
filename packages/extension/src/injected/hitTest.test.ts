import { describe, expect, it } from 'vitest';
import { candidatePoints } from './hitTest.js';

const view = { left: 0, top: 0, right: 800, bottom: 600 };
const rect = (left: number, top: number, width: number, height: number): DOMRect =>
  ({ left, top, right: left + width, bottom: top + height, width, height, x: left, y: top }) as DOMRect;

describe('candidatePoints', () => {
  it('tries the centre first, then the quarter points', () => {
    const points = candidatePoints([rect(100, 100, 102, 42)], view);
    expect(points[0]).toEqual({ x: 151, y: 121 });
    expect(points).toHaveLength(5);
    for (const p of points) {
      expect(p.x).toBeGreaterThan(100);
      expect(p.x).toBeLessThan(202);
      expect(p.y).toBeGreaterThan(100);
      expect(p.y).toBeLessThan(142);
    }
  });

  it('only uses the part inside the viewport', () => {
    const [centre] = candidatePoints([rect(700, 500, 200, 200)], view);
    expect(centre).toEqual({ x: 750, y: 550 });
  });

  it('has no point for an element entirely outside the viewport (the hit-test cannot run)', () => {
    expect(candidatePoints([rect(900, 100, 50, 50)], view)).toEqual([]);
  });

  it('starts with the largest visible piece of a wrapped inline element', () => {
    const points = candidatePoints([rect(700, 10, 20, 18), rect(0, 30, 300, 18)], view);
    expect(points[0]).toEqual({ x: 150, y: 39 });
    expect(points).toHaveLength(10);
  });

  it('keeps a point inside a 1-pixel element', () => {
    const [centre] = candidatePoints([rect(10, 10, 1, 1)], view);
    expect(centre).toEqual({ x: 10.5, y: 10.5 });
  });
});
