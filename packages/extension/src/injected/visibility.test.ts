import { describe, expect, it } from 'vitest';
import {
  bigEnough,
  clipPathHides,
  clipRectHides,
  FULL_SIGHT,
  legibleFont,
  outside,
  paintsItself,
  sightOf,
  type Box,
  type PaintStyle,
  type Reach,
  type SightStyle,
} from './visibility.js';

const box = (left: number, top: number, width: number, height: number): Box => ({ left, top, width, height, right: left + width, bottom: top + height });
/** A stand-in for an element: only its box is ever asked for. */
const at = (b: Box) => ({ getBoundingClientRect: () => b as DOMRect });
const REACH: Reach = { document: { left: 0, top: 0, right: 1280, bottom: 3000 }, viewport: box(0, 0, 1280, 800) };
const reach = (): Reach => REACH;

const STATIC: SightStyle = { opacity: '1', position: 'static', overflow: 'visible', overflowX: 'visible', overflowY: 'visible', clip: 'auto', clipPath: 'none' };
const style = (changes: Partial<SightStyle>): SightStyle => ({ ...STATIC, ...changes });
const NORMAL = box(10, 10, 200, 30);

describe('sightOf', () => {
  it('passes an ordinary element through, sharing the parent sight object', () => {
    const outcome = sightOf(at(NORMAL), STATIC, 'block', FULL_SIGHT, reach);
    expect(outcome.seen).toBe(true);
    expect(outcome.inside).toBe(FULL_SIGHT);
  });

  it('multiplies opacity down the tree and hides below 10 %', () => {
    const half = sightOf(at(NORMAL), style({ opacity: '0.3' }), 'block', FULL_SIGHT, reach);
    expect(half.seen).toBe(true);
    const child = sightOf(at(NORMAL), style({ opacity: '0.3' }), 'block', half.inside, reach);
    expect(child.seen).toBe(false); // 0.09
    expect(sightOf(at(NORMAL), style({ opacity: '0' }), 'block', FULL_SIGHT, reach).seen).toBe(false);
    // Nothing inside can be seen either, whatever it says about itself.
    const zero = sightOf(at(NORMAL), style({ opacity: '0' }), 'block', FULL_SIGHT, reach);
    expect(zero.inside.shown).toBe(false);
    expect(sightOf(at(NORMAL), STATIC, 'block', zero.inside, reach).seen).toBe(false);
  });

  it('hides absolutely positioned boxes clipped to nothing (the sr-only pattern), not static ones', () => {
    expect(sightOf(at(box(0, 0, 1, 1)), style({ position: 'absolute', clip: 'rect(0px, 0px, 0px, 0px)' }), 'block', FULL_SIGHT, reach).seen).toBe(false);
    expect(sightOf(at(box(0, 0, 1, 1)), style({ position: 'absolute', clipPath: 'inset(50%)' }), 'block', FULL_SIGHT, reach).seen).toBe(false);
    expect(sightOf(at(NORMAL), style({ clip: 'rect(0px, 0px, 0px, 0px)' }), 'block', FULL_SIGHT, reach).seen).toBe(true);
  });

  it('hides positioned boxes entirely outside the scrollable document, and fixed ones outside the viewport', () => {
    expect(sightOf(at(box(-9999, 10, 100, 20)), style({ position: 'absolute' }), 'block', FULL_SIGHT, reach).seen).toBe(false);
    expect(sightOf(at(box(10, -500, 100, 20)), style({ position: 'relative' }), 'block', FULL_SIGHT, reach).seen).toBe(false);
    expect(sightOf(at(box(10, 900, 100, 20)), style({ position: 'fixed' }), 'block', FULL_SIGHT, reach).seen).toBe(false);
    // Merely below the fold, or touching the edge, is still content.
    expect(sightOf(at(box(10, 2900, 100, 20)), style({ position: 'absolute' }), 'block', FULL_SIGHT, reach).seen).toBe(true);
    expect(sightOf(at(box(-100, 10, 100, 20)), style({ position: 'absolute' }), 'block', FULL_SIGHT, reach).seen).toBe(true);
  });

  it('does not judge positions inside a scrolling or clipping container (a scrolled carousel)', () => {
    const scroller = sightOf(at(box(0, 0, 600, 200)), style({ overflow: 'auto', overflowX: 'auto', overflowY: 'auto' }), 'block', FULL_SIGHT, reach);
    expect(scroller.inside.contained).toBe(true);
    expect(sightOf(at(box(-3000, 10, 100, 20)), style({ position: 'absolute' }), 'block', scroller.inside, reach).seen).toBe(true);
  });

  it('hides what a box under 4 px clips away (height:0; overflow:hidden), but not the box itself', () => {
    const shut = sightOf(at(box(0, 0, 300, 0)), style({ overflow: 'hidden', overflowX: 'hidden', overflowY: 'hidden' }), 'block', FULL_SIGHT, reach);
    expect(shut.seen).toBe(true);
    expect(shut.inside.shown).toBe(false);
    // Only the clipped axis counts, and overflow does not apply to inline boxes.
    expect(sightOf(at(box(0, 0, 300, 0)), style({ overflow: 'hidden visible', overflowX: 'hidden', overflowY: 'visible' }), 'block', FULL_SIGHT, reach).inside.shown).toBe(true);
    expect(sightOf(at(box(0, 0, 300, 0)), style({ overflow: 'hidden', overflowX: 'hidden', overflowY: 'hidden' }), 'inline', FULL_SIGHT, reach).inside.shown).toBe(true);
  });

  it('ignores opacity and position on display:contents (it has no box)', () => {
    expect(sightOf(at(box(0, 0, 0, 0)), style({ opacity: '0', position: 'absolute' }), 'contents', FULL_SIGHT, reach)).toMatchObject({ seen: true, inside: FULL_SIGHT });
  });
});

describe('clips', () => {
  it('reads clip: rect() in either separator style, with auto edges left alone', () => {
    expect(clipRectHides('rect(0px, 0px, 0px, 0px)')).toBe(true);
    expect(clipRectHides('rect(1px 1px 1px 1px)')).toBe(true);
    expect(clipRectHides('rect(0px, 100px, 50px, 0px)')).toBe(false);
    expect(clipRectHides('rect(0px, auto, 0px, auto)')).toBe(true);
    expect(clipRectHides('rect(auto, auto, auto, auto)')).toBe(false);
    expect(clipRectHides('auto')).toBe(false);
  });

  it('reads clip-path inset(), circle() and ellipse(), and leaves other shapes alone', () => {
    const el = at(box(0, 0, 200, 100));
    expect(clipPathHides('inset(50%)', el)).toBe(true);
    expect(clipPathHides('inset(0px 0px 99% 0px)', el)).toBe(true);
    expect(clipPathHides('inset(50% round 4px)', el)).toBe(true);
    expect(clipPathHides('inset(10px 20px)', el)).toBe(false);
    expect(clipPathHides('inset(0px 100px)', el)).toBe(true);
    expect(clipPathHides('circle(0px at 50% 50%)', el)).toBe(true);
    expect(clipPathHides('circle(40%)', el)).toBe(false);
    expect(clipPathHides('circle(closest-side)', el)).toBe(false);
    expect(clipPathHides('ellipse(0px 20px at 10px 10px)', el)).toBe(true);
    expect(clipPathHides('polygon(0 0, 100% 0, 0 100%)', el)).toBe(false);
    expect(clipPathHides('url("#mask")', el)).toBe(false);
    expect(clipPathHides('none', el)).toBe(false);
  });
});

describe('outside', () => {
  it('is true only for a box entirely beyond one edge (unbounded edges are never judged)', () => {
    expect(outside(box(-200, 0, 100, 10), REACH.document)).toBe(true);
    expect(outside(box(1300, 0, 100, 10), REACH.document)).toBe(true);
    expect(outside(box(0, 3001, 100, 10), REACH.document)).toBe(true);
    expect(outside(box(-50, 0, 100, 10), REACH.document)).toBe(false);
    expect(outside(box(0, 0, 0, 0), REACH.document)).toBe(false);
    expect(outside(box(-9999, 0, 100, 10), { left: null, top: 0, right: null, bottom: 100 })).toBe(false);
  });
});

describe('painting', () => {
  const NONE: PaintStyle = { backgroundImage: 'none', backgroundColor: 'rgba(0, 0, 0, 0)', borderWidth: '0px', boxShadow: 'none', content: 'normal' };
  const element = (b: Box): Element => at(b) as unknown as Element;
  const noPseudo = (): boolean => false;

  it('a box that draws nothing paints nothing, whatever its size', () => {
    expect(paintsItself(element(box(0, 0, 100, 40)), 'div', NONE, noPseudo)).toBe(false);
  });

  it('a background, border, shadow, generated content or a replaced element draws, if big enough', () => {
    const big = element(box(0, 0, 24, 24));
    expect(paintsItself(big, 'span', { ...NONE, backgroundImage: 'url("icon.svg")' }, noPseudo)).toBe(true);
    expect(paintsItself(big, 'span', { ...NONE, backgroundColor: 'rgb(255, 0, 0)' }, noPseudo)).toBe(true);
    expect(paintsItself(big, 'span', { ...NONE, backgroundColor: 'rgba(255, 0, 0, 0.5)' }, noPseudo)).toBe(true);
    expect(paintsItself(big, 'span', { ...NONE, backgroundColor: 'color(srgb 1 0 0 / 0)' }, noPseudo)).toBe(false);
    expect(paintsItself(big, 'span', { ...NONE, borderWidth: '1px' }, noPseudo)).toBe(true);
    expect(paintsItself(big, 'span', { ...NONE, boxShadow: 'rgb(0, 0, 0) 0px 1px 2px 0px' }, noPseudo)).toBe(true);
    expect(paintsItself(big, 'i', NONE, () => true)).toBe(true);
    expect(paintsItself(big, 'img', NONE, noPseudo)).toBe(true);
    expect(paintsItself(element(box(0, 0, 3, 24)), 'img', NONE, noPseudo)).toBe(false);
    expect(paintsItself(element(box(0, 0, 0, 0)), 'input', NONE, noPseudo)).toBe(false);
  });

  it('judges sizes and fonts by the 4 px floor', () => {
    expect(bigEnough(box(0, 0, 4, 4))).toBe(true);
    expect(bigEnough(box(0, 0, 300, 3.9))).toBe(false);
    expect(legibleFont('0px')).toBe(false);
    expect(legibleFont('3px')).toBe(false);
    expect(legibleFont('12px')).toBe(true);
  });
});

describe('the viewport owners', () => {
  it("never treat <html>/<body> overflow as a clip (body { overflow: hidden } while a modal is open, or a 0-height body)", () => {
    const body = sightOf(at(box(0, 0, 1280, 0)), style({ overflow: 'hidden', overflowX: 'hidden', overflowY: 'hidden' }), 'block', FULL_SIGHT, reach, true);
    expect(body.inside).toBe(FULL_SIGHT);
    expect(sightOf(at(box(-9999, 0, 100, 20)), style({ position: 'absolute' }), 'block', body.inside, reach).seen).toBe(false);
  });
});
