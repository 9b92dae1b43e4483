/**
 * Trusted mouse input through CDP Input.dispatchMouseEvent: the browser delivers these exactly like
 * a person's mouse (isTrusted, hover, focus, pointer events), unlike element.click() in the page.
 * Coordinates are CSS pixels in the viewport of the widget the target names: the tab's top-level
 * viewport, or an out-of-process iframe's own when given its child session.
 */
import type { CdpTarget } from '../cdp/cdpSession.js';
import type { ToolContext } from '../tools/defineTool.js';

export type MouseButton = 'left' | 'right' | 'middle';

export interface ClickOptions {
  button?: MouseButton;
  /** 2 for a double click: each press/release pair carries its running count, as a real mouse does. */
  clickCount?: number;
  /** CDP modifier bit field: Alt=1, Ctrl=2, Meta=4, Shift=8. */
  modifiers?: number;
}

/** The `buttons` bit field (which buttons are held) that goes with each button. */
const BUTTON_BITS: Readonly<Record<MouseButton, number>> = { left: 1, right: 2, middle: 4 };

export async function clickAt(ctx: Pick<ToolContext, 'cdp'>, tabId: number | CdpTarget, x: number, y: number, opts: ClickOptions = {}): Promise<void> {
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

/** Move the pointer without pressing (hover). */
export async function moveTo(ctx: Pick<ToolContext, 'cdp'>, tabId: number | CdpTarget, x: number, y: number): Promise<void> {
  await ctx.cdp.send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'none', buttons: 0, pointerType: 'mouse' });
}
