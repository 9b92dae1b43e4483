import { describe, expect, it } from 'vitest';
import type { GuardEvent, GuardReport } from '../injected/types.js';
import { classifyDrop } from './dropDelivery.js';

const seen = (type: string, phase: GuardEvent['phase'], ok = true): GuardEvent => ({ type, phase, ok });
const report = (events: GuardEvent[], extra: Partial<GuardReport> = {}): GuardReport => ({ armed: true, events, ...extra });
const decoy = { tag: 'div', nodeName: 'DIV', candidate: 1, id: 'decoy', className: '', role: '', name: 'Decoy zone' };

describe('classifyDrop', () => {
  it('is delivered when the release (pointer drag) or the drop events (HTML5) reached the target', () => {
    expect(classifyDrop(report([seen('pointerup', 'release'), seen('mouseup', 'release')]))).toEqual({ delivered: true });
    expect(classifyDrop(report([seen('dragenter', 'drop'), seen('dragover', 'drop'), seen('drop', 'drop')]))).toEqual({ delivered: true });
  });

  it('names what took the drop when something else got any of it', () => {
    expect(classifyDrop(report([seen('dragenter', 'drop'), seen('dragover', 'drop', false)], { interceptor: decoy }))).toEqual({ delivered: false, interceptor: decoy });
  });

  it('is not delivered when nothing of the drop arrived; what is at the point now is named', () => {
    expect(classifyDrop(report([]))).toEqual({ delivered: false });
    expect(classifyDrop(report([], { probe: { reaches: false, hovered: false, hit: decoy } }))).toEqual({ delivered: false, interceptor: decoy });
  });
});
