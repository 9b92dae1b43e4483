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
 */
import type { GuardEvent, GuardReport, Interceptor } from '../injected/types.js';

export type DeliveryWhen = 'before_pointer' | 'after_pointer' | 'on_press';

/** click: press and release; press: only the press (the source of a drag); hover: only the pointer. */
export type DeliveryAction = 'click' | 'press' | 'hover';

export type DeliveryVerdict =
  | { delivered: true }
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
