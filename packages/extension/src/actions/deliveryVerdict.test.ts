import { describe, expect, it } from 'vitest';
import type { GuardEvent, GuardReport } from '../injected/types.js';
import { classifyDelivery } from './deliveryVerdict.js';

const seen = (type: string, phase: GuardEvent['phase'], ok = true): GuardEvent => ({ type, phase, ok });
const report = (events: GuardEvent[], extra: Partial<GuardReport> = {}): GuardReport => ({ armed: true, events, ...extra });
const decoy = { tag: 'button', nodeName: 'BUTTON', candidate: 1, id: 'decoy', className: '', role: '', name: 'Decoy' };
const pointer = [seen('pointerover', 'pointer'), seen('mouseover', 'pointer'), seen('pointermove', 'pointer'), seen('mousemove', 'pointer')];
const press = [seen('pointerdown', 'press'), seen('mousedown', 'press')];
const release = [seen('pointerup', 'release'), seen('mouseup', 'release'), seen('click', 'release')];

describe('classifyDelivery: click', () => {
  it('is delivered when the element got the press and the release, and nothing went elsewhere', () => {
    expect(classifyDelivery('click', report([...pointer, ...press, ...release]))).toEqual({ delivered: true });
  });

  it('is delivered with no pointer events at all (the pointer was already there)', () => {
    expect(classifyDelivery('click', report([...press, ...release]))).toEqual({ delivered: true });
  });

  it('before_pointer: the first event already went to something else (the target moved away)', () => {
    const verdict = classifyDelivery('click', report([seen('pointerover', 'pointer', false)], { interceptor: decoy }));
    expect(verdict).toEqual({ delivered: false, when: 'before_pointer', interceptor: decoy, from: 0 });
  });

  it('after_pointer: the pointer reached the element, the press went to a decoy (overlay on hover, swap on move)', () => {
    const verdict = classifyDelivery('click', report([...pointer, seen('pointerdown', 'press', false)], { interceptor: decoy }));
    expect(verdict).toEqual({ delivered: false, when: 'after_pointer', interceptor: decoy, from: 0 });
  });

  it('on_press: the element got the press, the release went elsewhere (overlay on pointerdown)', () => {
    const verdict = classifyDelivery('click', report([...pointer, ...press, seen('pointerup', 'release', false)], { interceptor: decoy }));
    expect(verdict).toEqual({ delivered: false, when: 'on_press', interceptor: decoy, from: 0 });
  });

  it('only events before the first stray one count towards how far it got', () => {
    // Everything after the stray event is cancelled and logged no further; a later ok entry (a
    // person's own mouse) must not promote the verdict.
    const events = [seen('pointerover', 'pointer', false), seen('pointerdown', 'press')];
    expect(classifyDelivery('click', report(events, { interceptor: decoy }))).toMatchObject({ when: 'before_pointer' });
  });

  it('is never delivered when the press was not seen at all (it went to another frame, or a page listener ate it)', () => {
    expect(classifyDelivery('click', report([]))).toEqual({ delivered: false, when: 'before_pointer' });
    expect(classifyDelivery('click', report(pointer))).toEqual({ delivered: false, when: 'after_pointer' });
    expect(classifyDelivery('click', report([], { armed: false }))).toEqual({ delivered: false, when: 'before_pointer' });
  });

  it('is never delivered when the press arrived but no release did', () => {
    expect(classifyDelivery('click', report([...pointer, ...press]))).toEqual({ delivered: false, when: 'on_press' });
  });

  it('a frame above the element that saw a press is an interception, named by that frame', () => {
    const parent = report([seen('pointerdown', 'press', false)], { interceptor: { tag: 'iframe', nodeName: 'IFRAME', candidate: 1, id: 'ad', className: '', role: '', name: 'Ad' } });
    expect(classifyDelivery('click', report(pointer), [report([]), parent])).toEqual({
      delivered: false,
      when: 'after_pointer',
      interceptor: { tag: 'iframe', nodeName: 'IFRAME', candidate: 1, id: 'ad', className: '', role: '', name: 'Ad' },
      // The second frame above named it: the world to identify it in.
      from: 2,
    });
  });

  it('frames above that only saw the pointer pass over their iframe do not matter', () => {
    const parent = report([seen('mouseover', 'pointer'), seen('mousemove', 'pointer')]);
    expect(classifyDelivery('click', report([...press, ...release]), [parent])).toEqual({ delivered: true });
  });
});

describe('classifyDelivery: press (a drag source)', () => {
  it('needs the press only', () => {
    expect(classifyDelivery('press', report([...pointer, ...press]))).toEqual({ delivered: true });
    expect(classifyDelivery('press', report(pointer))).toEqual({ delivered: false, when: 'after_pointer' });
  });
});

describe('classifyDelivery: hover', () => {
  it('is delivered when nothing went elsewhere and the pointer is over the element afterwards', () => {
    expect(classifyDelivery('hover', report(pointer, { probe: { reaches: true, hovered: true } }))).toEqual({ delivered: true });
  });

  it('is delivered for a repeated hover that produced no events (the browser still has it hovered)', () => {
    expect(classifyDelivery('hover', report([], { probe: { reaches: true, hovered: true } }))).toEqual({ delivered: true });
  });

  it('after_pointer: the element got the pointer, then something appeared over the point', () => {
    const verdict = classifyDelivery('hover', report(pointer, { probe: { reaches: false, hovered: true, hit: decoy } }));
    expect(verdict).toEqual({ delivered: false, when: 'after_pointer', interceptor: decoy, from: 0 });
  });

  it('gave way: afterwards what is at the point holds the element, which has no box there (its hover image is loading)', () => {
    const toolbar = { ...decoy, tag: 'div', nodeName: 'DIV', id: 'toolbar', name: 'Toolbar' };
    const verdict = classifyDelivery('hover', report(pointer, { probe: { reaches: false, hovered: true, hit: toolbar, gaveWay: true } }));
    expect(verdict).toEqual({ delivered: false, when: 'after_pointer', interceptor: toolbar, from: 0, gaveWay: true });
  });

  it('before_pointer: the move went to another element (and was cancelled)', () => {
    const verdict = classifyDelivery('hover', report([seen('pointerover', 'pointer', false)], { interceptor: decoy, probe: { reaches: false, hovered: false, hit: decoy } }));
    expect(verdict).toEqual({ delivered: false, when: 'before_pointer', interceptor: decoy, from: 0 });
  });

  it('is not delivered when the point reaches the element but the browser does not have the pointer on it', () => {
    expect(classifyDelivery('hover', report([], { probe: { reaches: true, hovered: false } }))).toEqual({ delivered: false, when: 'before_pointer' });
  });
});

describe('classifyDelivery: an element that removes itself when pressed', () => {
  it('is on_press, marked gone, when the release then went to whatever is there now', () => {
    const verdict = classifyDelivery('click', report([...press, seen('pointerup', 'release', false)], { interceptor: decoy, gone: true }));
    expect(verdict).toEqual({ delivered: false, when: 'on_press', interceptor: decoy, from: 0, gone: true });
  });

  it('gone only qualifies on_press: a pointer that never reached it says nothing about its leaving', () => {
    const verdict = classifyDelivery('click', report([seen('pointerover', 'pointer', false)], { interceptor: decoy, gone: true }));
    expect(verdict).toEqual({ delivered: false, when: 'before_pointer', interceptor: decoy, from: 0 });
  });

  it('gave way: an element that shrank or moved under the pointer before the press, so the press went to what holds it', () => {
    const toolbar = { ...decoy, tag: 'div', nodeName: 'DIV', id: 'toolbar', name: 'Toolbar' };
    const after = classifyDelivery('click', report([...pointer, seen('pointerdown', 'press', false)], { interceptor: toolbar, gaveWay: true }));
    expect(after).toEqual({ delivered: false, when: 'after_pointer', interceptor: toolbar, from: 0, gaveWay: true });
    const before = classifyDelivery('click', report([seen('pointerover', 'pointer', false)], { interceptor: toolbar, gaveWay: true }));
    expect(before).toMatchObject({ when: 'before_pointer', gaveWay: true });
  });

  it('gave way never qualifies on_press: the element had the press, its handlers ran, so the click is not free to repeat', () => {
    const verdict = classifyDelivery('click', report([...pointer, ...press, seen('pointerup', 'release', false)], { interceptor: decoy, gaveWay: true }));
    expect(verdict).toEqual({ delivered: false, when: 'on_press', interceptor: decoy, from: 0 });
  });
});

describe('classifyDelivery: a press that visibly acted', () => {
  const opened = { what: 'opened' as const, popup: { role: 'listbox', name: '' } };

  it('on_press with an effect is delivered: the release went to what the press opened, and was held back', () => {
    const listbox = { ...decoy, tag: 'div', nodeName: 'DIV', role: 'listbox', name: '' };
    const verdict = classifyDelivery('click', report([...pointer, seen('pointerdown', 'press'), seen('pointerup', 'release', false)], { interceptor: listbox, acted: opened }));
    expect(verdict).toEqual({ delivered: true, acted: opened, releaseHeld: true });
  });

  it('an item chosen on the press that left the page: delivered, selected', () => {
    const selected = { what: 'selected' as const };
    const verdict = classifyDelivery('click', report([...press, seen('pointerup', 'release'), seen('mouseup', 'release', false)], { interceptor: decoy, gone: true, acted: selected }));
    expect(verdict).toEqual({ delivered: true, acted: selected, releaseHeld: true });
  });

  it('a whole click says what it did, and nothing was held back', () => {
    expect(classifyDelivery('click', report([...pointer, ...press, ...release], { acted: opened }))).toEqual({ delivered: true, acted: opened });
  });

  it('a press that went elsewhere is never a success, whatever the page says happened', () => {
    for (const events of [[seen('pointerover', 'pointer', false)], [...pointer, seen('pointerdown', 'press', false)]]) {
      const verdict = classifyDelivery('click', report(events, { interceptor: decoy, acted: opened }));
      expect(verdict.delivered).toBe(false);
    }
  });

  it('a press that acted is enough when no release was seen at all (another frame took it); hover and a drag source gain nothing', () => {
    expect(classifyDelivery('click', report([...press], { acted: opened }))).toEqual({ delivered: true, acted: opened, releaseHeld: true });
    expect(classifyDelivery('press', report([...press], { acted: opened }))).toEqual({ delivered: true });
    expect(classifyDelivery('hover', report([...pointer], { interceptor: decoy, acted: opened })).delivered).toBe(false);
  });
});
