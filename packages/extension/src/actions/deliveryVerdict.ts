/**
 * Did a pointer action reach its element? Pure: decided from the delivery guards' logs
 * (injected/delivery.ts) of the ref's own frame and of each frame above it.
 *
 * A click is delivered only when the press AND the release reached the element and nothing of the
 * action went anywhere else; a hover only when nothing went elsewhere and, afterwards, the point
 * still reaches the element and the browser has the pointer over it (:hover). Anything else is
 * click_intercepted, and `when` says how far the action got before something else took it:
 * - before_pointer: nothing reached the element; something else was at the point when the pointer
 *   got there (the element moved or was covered after chrome-relay's hit-test);
 * - after_pointer: the pointer reached the element, then something else took the point before the
 *   press (an overlay shown on mouseover, a decoy swapped in on pointermove);
 * - on_press: the element got the press, but the release or the click went elsewhere (an overlay
 *   shown on pointerdown). The element's press handlers ran: the page may have changed.
 *
 * Except when the press visibly acted (injected/pressEffects.ts): a widget that acts on the press — opens its listbox
 * on pointerdown and draws it over the point, selects an option on pointerup and unmounts it — did what a person's
 * click does, and the release that then went to something else (cancelled, as every stray event is) changes nothing
 * of that. Such a click is delivered, and says what the press did (`acted`, `releaseHeld`). The press itself must
 * have reached the element: a press that went elsewhere is never a success, whatever happened on the page.
 */
import type { GuardEvent, GuardReport, Interceptor, PressEffect } from '../injected/types.js';

export type DeliveryWhen = 'before_pointer' | 'after_pointer' | 'on_press';

/** click: press and release; press: only the press (the source of a drag); hover: only the pointer. */
export type DeliveryAction = 'click' | 'press' | 'hover';

export type DeliveryVerdict =
  | {
      delivered: true;
      /** What the press (or the whole click) visibly did, when the page showed it. */
      acted?: PressEffect;
      /** The release went to another element after the press acted, and was cancelled. */
      releaseHeld?: true;
    }
  | {
      delivered: false;
      when: DeliveryWhen;
      /** Who took it; absent when no frame we watch saw it go anywhere (another frame, or a page listener that stopped it first). */
      interceptor?: Interceptor;
      /** With interceptor: whose log named it — 0 the ref's own frame, i + 1 the i-th frame above it (the world to ask about it). */
      from?: number;
      /** on_press only: the element left the page after taking the press (its handler removed or replaced it). */
      gone?: true;
      /**
       * Not on_press: what took the point holds the element, which gave way under the pointer (see GuardReport). Its
       * press reached nothing of the page, so the action can be tried again once the element is drawn again.
       */
      gaveWay?: true;
    };

/** What a delivered click says of its press, for the tool's answer. */
export interface PressActed {
  acted?: PressEffect;
  releaseHeld?: true;
}

/** Pure: the part of a delivered verdict the answer carries. */
export function actedOf(verdict: Extract<DeliveryVerdict, { delivered: true }>): PressActed {
  return { ...(verdict.acted === undefined ? {} : { acted: verdict.acted }), ...(verdict.releaseHeld === true ? { releaseHeld: true as const } : {}) };
}

function reached(events: readonly GuardEvent[], phase: GuardEvent['phase']): boolean {
  return events.some((event) => event.ok && event.phase === phase);
}

/** How far the action got in the ref's frame, from the events before the first one that went astray. */
export function progress(events: readonly GuardEvent[]): DeliveryWhen {
  const astray = events.findIndex((event) => !event.ok);
  const before = astray < 0 ? events : events.slice(0, astray);
  if (reached(before, 'press')) return 'on_press';
  return reached(before, 'pointer') ? 'after_pointer' : 'before_pointer';
}

/**
 * `target`: the guard of the ref's own frame (armed in the target mode); `above`: the guards of
 * the frames above it, innermost first (owner mode).
 */
export function classifyDelivery(action: DeliveryAction, target: GuardReport, above: readonly GuardReport[] = []): DeliveryVerdict {
  const verdict = reachedElement(action, target, above);
  if (action !== 'click' || target.acted === undefined) return verdict;
  if (verdict.delivered) return { delivered: true, acted: target.acted };
  // The press reached the element and visibly acted; only the release went elsewhere.
  if (verdict.when === 'on_press') return { delivered: true, acted: target.acted, releaseHeld: true };
  return verdict;
}

/** Whether every part of the action reached the element (see the header), the press's effect aside. */
function reachedElement(action: DeliveryAction, target: GuardReport, above: readonly GuardReport[]): DeliveryVerdict {
  const when = progress(target.events);
  if (target.interceptor !== undefined) {
    const verdict: DeliveryVerdict = { delivered: false, when, interceptor: target.interceptor, from: 0 };
    if (when === 'on_press' && target.gone === true) verdict.gone = true;
    if (when !== 'on_press' && target.gaveWay === true) verdict.gaveWay = true;
    return verdict;
  }
  for (const [i, frame] of above.entries()) {
    if (frame.interceptor !== undefined) return { delivered: false, when, interceptor: frame.interceptor, from: i + 1 };
  }
  // Nothing went astray where we watch. Now, did what should have arrived arrive?
  if (action === 'hover') {
    const probe = target.probe;
    if (probe?.reaches === true && probe.hovered) return { delivered: true };
    const arrived = reached(target.events, 'pointer') || probe?.hovered === true;
    if (probe !== undefined && !probe.reaches && probe.hit !== undefined) {
      return { delivered: false, when: arrived ? 'after_pointer' : 'before_pointer', interceptor: probe.hit, from: 0, ...(probe.gaveWay === true ? { gaveWay: true as const } : {}) };
    }
    return { delivered: false, when: arrived ? 'after_pointer' : 'before_pointer' };
  }
  if (!reached(target.events, 'press')) return { delivered: false, when: reached(target.events, 'pointer') ? 'after_pointer' : 'before_pointer' };
  if (action === 'click' && !reached(target.events, 'release')) return { delivered: false, when: 'on_press', ...(target.gone === true ? { gone: true as const } : {}) };
  return { delivered: true };
}
