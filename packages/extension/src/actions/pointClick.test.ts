import { describe, expect, it } from 'vitest';
import type { GuardEvent, GuardReport } from '../injected/types.js';
import { classifyPointClick, pointClickMessage } from './pointClick.js';

const seen = (type: string, phase: GuardEvent['phase'], ok = true): GuardEvent => ({ type, phase, ok });
const report = (events: GuardEvent[], extra: Partial<GuardReport> = {}): GuardReport => ({ armed: true, events, ...extra });
const overlay = { tag: 'div', nodeName: 'DIV', candidate: 1, id: 'gate', className: '', role: '', name: 'Interstitial ad' };
const over = [seen('pointerover', 'pointer'), seen('mouseover', 'pointer')];
const press = [seen('pointerdown', 'press'), seen('mousedown', 'press')];
const release = [seen('pointerup', 'release'), seen('mouseup', 'release'), seen('click', 'release')];

describe('classifyPointClick: over an element (what was at the point must get the click)', () => {
  it('is delivered when the element got the press and the release', () => {
    expect(classifyPointClick(false, report([...over, ...press, ...release]))).toEqual({ delivered: true });
  });

  it('after_pointer: an overlay shown on mouseover took the press', () => {
    expect(classifyPointClick(false, report([...over, seen('pointerdown', 'press', false)], { interceptor: overlay }))).toEqual({
      delivered: false,
      when: 'after_pointer',
      interceptor: overlay,
      from: 0,
    });
  });

  it('is not delivered when nothing reached the element (no record proves a click)', () => {
    expect(classifyPointClick(false, report([])).delivered).toBe(false);
    expect(classifyPointClick(false, report([...over, ...press])).delivered).toBe(false);
  });
});

describe('classifyPointClick: over an iframe (the top document must take none of it)', () => {
  it('is delivered when the top document saw the pointer pass over the iframe and nothing else', () => {
    expect(classifyPointClick(true, report(over))).toEqual({ delivered: true });
    expect(classifyPointClick(true, report([]))).toEqual({ delivered: true });
  });

  it('is intercepted when an element of the top document took the press', () => {
    expect(classifyPointClick(true, report([...over, seen('pointerdown', 'press', false)], { interceptor: overlay }))).toEqual({
      delivered: false,
      when: 'after_pointer',
      interceptor: overlay,
      from: 0,
    });
  });
});

describe('pointClickMessage: the move fits what happened at the point', () => {
  const toolbar = { nodeName: 'DIV', id: 'toolbar', name: 'Toolbar', ref: 'e4' };

  it('an element that gave way is said to have, with nothing to dismiss', () => {
    const message = pointClickMessage({ x: 56, y: 76 }, '<span id="trash">', toolbar, { delivered: false, when: 'after_pointer', interceptor: { ...toolbar, tag: 'div', className: '', role: '', candidate: 1 }, gaveWay: true });
    expect(message).toContain('<span id="trash"> gave way under the pointer');
    expect(message).toContain('<div id="toolbar"> "Toolbar" (@e4), which holds it');
    expect(message).not.toMatch(/appears on hover|Dismiss/);
  });

  it('a cover that came on hover is to be dismissed, by its ref', () => {
    const message = pointClickMessage({ x: 56, y: 76 }, '<button>', toolbar, { delivered: false, when: 'after_pointer', interceptor: { ...toolbar, tag: 'div', className: '', role: '', candidate: 1 } });
    expect(message).toContain('after the pointer arrived (it appears on hover)');
    expect(message).toContain('chrome-relay snapshot -s @e4');
  });
});
