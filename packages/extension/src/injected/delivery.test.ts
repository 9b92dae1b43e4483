import { describe, expect, it } from 'vitest';
import { admits, GUARDED_EVENTS } from './delivery.js';

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

  it('does not check out/leave events: they name where the pointer came from', () => {
    for (const type of ['pointerout', 'pointerleave', 'mouseout', 'mouseleave']) expect(GUARDED_EVENTS[type]).toBeUndefined();
  });
});
