/**
 * The delivery guard: which element the pointer and the press actually reached. A hit-test before
 * the action is only a prediction; the page can change between it and the input (an overlay shown
 * on mouseover, a decoy swapped in on pointermove, a target that moves), so the events themselves
 * are checked as they fire.
 *
 * One set of capture listeners on `window`, registered once when the page script is installed and
 * dormant until an action arms the guard. Armed, each trusted pointer/mouse event of the armed
 * phases at the action's point is checked against the expected element at the moment it is
 * dispatched (events elsewhere are not the action's: the page moving under a resting pointer
 * fires over/enter events at the pointer's old position); the first one
 * that goes anywhere else is cancelled (preventDefault + stopImmediatePropagation) before any page
 * listener on the document or an element sees it, and so is every later event of the action. The
 * worker reads the log (settle) and decides; see actions/deliveryVerdict.ts.
 *
 * Limits, by construction of DOM events: listeners of the page registered on `window` in the
 * capture phase BEFORE this script was installed run before ours and cannot be stopped. They still
 * see only what the browser dispatched, and the log still records the wrong target, so the action
 * is reported as intercepted, never as a success. A page listener that stops the event at that
 * point hides it from us entirely: the log then lacks the press, which is never read as delivered.
 *
 * Our isolated world shares the DOM with the page, so these listeners see the page's events and
 * their element identity, but nothing we define is visible to the page.
 */
import { deepElementFromPoint, flatContains, flatParent } from './dom.js';
import { reaches } from './hitTest.js';
import { beforePress, pressEffect, subjectOf, type BeforePress } from './pressEffects.js';
import type { DeliveryPhase, GuardEvent, GuardMode, PressEffect } from './types.js';

/**
 * The events the guard checks, by phase. Out/leave events are not checked: they name the element
 * the pointer came from, not where it went.
 */
export const GUARDED_EVENTS: Readonly<Record<string, DeliveryPhase>> = {
  pointerover: 'pointer',
  pointerenter: 'pointer',
  mouseover: 'pointer',
  mouseenter: 'pointer',
  pointermove: 'pointer',
  mousemove: 'pointer',
  pointerdown: 'press',
  mousedown: 'press',
  pointerup: 'release',
  mouseup: 'release',
  click: 'release',
  auxclick: 'release',
  dblclick: 'release',
  contextmenu: 'release',
  // Dispatched at the drop point of an HTML5 drag (Input.dispatchDragEvent): where the drop went.
  dragenter: 'drop',
  dragover: 'drop',
  drop: 'drop',
};

/**
 * Fired after a release on the common ancestor of where the press and the release went: at the end
 * of a drag that is wherever the source and the drop target meet, which says nothing about the drop.
 */
const AFTER_RELEASE = new Set(['click', 'auxclick', 'dblclick', 'contextmenu']);

/** Pure: does the guard of `mode` check this event type at all? */
export function checks(mode: GuardMode, type: string): boolean {
  return GUARDED_EVENTS[type] !== undefined && !(mode === 'drop' && AFTER_RELEASE.has(type));
}

/** Where an event's target stands relative to the expected element. */
export type Relation = 'inside' | 'ancestor' | 'other';

/**
 * Pure: may this event go ahead? `inside` covers the element itself, its descendants (flat tree),
 * its shadow host and a label that forwards clicks to it.
 * - mode `target` (the ref's own frame): every checked event must land inside; enter events also
 *   fire on each ancestor the pointer entered. (Two releases that end elsewhere are still the element's, decided
 *   beside this rule: one the page captured to an element holding the pressed one, capturedRelease; the rest of one
 *   after the element left on it, leftRelease.)
 * - mode `owner` (a frame above the ref's frame, expecting its <iframe>): the pointer may pass over
 *   the iframe element, but no press or release belongs to this document at all.
 * - mode `drop` (the end of a drag, expecting the drop target): the release and the HTML5 drop must
 *   land inside; `inside` also covers the dragged element for the release (Armed.source). (Releases the page sends
 *   elsewhere itself are decided beside this rule: to the element it captured the pointer to, capturedRelease; to a
 *   ghost that follows the pointer, followerRelease; to the list around a target that moved aside, roomMade.)
 */
export function admits(mode: GuardMode, type: string, phase: DeliveryPhase, relation: Relation): boolean {
  if (relation === 'inside') return mode !== 'owner' || phase === 'pointer';
  if (relation === 'ancestor') return mode !== 'drop' && (type === 'pointerenter' || type === 'mouseenter');
  return false;
}

function relationOf(hit: Element, expected: Element, also: Element | null): Relation {
  if (reaches(hit, expected) || (also !== null && reaches(hit, also))) return 'inside';
  return flatContains(hit, expected) ? 'ancestor' : 'other';
}

/**
 * Events further than this (CSS px) from the action's point are not the action's. The browser also
 * fires over/enter events when the page moves under a resting pointer (after chrome-relay's own
 * scroll, at the pointer's old position); those say nothing about where this action went.
 */
const POINT_SLACK = 2;

/** Pure: is an event at (x, y) one of the action's, sent to `point`? */
export function atPoint(x: number, y: number, point: { x: number; y: number }): boolean {
  return Math.abs(x - point.x) <= POINT_SLACK && Math.abs(y - point.y) <= POINT_SLACK;
}

/** Longest an arming lasts: a worker that died mid-action must not leave the page guarded. */
const ARM_LIMIT_MS = 5_000;
/** Armings replaced by a later one that stay readable (the worker runs one input action per tab at a time). */
const MAX_REPLACED = 8;
/** Events kept per arming (a person moving the mouse meanwhile adds some; ours are a handful). */
const MAX_EVENTS = 64;

interface Armed {
  token: string;
  expected: Element;
  mode: GuardMode;
  /** Where the action's input lands, in this document's viewport. */
  point: { x: number; y: number };
  phases: readonly DeliveryPhase[];
  at: number;
  events: GuardEvent[];
  /** The element that took the first event outside the lineage; from then on everything is cancelled. */
  interceptor: Element | null;
  /** See GuardState.gaveWay: decided when that first event went astray. */
  gaveWay: boolean;
  blocked: boolean;
  active: boolean;
  /** The element got the press: the pointer's arrival is over. */
  pressed: boolean;
  /** Mode drop: the dragged element, which may take the release (it often follows the pointer). */
  source: Element | null;
  /**
   * The element the page captured the pointer to, which took the pointerup (its mouseup, and a click's click, follow).
   * Mode drop: any; mode target: one holding the element the press reached (see capturedRelease).
   */
  captured: Element | null;
  /** Mode target: the element the first press that reached the expected one was dispatched to. */
  pressedOn: Element | null;
  /** Mode drop: the element that took the release's pointerup (the mouseup after it is the same release). */
  released: Element | null;
  /**
   * Mode target: the element that took the first event of the release that reached the expected one, and the elements
   * that held it then (flat tree): where the rest of that release goes when the element leaves on it (see leftRelease).
   */
  releasedOn: { element: Element; holders: Set<Element> } | null;
  /** Mode drop: where elements under the moving pointer were first seen (a drag library's ghost moves with it). */
  firstSeen: Map<Element, { left: number; top: number }>;
  /** Mode drop: where the drop target, the dragged element and what held the target were when the drop was armed. */
  dropStart: DropStart | null;
  /** Mode target: the pressed control as the press reached it, before the page's handlers of it ran (pressEffects.ts). */
  before: BeforePress | undefined;
  /** What the press did, judged when the first event went astray (null: nothing); undefined until then. */
  acted: PressEffect | null | undefined;
}

export interface GuardState {
  events: GuardEvent[];
  interceptor: Element | null;
  /** The element the action was for (an interceptor is described as what covers it). */
  expected: Element;
  /**
   * Mode target, once the press reached the element: what it visibly did (pressEffects.ts), judged when the first event
   * went astray, or now when none did and the read ends the arming.
   */
  acted?: PressEffect;
  /** The expected element is no longer in the document (its own handlers removed or replaced it). */
  gone: boolean;
  /**
   * Another arming replaced this one before it was read: its log stops there, and that arming's log may hold this
   * action's events. Neither tells whether this action reached its element.
   */
  superseded: boolean;
  /**
   * The element gave way under the pointer: the first event that went astray was the pointer's arrival or the press,
   * it went to an element holding the expected one, and the expected element's own box no longer held the point (no
   * size: a hover image still loading; moved away) or it was back on top there already (see gaveWay below). Not an
   * ancestor's own cover (a `::after` drawn over it), on top of an element whose box still holds the point.
   */
  gaveWay: boolean;
}

function eventElement(event: Event): Element | null {
  // At window level the target is retargeted to the outermost shadow host; the composed path
  // still starts at the innermost element of open shadow trees.
  const [first] = event.composedPath();
  if (first instanceof Element) return first;
  return event.target instanceof Element ? event.target : null;
}

export class DeliveryGuard {
  #armed: Armed | undefined;
  /** Replaced armings by token, oldest first: a late read learns its action overlapped another instead of finding nothing. */
  readonly #replaced = new Map<string, Armed>();
  #count = 0;

  constructor(target: Window) {
    const listener = (event: Event): void => this.#onEvent(event);
    for (const type of Object.keys(GUARDED_EVENTS)) target.addEventListener(type, listener, { capture: true });
  }

  /**
   * Arm for one action whose input lands at `point`; the token names it in read(). An earlier arming
   * is replaced: it stops listening and reads as superseded from then on. `source`: mode drop only,
   * the dragged element.
   */
  arm(expected: Element, mode: GuardMode, phases: readonly DeliveryPhase[], point: { x: number; y: number }, source: Element | null = null): string {
    const token = `${Date.now().toString(36)}.${++this.#count}`;
    const previous = this.#armed;
    if (previous !== undefined) {
      previous.active = false;
      this.#replaced.set(previous.token, previous);
      for (const old of this.#replaced.keys()) {
        if (this.#replaced.size <= MAX_REPLACED) break;
        this.#replaced.delete(old);
      }
    }
    this.#armed = {
      token,
      expected,
      mode,
      point,
      phases,
      at: performance.now(),
      events: [],
      interceptor: null,
      gaveWay: false,
      blocked: false,
      active: true,
      pressed: false,
      source: mode === 'drop' ? source : null,
      captured: null,
      pressedOn: null,
      released: null,
      releasedOn: null,
      firstSeen: new Map(),
      dropStart: mode === 'drop' ? dropStart(expected, source) : null,
      before: undefined,
      acted: undefined,
    };
    return token;
  }

  /** What the arming `token` saw so far; `disarm` ends it. undefined when that arming is unknown here. */
  read(token: string, disarm: boolean): GuardState | undefined {
    const current = this.#armed?.token === token ? this.#armed : undefined;
    const armed = current ?? this.#replaced.get(token);
    if (armed === undefined) return undefined;
    if (disarm) armed.active = false;
    // Nothing went astray: what the whole action did, now that it is over (the page's handlers of it have run).
    if (disarm && armed.acted === undefined && armed.before !== undefined) armed.acted = judge(armed.before);
    const state: GuardState = {
      events: [...armed.events],
      interceptor: armed.interceptor,
      expected: armed.expected,
      gone: !armed.expected.isConnected,
      superseded: current === undefined,
      gaveWay: armed.gaveWay,
    };
    if (armed.acted !== undefined && armed.acted !== null) state.acted = armed.acted;
    return state;
  }

  /**
   * After the action: what is at the point now (in this document), and whether the pointer is
   * over the expected element as the browser sees it (:hover, which follows the last dispatched
   * move). undefined when `token` is not the last arming.
   */
  probe(token: string, x: number, y: number): { hit: Element | null; reaches: boolean; hovered: boolean; gaveWay: boolean } | undefined {
    const armed = this.#armed;
    if (armed === undefined || armed.token !== token) return undefined;
    const hit = deepElementFromPoint(x, y);
    const over = hit !== null && reaches(hit, armed.expected);
    const hovered = armed.expected.matches(':hover') || (over && hit.matches(':hover'));
    // What is there now holds the element, which has no box at the point: it gave way (a hover image still loading).
    return { hit, reaches: over, hovered, gaveWay: !over && hit !== null && gaveWay(hit, armed.expected, { x, y }) };
  }

  #onEvent(event: Event): void {
    const armed = this.#armed;
    if (armed === undefined || !armed.active || !event.isTrusted) return;
    if (performance.now() - armed.at > ARM_LIMIT_MS) {
      armed.active = false;
      return;
    }
    const phase = GUARDED_EVENTS[event.type];
    if (phase === undefined) return;
    if (armed.mode === 'drop' && (event.type === 'pointermove' || event.type === 'mousemove')) noteUnderPointer(armed, event);
    if (armed.blocked) {
      // The action already went astray: nothing more of it may reach the page.
      cancel(event);
      return;
    }
    if (!armed.phases.includes(phase) || !checks(armed.mode, event.type)) return;
    if (event instanceof MouseEvent && !atPoint(event.clientX, event.clientY, armed.point)) return;
    // Once the element has the press, over/move events only say that the page changed under the
    // resting pointer (a click handler that scrolls or opens something fires pointerover on
    // whatever is there now): not where this action went.
    if (phase === 'pointer' && armed.pressed) return;
    const hit = eventElement(event);
    const ok =
      hit !== null &&
      (admits(armed.mode, event.type, phase, relationOf(hit, armed.expected, phase === 'release' ? armed.source : null)) ||
        capturedRelease(armed, event, hit) ||
        followerRelease(armed, event, hit) ||
        sameRelease(armed, event, hit) ||
        roomMade(armed, event, hit) ||
        leftRelease(armed, phase, hit));
    if (armed.events.length < MAX_EVENTS) armed.events.push({ type: event.type, phase, ok });
    if (ok) {
      // The first press that reached the element: read its control before the page's own handlers of it run.
      if (phase === 'press' && armed.mode === 'target' && armed.before === undefined && hit !== null) armed.before = look(hit, armed.expected);
      if (phase === 'press') {
        armed.pressed = true;
        armed.pressedOn ??= hit;
      }
      if (armed.mode === 'drop' && event.type === 'pointerup') armed.released = hit;
      if (armed.mode === 'target' && phase === 'release' && armed.releasedOn === null && hit !== null) armed.releasedOn = { element: hit, holders: holdersOf(hit) };
      return;
    }
    armed.blocked = true;
    armed.interceptor = hit;
    // Everything the element received has been handled: what did it do? (Before this event is cancelled: cancelling
    // changes nothing of the page, but judging first keeps the moment exact.)
    if (armed.before !== undefined) armed.acted = judge(armed.before);
    armed.gaveWay = armed.mode === 'target' && (phase === 'pointer' || phase === 'press') && hit !== null && gaveWay(hit, armed.expected, armed.point);
    cancel(event);
  }
}

/**
 * `hit` holds the element, which gave way rather than being covered (see GuardState.gaveWay): its own box no longer
 * holds the point, or it is back on top there already. An icon whose hover image is still loading flickers: it has
 * no size while hovered, the pointer is then over the element around it, it loses :hover and is drawn again — so by
 * the time the stray event is seen it may be back. An ancestor's own cover (`::after` over its content) is on top of
 * an element whose box still holds the point: a cover.
 */
function gaveWay(hit: Element, expected: Element, point: { x: number; y: number }): boolean {
  if (!expected.isConnected || !flatContains(hit, expected)) return false;
  const box = expected.getBoundingClientRect();
  const holds = box.width > 0 && box.height > 0 && point.x >= box.left && point.x < box.right && point.y >= box.top && point.y < box.bottom;
  if (!holds) return true;
  const now = deepElementFromPoint(point.x, point.y);
  return now !== null && reaches(now, expected);
}

/**
 * A release the page itself sent elsewhere by capturing the pointer (setPointerCapture) is where the page wants it, not
 * a misdirected one. The pointerup goes to the capturing element while the capture holds; the mouseup after it, and
 * the click of a click, to the same element.
 * - Mode drop (sliders, drag libraries): any capturing element; the drop is judged by where the pointer ends.
 * - Mode target: only an element that is or holds the one the press reached. A slider captures to its root when its
 *   thumb is pressed (MUI), a button to itself: the page choosing who hears the release of a press its control took.
 *   Capture is set during a press only (a mouse without a button down cannot be captured), so it is the page's answer
 *   to this press; one set on anything that does not hold the pressed element takes the release away from it, and
 *   stays an interception.
 */
function capturedRelease(armed: Armed, event: Event, hit: Element): boolean {
  if (GUARDED_EVENTS[event.type] !== 'release') return false;
  if (armed.mode === 'drop') {
    if (event instanceof PointerEvent && hit.hasPointerCapture(event.pointerId)) {
      armed.captured = hit;
      return true;
    }
    return event.type === 'mouseup' && hit === armed.captured;
  }
  const pressedOn = armed.pressedOn;
  if (armed.mode !== 'target' || pressedOn === null) return false;
  if (event.type === 'pointerup') {
    if (!(event instanceof PointerEvent) || !hit.hasPointerCapture(event.pointerId) || !(hit === pressedOn || flatContains(hit, pressedOn))) return false;
    armed.captured = hit;
    return true;
  }
  return hit === armed.captured;
}

/**
 * Mode drop: the mouseup of a release whose pointerup went where it should. It goes to the same element,
 * or — when the page's pointerup handler removed that element (a ghost, a drop zone that closes) — to
 * whatever ancestor is still in the document: the same release either way.
 */
function sameRelease(armed: Armed, event: Event, hit: Element): boolean {
  if (armed.mode !== 'drop' || event.type !== 'mouseup' || armed.released === null) return false;
  return hit === armed.released || !armed.released.isConnected;
}

/** An element's border box in its viewport, as getBoundingClientRect gives it. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

function boxOf(element: Element): Box {
  const { left, top, width, height } = element.getBoundingClientRect();
  return { left, top, width, height };
}

interface DropStart {
  target: Box;
  source: Box | null;
  /** The elements that held the drop target (flat tree), each with its box. */
  holders: Map<Element, Box>;
}

function dropStart(target: Element, source: Element | null): DropStart {
  const holders = new Map<Element, Box>();
  for (const holder of holdersOf(target)) holders.set(holder, boxOf(holder));
  return { target: boxOf(target), source: source === null ? null : boxOf(source), holders };
}

function holds(box: Box, point: { x: number; y: number }): boolean {
  return box.width > 0 && box.height > 0 && point.x >= box.left && point.x < box.left + box.width && point.y >= box.top && point.y < box.top + box.height;
}

function moved(then: Box, now: Box): boolean {
  return Math.hypot(now.left - then.left, now.top - then.top) >= FOLLOW_MIN_PX;
}

/** Where an element was when the drop was armed, and where it is now. */
export interface Moves {
  then: Box;
  now: Box;
}

/**
 * Pure: did the page make room at the drop point for the element dragged there, so the release landing beside the
 * drop target is the drop? A sortable list (dnd-kit, SortableJS's fallback) shifts the item dragged over aside to make
 * room for the dragged one, which follows the pointer and often lets it through (pointer-events: none): the release
 * lands on the list between its items, and the library decides the drop from the pointer, as it does for a release on
 * the dragged element itself. All of it must hold:
 * - the target was under the point when the drop was armed, and has moved off it;
 * - the dragged element moved onto the point (it is what the room was made for): a drop zone that jumps aside from a
 *   handle that stays put leaves the release to the page around it, and the zone's own handlers never hear it;
 * - what took the release (`holder`) already held the target when the drop was armed, and stayed where and as large as
 *   it was: a sheet laid over the page, or an element the target was moved into, or one moved or grown under the
 *   point, was put there, and stays an interception.
 */
export function madeRoom(point: { x: number; y: number }, target: Moves, source: Moves | null, holder: Moves | undefined): boolean {
  if (source === null || holder === undefined) return false;
  if (!holds(target.then, point) || holds(target.now, point) || !moved(target.then, target.now)) return false;
  if (!holds(source.now, point) || !moved(source.then, source.now)) return false;
  const resized = Math.abs(holder.now.width - holder.then.width) >= FOLLOW_MIN_PX || Math.abs(holder.now.height - holder.then.height) >= FOLLOW_MIN_PX;
  return !moved(holder.then, holder.now) && !resized;
}

/** Mode drop: a release beside a drop target that moved aside to make room for the dragged element (madeRoom). */
function roomMade(armed: Armed, event: Event, hit: Element): boolean {
  const start = armed.dropStart;
  const { source, expected } = armed;
  if (armed.mode !== 'drop' || start === null || source === null || start.source === null || GUARDED_EVENTS[event.type] !== 'release') return false;
  // It still holds the target: the target moved within it, not out of it.
  if (!expected.isConnected || !source.isConnected || !flatContains(hit, expected)) return false;
  const held = start.holders.get(hit);
  return madeRoom(
    armed.point,
    { then: start.target, now: boxOf(expected) },
    { then: start.source, now: boxOf(source) },
    held === undefined ? undefined : { then: held, now: boxOf(hit) },
  );
}

/** Holders of a released element remembered, at most (a document deeper than this is not one a page draws). */
const MAX_HOLDERS = 512;

function holdersOf(element: Element): Set<Element> {
  const holders = new Set<Element>();
  for (let current = flatParent(element); current !== null && holders.size < MAX_HOLDERS; current = flatParent(current)) holders.add(current);
  return holders;
}

/**
 * Mode target: the rest of a release that reached the element, after the element left on it — its own pointerup or
 * mouseup handler removed or hid it (a menu item that closes its menu, a toast dismissed on release). The browser then
 * sends the mouseup and the click that follow to what is under the pointer now, or to the nearest ancestor still in the
 * page: the same release, where the element was. Only an element that held it counts; anything else under the point
 * (a decoy put there, the next item moving up) takes events that are not this release's, and stays an interception.
 */
function leftRelease(armed: Armed, phase: DeliveryPhase, hit: Element): boolean {
  const released = armed.releasedOn;
  if (armed.mode !== 'target' || phase !== 'release' || released === null) return false;
  if (released.element.isConnected && released.element.getClientRects().length > 0) return false;
  return released.holders.has(hit);
}

/** How far up from the element under the pointer a ghost's box is looked for (its content is what gets hit). */
const FOLLOW_DEPTH = 4;
/** Elements remembered per drag (the pointer crosses a handful). */
const MAX_SEEN = 64;
/** A box that moved this far (CSS px) during the drag moved with the pointer. */
const FOLLOW_MIN_PX = 3;

function* upFrom(element: Element): Generator<Element> {
  let current: Element | null = element;
  for (let depth = 0; current !== null && depth < FOLLOW_DEPTH; depth++, current = flatParent(current)) {
    if (current === document.body || current === document.documentElement) return;
    yield current;
  }
}

function noteUnderPointer(armed: Armed, event: Event): void {
  const hit = eventElement(event);
  if (hit === null) return;
  for (const element of upFrom(hit)) {
    if (armed.firstSeen.has(element) || armed.firstSeen.size >= MAX_SEEN) continue;
    const box = element.getBoundingClientRect();
    armed.firstSeen.set(element, { left: box.left, top: box.top });
  }
}

/**
 * Mode drop: a release on a drag's ghost — a copy of the dragged item that a pointer-driven drag library
 * moves with the pointer, under it, and that takes the release unless the page made it `pointer-events:
 * none` — is where the page wants it: the library ends the drag from the pointer's position, not from the
 * element hit. Told from an overlay that covers the target by motion: the ghost's box was under the
 * pointer during the drag and has moved since; an overlay that appears over the target stays put.
 */
function followerRelease(armed: Armed, event: Event, hit: Element): boolean {
  if (armed.mode !== 'drop' || GUARDED_EVENTS[event.type] !== 'release') return false;
  for (const element of upFrom(hit)) {
    const first = armed.firstSeen.get(element);
    if (first === undefined) continue;
    const box = element.getBoundingClientRect();
    if (Math.hypot(box.left - first.left, box.top - first.top) >= FOLLOW_MIN_PX) return true;
  }
  return false;
}

/** The pressed control before the press is handled; undefined when it cannot be read (the guard must never throw). */
function look(hit: Element, expected: Element): BeforePress | undefined {
  try {
    return beforePress(subjectOf(hit, expected));
  } catch {
    return undefined;
  }
}

/** What the press did; null when nothing visible, or when it cannot be told. */
function judge(before: BeforePress): PressEffect | null {
  try {
    return pressEffect(before) ?? null;
  } catch {
    return null;
  }
}

function cancel(event: Event): void {
  // Cancelling dragenter/dragover would accept the drop for the element that got them; stopping
  // them alone leaves it refused, so no drop follows at all.
  if (event.type !== 'dragenter' && event.type !== 'dragover') event.preventDefault();
  event.stopImmediatePropagation();
}
