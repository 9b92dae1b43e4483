import { describe, expect, it } from 'vitest';
import { admits, atPoint, checks, DeliveryGuard, GUARDED_EVENTS, madeRoom, type Box, type Moves } from './delivery.js';

describe('admits: the lineage rule of the delivery guard', () => {
  const all = Object.entries(GUARDED_EVENTS);

  it('in the ref’s frame, every checked event may go to the element (or inside it)', () => {
    for (const [type, phase] of all) expect(admits('target', type, phase, 'inside'), type).toBe(true);
  });

  it('in the ref’s frame, nothing may go to an unrelated element', () => {
    for (const [type, phase] of all) expect(admits('target', type, phase, 'other'), type).toBe(false);
  });

  it('enter events also fire on the element’s ancestors; nothing else may go there', () => {
    const allowed = all.filter(([type, phase]) => admits('target', type, phase, 'ancestor')).map(([type]) => type);
    expect(allowed.sort()).toEqual(['mouseenter', 'pointerenter']);
  });

  it('in a frame above, the pointer may pass over the iframe, but no press or release belongs there', () => {
    for (const [type, phase] of all) expect(admits('owner', type, phase, 'inside'), type).toBe(phase === 'pointer');
    for (const [type, phase] of all) expect(admits('owner', type, phase, 'other'), type).toBe(false);
  });

  it('at the end of a drag, the release and the drop must land inside the drop target; nothing may go to an ancestor or elsewhere', () => {
    for (const [type, phase] of all) {
      expect(admits('drop', type, phase, 'inside'), type).toBe(true);
      expect(admits('drop', type, phase, 'ancestor'), type).toBe(false);
      expect(admits('drop', type, phase, 'other'), type).toBe(false);
    }
  });

  it('at the end of a drag, click-like events are not checked: they fire where the source and the target meet', () => {
    for (const type of ['click', 'auxclick', 'dblclick', 'contextmenu']) expect(checks('drop', type), type).toBe(false);
    for (const type of ['pointerup', 'mouseup', 'dragenter', 'dragover', 'drop']) expect(checks('drop', type), type).toBe(true);
    for (const [type] of all) expect(checks('target', type), type).toBe(true);
  });

  it('does not check out/leave events: they name where the pointer came from', () => {
    for (const type of ['pointerout', 'pointerleave', 'mouseout', 'mouseleave', 'dragleave']) expect(GUARDED_EVENTS[type]).toBeUndefined();
  });
});

describe('atPoint: only events at the action’s point are the action’s', () => {
  it('takes events at the point, within rounding', () => {
    expect(atPoint(100, 50, { x: 100, y: 50 })).toBe(true);
    expect(atPoint(101.5, 48.6, { x: 100, y: 50 })).toBe(true);
  });

  it('ignores events elsewhere (a resting pointer the page moved under)', () => {
    expect(atPoint(100, 423, { x: 100, y: 50 })).toBe(false);
    expect(atPoint(140, 50, { x: 100, y: 50 })).toBe(false);
  });
});

describe('DeliveryGuard: an arming replaced by another', () => {
  // Arming and reading need no DOM events; an element only has to say whether it is still in the document.
  const element = { isConnected: true } as unknown as Element;
  const guardOn = (): DeliveryGuard => new DeliveryGuard(new EventTarget() as unknown as Window);

  it('stays readable and says it was superseded, so a late reader never takes "nothing arrived" for an answer', () => {
    const guard = guardOn();
    const first = guard.arm(element, 'target', ['pointer', 'press', 'release'], { x: 10, y: 10 });
    const second = guard.arm(element, 'target', ['pointer', 'press', 'release'], { x: 50, y: 10 });
    expect(guard.read(first, true)).toMatchObject({ events: [], superseded: true });
    expect(guard.read(second, false)).toMatchObject({ events: [], superseded: false });
    // A token never issued here is unknown, not superseded.
    expect(guard.read('nope', true)).toBeUndefined();
  });

  it('keeps a bounded number of replaced armings', () => {
    const guard = guardOn();
    const tokens = Array.from({ length: 12 }, (_, i) => guard.arm(element, 'target', ['pointer'], { x: i, y: 0 }));
    expect(guard.read(tokens[0] ?? '', false)).toBeUndefined();
    expect(guard.read(tokens[10] ?? '', false)?.superseded).toBe(true);
    expect(guard.read(tokens[11] ?? '', false)?.superseded).toBe(false);
  });
});

describe('madeRoom: a release beside a drop target that moved aside for the dragged element', () => {
  // A sortable list at (40, 40), 200 × 160; the drop point in its third slot, where the target was.
  const point = { x: 140, y: 170 };
  const box = (left: number, top: number, width = 200, height = 40): Box => ({ left, top, width, height });
  const stay = (at: Box): Moves => ({ then: at, now: at });
  const list = stay(box(40, 40, 200, 160));
  const target: Moves = { then: box(40, 150), now: box(40, 100) };
  const source: Moves = { then: box(40, 50), now: box(40, 150) };

  it('is the drop when the target moved off the point, the dragged element came onto it, and the list took the release where it stood', () => {
    expect(madeRoom(point, target, source, list)).toBe(true);
  });

  it('is not when the target is still under the point, or was never there', () => {
    expect(madeRoom(point, { then: box(40, 150), now: box(41, 150) }, source, list)).toBe(false);
    expect(madeRoom(point, { then: box(40, 300), now: box(40, 100) }, source, list)).toBe(false);
  });

  it('is not when nothing dragged came to the point: a zone that jumps aside from a handle that stayed put', () => {
    expect(madeRoom(point, target, stay(box(40, 50)), list)).toBe(false);
    expect(madeRoom(point, target, { then: box(40, 50), now: box(300, 150) }, list)).toBe(false);
    expect(madeRoom(point, target, null, list)).toBe(false);
  });

  it('is not when what took the release did not hold the target as the drop began (a sheet laid over the page, the target moved into it)', () => {
    expect(madeRoom(point, target, source, undefined)).toBe(false);
  });

  it('is not when what took the release moved or grew under the point', () => {
    expect(madeRoom(point, target, source, { then: box(400, 40, 200, 160), now: box(40, 40, 200, 160) })).toBe(false);
    expect(madeRoom(point, target, source, { then: box(40, 40, 200, 100), now: box(40, 40, 200, 160) })).toBe(false);
  });
});
