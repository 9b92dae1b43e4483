/**
 * Trusted mouse input through CDP Input.dispatchMouseEvent: the browser delivers these exactly like
 * a person's mouse (isTrusted, hover, focus, pointer events), unlike element.click() in the page.
 * Coordinates are CSS pixels in the viewport of the widget the target names: the tab's top-level
 * viewport, or an out-of-process iframe's own when given its child session. Every sender takes the landing
 * check's proof for the tab (landing.ts).
 */
import type { CdpTarget } from '../cdp/cdpSession.js';
import type { CallContext } from '../context/call.js';
import { assertLanded, type Landed } from './landing.js';

const tabOf = (target: number | CdpTarget): number => (typeof target === 'number' ? target : target.tabId);

export type MouseButton = 'left' | 'right' | 'middle';

export interface ClickOptions {
  button?: MouseButton;
  /** 2 for a double click: each press/release pair carries its running count, as a real mouse does. */
  clickCount?: number;
  /** CDP modifier bit field: Alt=1, Ctrl=2, Meta=4, Shift=8. */
  modifiers?: number;
  /** Press and hold: milliseconds between the press and the release (a single click only). */
  holdMs?: number;
}

/** The `buttons` bit field (which buttons are held) that goes with each button. */
const BUTTON_BITS: Readonly<Record<MouseButton, number>> = { left: 1, right: 2, middle: 4 };

export interface ClickHooks {
  /**
   * Runs once the first press is acknowledged (the page has dispatched pointerdown/mousedown) and
   * before the release: the moment to read what the press reached. The release follows whatever
   * it returns; a check that fails still lets the button go up.
   */
  afterPress?: () => Promise<void>;
}

export async function clickAt(
  ctx: Pick<CallContext, 'cdp'>,
  landed: Landed,
  tabId: number | CdpTarget,
  x: number,
  y: number,
  opts: ClickOptions = {},
  hooks: ClickHooks = {},
): Promise<void> {
  assertLanded(landed, tabOf(tabId));
  const button = opts.button ?? 'left';
  const clickCount = opts.clickCount ?? 1;
  const modifiers = opts.modifiers ?? 0;
  // Move first so the page sees hover/enter before the press, like a real pointer arriving. The move
  // is sent but its ack is awaited only after the press: Blink aligns mousemove with animation frames,
  // and a hidden background tab has none, so that ack alone waited up to ~1 s (observed: 990 ms on a
  // 1,500-row page). The press is a discrete event; it flushes the queued move first, so the page
  // still sees move → down → up → click in order, and every ack then arrives within milliseconds.
  const moved = ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, modifiers, button: 'none', buttons: 0, pointerType: 'mouse' });
  // If the press fails, the move's own rejection must not go unhandled.
  moved.catch(() => undefined);
  for (let count = 1; count <= clickCount; count++) {
    await ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', {
      type: 'mousePressed',
      x,
      y,
      modifiers,
      button,
      buttons: BUTTON_BITS[button],
      clickCount: count,
      pointerType: 'mouse',
    });
    if (count === 1 && hooks.afterPress !== undefined) {
      // Never leave the button held down in the browser, whatever the check found.
      await hooks.afterPress().catch(() => undefined);
    }
    if (count === 1 && opts.holdMs !== undefined && opts.holdMs > 0) {
      const hold = opts.holdMs;
      await new Promise<void>((resolve) => setTimeout(resolve, hold));
    }
    await ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', {
      type: 'mouseReleased',
      x,
      y,
      modifiers,
      button,
      buttons: 0,
      clickCount: count,
      pointerType: 'mouse',
    });
  }
  await moved;
}

/** Move the pointer without pressing (hover). Its ack waits for the page to handle the move: see withUnbufferedInput. */
export async function moveTo(ctx: Pick<CallContext, 'cdp'>, landed: Landed, tabId: number | CdpTarget, x: number, y: number): Promise<void> {
  assertLanded(landed, tabOf(tabId));
  await ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'none', buttons: 0, pointerType: 'mouse' });
}

/** One step of a drag with the left button: a move (held or not), the press, or the release. */
export async function dragMouse(ctx: Pick<CallContext, 'cdp'>, landed: Landed, tabId: number, type: 'mouseMoved' | 'mousePressed' | 'mouseReleased', x: number, y: number, buttons: number): Promise<void> {
  assertLanded(landed, tabId);
  await ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', {
    type,
    x,
    y,
    button: type === 'mouseMoved' && buttons === 0 ? 'none' : 'left',
    buttons,
    clickCount: type === 'mouseMoved' ? 0 : 1,
    pointerType: 'mouse',
  });
}

/**
 * Run `work` with the page handling every mouse move as it arrives. Blink queues moves for the
 * next animation frame and acknowledges them only then; with no press to flush the queue (hover,
 * the moves of a drag) each ack waited for a frame: ~1 s after a click on a 1,500-row page
 * (measured on Chromium 156). Enabling the Overlay domain (which needs DOM) makes Blink deliver input
 * unbuffered, as it does for DevTools (InspectorOverlayAgent::enable → unbuffered input for the
 * debugger); disabling it restores the page's normal, frame-aligned input. Nothing is drawn.
 * `target` is the session of the widget that receives the input (an OOPIF has its own).
 */
export async function withUnbufferedInput<T>(ctx: Pick<CallContext, 'cdp'>, target: number | CdpTarget, work: () => Promise<T>): Promise<T> {
  await ctx.cdp.send(target, 'DOM.enable');
  await ctx.cdp.send(target, 'Overlay.enable');
  try {
    return await work();
  } finally {
    await ctx.cdp.send(target, 'Overlay.disable').catch(() => undefined);
    await ctx.cdp.send(target, 'DOM.disable').catch(() => undefined);
  }
}
