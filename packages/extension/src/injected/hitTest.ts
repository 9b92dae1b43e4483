/**
 * Where to click an element, and whether a click there would reach it. We refuse rather than
 * click through a modal, cookie banner or sticky header: the trusted mouse event goes to whatever
 * is on top, so a covered point would act on the wrong element.
 */
import { cap, deepElementFromPoint, flatContains, flatParent, isShadowHostOf, normalizeText } from './dom.js';
import { drawnPartOf } from './pointerPart.js';
import type { Interceptor } from './types.js';

/** Keep points this far inside the visible box, so rounding never lands on the border. */
const INSET = 1;
const MAX_RECTS = 3;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Point {
  x: number;
  y: number;
}

export type HitOutcome =
  /** `hit`: what the hit-test found at the point (the target, or what forwards to it), when it ran; `scrolled`: locateClick scrolled first. */
  | { status: 'ok'; point: Point; hitTest: 'passed' | 'skipped'; hit?: Element; scrolled?: true }
  | { status: 'intercepted'; point: Point; interceptor: Element }
  | { status: 'not_visible'; beyondEdge?: true };

function viewport(): Box {
  // The scrolling element's client size is the viewport minus scrollbars (a point on a scrollbar
  // would not reach the page). It is <html> in standards mode but <body> in quirks mode, where
  // <html>'s clientHeight is the whole document's height.
  const root = document.scrollingElement ?? document.documentElement;
  return { left: 0, top: 0, right: root.clientWidth || window.innerWidth, bottom: root.clientHeight || window.innerHeight };
}

function rendered(element: Element): DOMRect[] {
  return [...element.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0);
}

function clip(rect: DOMRect, view: Box): Box | null {
  const box = {
    left: Math.max(rect.left, view.left),
    top: Math.max(rect.top, view.top),
    right: Math.min(rect.right, view.right),
    bottom: Math.min(rect.bottom, view.bottom),
  };
  return box.right - box.left > 0 && box.bottom - box.top > 0 ? box : null;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Centre first, then the quarter points of each visible part (largest parts first). */
export function candidatePoints(rects: readonly DOMRect[], view: Box): Point[] {
  const boxes = rects
    .map((rect) => clip(rect, view))
    .filter((box): box is Box => box !== null)
    .sort((a, b) => (b.right - b.left) * (b.bottom - b.top) - (a.right - a.left) * (a.bottom - a.top))
    .slice(0, MAX_RECTS);
  const points: Point[] = [];
  for (const box of boxes) {
    const left = Math.min(box.left + INSET, (box.left + box.right) / 2);
    const right = Math.max(box.right - INSET, (box.left + box.right) / 2);
    const top = Math.min(box.top + INSET, (box.top + box.bottom) / 2);
    const bottom = Math.max(box.bottom - INSET, (box.top + box.bottom) / 2);
    const xs = [(left + right) / 2, left + (right - left) / 4, left + (3 * (right - left)) / 4];
    const ys = [(top + bottom) / 2, top + (bottom - top) / 4, top + (3 * (bottom - top)) / 4];
    points.push({ x: round(xs[0] ?? left), y: round(ys[0] ?? top) });
    for (const y of [ys[1], ys[2]]) {
      for (const x of [xs[1], xs[2]]) {
        if (x !== undefined && y !== undefined) points.push({ x: round(x), y: round(y) });
      }
    }
  }
  return points;
}

/**
 * A click at a point reaches `target` when the topmost element there is the target, inside it
 * (flat tree), the shadow host wrapping it, a <label> that forwards clicks to it, or — for a native control the page
 * hid under a drawing of its own (pointerPart.ts) — that drawn part or inside it.
 */
export function reaches(hit: Element, target: Element): boolean {
  if (hit === target || flatContains(target, hit) || isShadowHostOf(hit, target)) return true;
  const label = hit.closest('label');
  if (label instanceof HTMLLabelElement && (label.control === target || label.contains(target))) return true;
  const part = drawnPartOf(target);
  return part !== null && flatContains(part, hit);
}

function centreOf(element: Element): Point {
  const box = element.getBoundingClientRect();
  return { x: round(box.left + box.width / 2), y: round(box.top + box.height / 2) };
}

/**
 * Scroll the element into view when its centre is off-screen, then hit-test candidate points.
 * An element covered where it sits (e.g. under a sticky header at the viewport's edge) gets one
 * more try after centring it; anything still covered then is reported, never clicked through.
 */
export function locateClick(target: Element): HitOutcome {
  // A control hidden under a drawing of its own is pointed at through that drawing (pointerPart.ts).
  const aim = drawnPartOf(target) ?? target;
  if (rendered(aim).length === 0) return { status: 'not_visible' };
  const view = viewport();
  const centre = centreOf(aim);
  const offScreen = centre.x < view.left || centre.x >= view.right || centre.y < view.top || centre.y >= view.bottom;
  if (offScreen) {
    scrollToCentre(aim);
    // Still outside after scrolling: layout put it past the edge the page scrolls to (a centred form taller than
    // the window overflows above its top). No pointer can reach it there.
    const box = aim.getBoundingClientRect();
    if (box.bottom <= view.top || box.top >= view.bottom || box.right <= view.left || box.left >= view.right) return { status: 'not_visible', beyondEdge: true };
  }
  const outcome = hitTestPoints(aim, target);
  if (outcome.status !== 'intercepted' || offScreen) return offScreen && outcome.status === 'ok' ? { ...outcome, scrolled: true } : outcome;
  scrollToCentre(aim);
  const again = hitTestPoints(aim, target);
  return again.status === 'ok' ? { ...again, scrolled: true } : again;
}

/**
 * Bring the element into view (centred) if its centre is off-screen; its centre afterwards (and
 * whether anything scrolled), or null when it has no box.
 */
export function scrollIntoViewIfNeeded(target: Element): (Point & { scrolled: boolean }) | null {
  if (rendered(target).length === 0) return null;
  const view = viewport();
  const centre = centreOf(target);
  if (centre.x < view.left || centre.x >= view.right || centre.y < view.top || centre.y >= view.bottom) {
    scrollToCentre(target);
    return { ...centreOf(target), scrolled: true };
  }
  return { ...centre, scrolled: false };
}

function scrollToCentre(target: Element): void {
  // 'instant': a smooth scroll would still be moving when the mouse event arrives.
  target.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}

/** Hit-test the points of `aim` (the target, or the part of it a person points at) for `target`. */
function hitTestPoints(aim: Element, target: Element): HitOutcome {
  const points = candidatePoints(rendered(aim), viewport());
  const first = points[0];
  // Nothing of it inside the viewport even after scrolling (e.g. fixed off-screen): the hit-test
  // cannot run; click the centre as best effort rather than refuse on no evidence.
  if (first === undefined) return { status: 'ok', point: centreOf(aim), hitTest: 'skipped' };
  let interceptor: Element | null = null;
  for (const point of points) {
    const hit = deepElementFromPoint(point.x, point.y);
    if (hit === null) {
      if (point === first) return { status: 'ok', point, hitTest: 'skipped' };
      continue;
    }
    if (reaches(hit, target)) return { status: 'ok', point, hitTest: 'passed', hit };
    interceptor ??= hit;
  }
  if (interceptor === null) return { status: 'ok', point: first, hitTest: 'skipped' };
  return { status: 'intercepted', point: first, interceptor };
}

/**
 * What covers `target` where `hit` is on top, as a whole: the layer drawn over it — the cookie banner, the modal, the
 * sticky header — not the <p> of text in it the point fell on. Among `hit` and its flat-tree ancestors that do not
 * hold `target`, the innermost fixed or sticky one (what overlays are made of), else the innermost absolutely
 * positioned one, else `hit` itself (a decoy swapped in, an element pushed over the target). Never a container that
 * merely holds the layer (an app root holding a modal): that would stand for half the page. When `hit` holds
 * `target` (the target lets the pointer through to an ancestor), `hit` is it.
 */
export function coveringElement(hit: Element, target: Element): Element {
  if (flatContains(hit, target)) return hit;
  const branch: Element[] = [];
  for (let current: Element | null = hit; current !== null && !flatContains(current, target); current = flatParent(current)) branch.push(current);
  const positioned = (kinds: readonly string[]): Element | undefined => branch.find((element) => kinds.includes(getComputedStyle(element).position));
  return positioned(['fixed', 'sticky']) ?? positioned(['absolute']) ?? hit;
}

/**
 * How a covering element looks right now: its box and how opaque it is drawn (the product of its own and its ancestors'
 * opacity). Two looks a frame apart that differ mean it is still moving or fading (a menu closing, a toast sliding
 * away, a picker fading out), so a click waits for it; an overlay that holds still is the answer at once.
 */
export function lookOf(element: Element): string {
  const box = element.getBoundingClientRect();
  let opacity = 1;
  for (let current: Element | null = element; current !== null; current = flatParent(current)) {
    opacity *= Number.parseFloat(getComputedStyle(current).opacity) || 0;
  }
  return [box.left, box.top, box.width, box.height].map(round).join(',') + '@' + opacity.toFixed(3);
}

/** The ref of the element or of its nearest flat-tree ancestor that has one. */
export function nearestRef(element: Element, refOf: (element: Element) => string | undefined): string | undefined {
  for (let current: Element | null = element; current !== null; current = flatParent(current)) {
    const ref = refOf(current);
    if (ref !== undefined) return ref;
  }
  return undefined;
}

/** How long an element's name may be where it only has to be recognised (an error naming what covered the target). */
export const BRIEF_NAME_CAP = 40;

/**
 * Enough about an element for an agent to recognise it; `candidate` is the world's handle on it for the worker. `brief`
 * is its role and name as a snapshot shows them (the caller's walker), cut short here: never its raw text, which
 * would quote a <style> block, or a whole page through a container that holds it.
 */
export function describeInterceptor(element: Element, ref: string | undefined, candidate: number, brief: { role: string; name: string }): Interceptor {
  const interceptor: Interceptor = {
    tag: element.localName,
    nodeName: element.nodeName,
    id: cap(element.id, BRIEF_NAME_CAP),
    className: cap(normalizeText(element.getAttribute('class') ?? ''), 120),
    role: brief.role,
    name: cap(normalizeText(brief.name), BRIEF_NAME_CAP),
    candidate,
  };
  if (ref !== undefined) interceptor.ref = ref;
  return interceptor;
}

/**
 * An iframe's content box in this document's viewport: its border box minus borders and padding.
 * The child frame's viewport has exactly this size once its layout caught up with ours.
 */
function contentBox(frame: Element): Box {
  const box = frame.getBoundingClientRect();
  const style = getComputedStyle(frame);
  const left = box.left + frame.clientLeft + (parseFloat(style.paddingLeft) || 0);
  const top = box.top + frame.clientTop + (parseFloat(style.paddingTop) || 0);
  const width = frame.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
  const height = frame.clientHeight - (parseFloat(style.paddingTop) || 0) - (parseFloat(style.paddingBottom) || 0);
  return { left, top, right: left + width, bottom: top + height };
}

/** A point of this document's viewport in the viewport of the frame `frame` shows (the inverse of locateInFrame's mapping). */
export function pointInFrame(frame: Element, outer: Point): Point {
  const box = contentBox(frame);
  return { x: round(outer.x - box.left), y: round(outer.y - box.top) };
}

/** The size (CSS px) of an iframe's content box. */
export function frameContentBox(frame: Element): { width: number; height: number } {
  const box = contentBox(frame);
  return { width: round(box.right - box.left), height: round(box.bottom - box.top) };
}

/**
 * A point of an iframe's own viewport, mapped into this document's viewport: the frame's content
 * box starts inside its border and padding. The frame is scrolled into view first when the point
 * is off-screen here, then the point must hit the frame element (not an overlay of this document).
 * CSS transforms on the frame element are not accounted for.
 */
export function locateInFrame(frame: Element, inner: Point): HitOutcome & { scrolled?: boolean } {
  if (!frame.isConnected || rendered(frame).length === 0) return { status: 'not_visible' };
  const scrolled = (outcome: HitOutcome): HitOutcome & { scrolled: boolean } => ({ ...outcome, scrolled: true });
  const mapped = (): Point => {
    const box = contentBox(frame);
    return { x: round(box.left + inner.x), y: round(box.top + inner.y) };
  };
  const inView = (point: Point): boolean => {
    const view = viewport();
    return point.x >= view.left && point.x < view.right && point.y >= view.top && point.y < view.bottom;
  };
  let point = mapped();
  const startedInView = inView(point);
  if (!startedInView) {
    scrollToCentre(frame);
    point = mapped();
    if (!inView(point)) {
      // A frame taller or wider than the viewport: centre the point itself.
      const view = viewport();
      window.scrollBy({ left: point.x - view.right / 2, top: point.y - view.bottom / 2, behavior: 'instant' });
      point = mapped();
    }
  }
  const mark = startedInView ? (outcome: HitOutcome): HitOutcome => outcome : scrolled;
  if (!inView(point)) return mark({ status: 'ok', point, hitTest: 'skipped' });
  const hit = deepElementFromPoint(point.x, point.y);
  if (hit === null) return mark({ status: 'ok', point, hitTest: 'skipped' });
  if (hit === frame) return mark({ status: 'ok', point, hitTest: 'passed' });
  return mark({ status: 'intercepted', point, interceptor: hit });
}
