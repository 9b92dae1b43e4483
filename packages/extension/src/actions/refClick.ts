/**
 * The verified click on a ref, shared by click, check/uncheck and upload --via: press and release
 * at the point pointerDelivery.ts proved, read between the two what the press reached, and after
 * the release what the whole click reached. Throws click_intercepted when any of it went
 * elsewhere; returns normally only when the element got the press and the release.
 *
 * An element that gives way under the arriving pointer is clicked again (pointerDelivery.ts whileGivingWay).
 */
import { reasonedError, type ToolName } from '@chrome-relay/protocol';
import { clickAt, type ClickOptions } from '../input/mouse.js';
import { DocumentChanged } from '../page/pageCall.js';
import type { DialogInfo, Watched } from '../pageState/dialogs.js';
import type { ToolContext } from './toolContext.js';
import { actedOf, classifyDelivery, type PressActed } from './deliveryVerdict.js';
import { disarm, readGuards, undeliveredError, verifyDelivery, whileGivingWay, type GaveWay, type GuardReports, type PointerPoint } from './pointerDelivery.js';
import type { RefSite } from './refAction.js';
/** Runs the input; the click tool passes the dialog tracker's watch (a click may open alert()). */
export type InputRunner = (work: () => Promise<void>) => Promise<Watched<void>>;

const direct: InputRunner = async (work) => ({ done: await work() });

/**
 * Press and release at `point` through `run`, reading the guards between the two (what the press reached). The
 * guards are disarmed when the input itself fails; otherwise the caller reads the release's record.
 */
export async function guardedClick(
  ctx: ToolContext,
  point: PointerPoint,
  options: ClickOptions,
  run: InputRunner,
): Promise<{ pressed: GuardReports | undefined; clicked: Watched<void> }> {
  let pressed: GuardReports | undefined;
  const afterPress = async (): Promise<void> => {
    pressed = await readGuards(ctx, point, { disarm: false });
  };
  try {
    const clicked = await run(() => clickAt(ctx, point.landed, point.input.target, point.input.x, point.input.y, options, { afterPress }));
    return { pressed, clicked };
  } catch (error) {
    await disarm(ctx, point.guards);
    throw error;
  }
}

/**
 * Click the ref's element at `point` and prove it got the click. `{ dialog }` when the click
 * opened a JavaScript dialog (the page is then blocked: only the press could be checked). When the
 * document was replaced right after the release (the click navigated) before the record could be
 * read, the press's record decides. `point`: where the click that landed was aimed (a click tried again is aimed
 * anew).
 */
export async function clickRef(
  ctx: ToolContext,
  site: RefSite,
  point: PointerPoint,
  tool: ToolName,
  options: ClickOptions = {},
  run: InputRunner = direct,
): Promise<{ dialog?: DialogInfo; point: PointerPoint } & PressActed> {
  // The point returned is the one the click that landed was aimed at: its x, y and healed are the answer's.
  const { value, point: aimed } = await whileGivingWay(ctx, site, tool, 'click', point, (at) => clickOnce(ctx, site, at, tool, options, run));
  return { ...value, point: aimed };
}

/** One verified click; `{ gaveWay }` (the error it would be) when the element gave way and nothing of the click happened. */
async function clickOnce(
  ctx: ToolContext,
  site: RefSite,
  point: PointerPoint,
  tool: ToolName,
  options: ClickOptions,
  run: InputRunner,
): Promise<({ dialog?: DialogInfo } & PressActed) | GaveWay> {
  const { pressed, clicked } = await guardedClick(ctx, point, options, run);
  const pressVerdict = pressed === undefined ? undefined : classifyDelivery('press', pressed.target, pressed.above);
  if ('dialog' in clicked) {
    // The dialog blocks the page: what the press reached is all that can be read. A press that went
    // astray is the answer (the dialog stays open for the agent); one that reached the element
    // means the dialog came from the element's own press or click.
    if (pressVerdict !== undefined && !pressVerdict.delivered) throw await undeliveredError(ctx, tool, site, point, pressVerdict, { describeOnly: true });
    return { dialog: clicked.dialog };
  }
  try {
    const verdict = await verifyDelivery(ctx, point, 'click');
    if (!verdict.delivered && verdict.gaveWay === true) return { gaveWay: await undeliveredError(ctx, tool, site, point, verdict) };
    if (!verdict.delivered) throw await undeliveredError(ctx, tool, site, point, verdict);
    return actedOf(verdict);
  } catch (error) {
    if (!(error instanceof DocumentChanged)) throw error;
    // The click navigated before its record could be read: the press record decides.
    if (pressVerdict?.delivered === true) return {};
    if (pressVerdict !== undefined) throw await undeliveredError(ctx, tool, site, point, pressVerdict, { describeOnly: true });
    throw reasonedError(
      'stale_ref',
      'navigated',
      `The document @${site.ref} is in was replaced while it was being clicked, before chrome-relay could check what the click reached: it may have happened. Check the page with \`chrome-relay snapshot\` before clicking again.`,
      { tool, phase: 'verify', details: { ref: site.ref, tab: site.tabId }, retryable: false },
    );
  }
}
