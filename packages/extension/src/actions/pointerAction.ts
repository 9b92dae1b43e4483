/**
 * The one pointer-action path. Every pointer action — click, check/uncheck, upload --via, hover, each end of a drag,
 * a click at a point — is `pointerAction(ctx, aim, act)`: the tool says where (`aim`) and what (`act`: the input, a
 * function of the point), and this module does the rest, the same way for all of them:
 *
 *   aim      the page proves a point reaches the element and arms the delivery guards for what the act checks: a ref's
 *            element is scrolled into view, hit-tested, looked at again while the page answers the scroll or a cover
 *            moves, mapped through the frames above it (pointerDelivery.ts); a point names whatever is there
 *            (pointClick.ts); a drop arms its target at the drop point (dropDelivery.ts);
 *   landing  the input's way into frames is held against the person's block list (input/landing.ts): the aim's proof,
 *            `Landed`, is what every sender of input/ asks for;
 *   send     the act's input, at the aimed point;
 *   verify   the guards' logs decide (deliveryVerdict.ts): delivered — with what the press visibly did, `acted`,
 *            `releaseHeld` — or click_intercepted with `details.when`;
 *   give way an element that gave way under the arriving pointer (an icon whose hover image is still loading) is aimed
 *            and tried again once it is drawn again, as a person tries again after a flicker (ref aims);
 *   disarm   every arming ends on every road out, success or failure.
 *
 * A tool never aims, verifies or disarms by hand: the ESLint floors keep pointerDelivery.ts, pointClick.ts and
 * dropDelivery.ts for this module (eslint.config.js). Playwright's anchor is the same idea (`_retryPointerAction`,
 * with the action as a parameter); ours adds the proof after the input.
 */
import { RelayError, type ToolName } from '@chrome-relay/protocol';
import type { CdpTarget } from '../cdp/cdpSession.js';
import type { Interceptor } from '../injected/types.js';
import { checkTopLanding, type Landed } from '../input/landing.js';
import { clickAt, moveTo, withUnbufferedInput, type ClickOptions } from '../input/mouse.js';
import { DocumentChanged } from '../page/pageCall.js';
import { waitForPaint } from '../page/paint.js';
import type { FrameState } from '../page/worlds.js';
import type { DialogInfo, Watched } from '../pageState/dialogs.js';
import { actedOf, classifyDelivery, type DeliveryVerdict, type PressActed } from './deliveryVerdict.js';
import { armDrop, dropVerdict, type DropPoint } from './dropDelivery.js';
import { aimPoint, classifyPointClick, type ArmedPoint, pointNavigatedError, pointUndelivered, probedPointVerdict } from './pointClick.js';
import { disarm, meanwhile, navigatedMidClick, pointerTarget, readGuards, undeliveredError, verifyDelivery, type GuardReports, type PointerPoint } from './pointerDelivery.js';
import type { RefSite } from './refAction.js';
import type { PointerContext } from './toolContext.js';

/** Where a pointer action goes. */
export type PointerAim =
  /** A ref's element: the page aims at it (and aims anew after it gave way). */
  | { readonly ref: RefSite }
  /** Whatever is at a point of the tab's top viewport (`click --x --y`): the guard expects what is there now. */
  | { readonly point: TopPoint };

/** A point of a tab's top viewport, in the document the tab showed when the action began. */
export interface TopPoint {
  readonly tabId: number;
  readonly before: FrameState;
  readonly x: number;
  readonly y: number;
}

/** Where an act sends its input: the answer's point (`x`, `y`: the tab's top viewport), and the session and point the input goes to. */
export interface InputAt {
  readonly tabId: number;
  readonly x: number;
  readonly y: number;
  /** The widget that takes the input (an out-of-process frame's own session), in its CSS px. */
  readonly input: { readonly target: number | CdpTarget; readonly x: number; readonly y: number };
  /** The landing check's proof for the point: what the senders of input/ ask for. */
  readonly landed: Landed;
}

/** Runs an act's input; the click tool passes the dialog tracker's watch (a click may open alert()). */
export type InputRunner = (work: () => Promise<void>) => Promise<Watched<void>>;

const direct: InputRunner = async (work) => ({ done: await work() });

/**
 * What a pointer action sends at the point it was aimed at, and what reaching the element means for it: `click`, the
 * press and the release (a double click too); `hover`, the pointer, still over the element afterwards.
 */
export interface PointAct {
  readonly tool: ToolName;
  readonly checks: 'click' | 'hover';
  /** How messages name the action ("Double-click on @e5 was not delivered…"); the tool's own word by default. */
  readonly verb?: string;
  /**
   * Send the input at `at` through `run`; call `pressed()` once the first press is acknowledged and before the release
   * (what the press reached is read then: a click that opened a dialog, or replaced the document, is judged by it).
   */
  send(ctx: PointerContext, at: InputAt, pressed: () => Promise<void>): Promise<void>;
  /** Runs the input (default: as it is); a click passes the dialog watch. */
  readonly run?: InputRunner;
}

/** A click with the mouse (button, count, modifiers, hold), its press and its release proven to reach the element. */
export function click(tool: ToolName, options: ClickOptions = {}, run: InputRunner = direct): PointAct {
  return {
    tool,
    checks: 'click',
    ...(options.clickCount === 2 ? { verb: 'Double-click on' } : {}),
    run,
    send: (ctx, at, pressed) => clickAt(ctx, at.landed, at.input.target, at.input.x, at.input.y, options, { afterPress: pressed }),
  };
}

/**
 * The pointer onto the element, nothing pressed, proven to be over it afterwards. The move is delivered unbuffered:
 * otherwise its acknowledgement, and so the proof, would wait for the page's next animation frame (mouse.ts).
 */
export function hover(tool: ToolName): PointAct {
  return {
    tool,
    checks: 'hover',
    send: (ctx, at) => withUnbufferedInput(ctx, at.input.target, () => moveTo(ctx, at.landed, at.input.target, at.input.x, at.input.y)),
  };
}

/** Another place that must be in view with the element when the press comes (a drag's drop target); finding it may scroll. */
export type Companion =
  | { readonly ref: RefSite }
  /** Found by the tool in the element's page (a drag's selector); `apart` is the error when the two will not hold still in view together. */
  | { readonly locate: () => Promise<{ x: number; y: number }>; readonly apart: () => RelayError }
  | { readonly point: { readonly x: number; readonly y: number } };

/** Where a companion is, once found: the tab's top viewport, its own frame's viewport for a ref, and the landing proof there. */
export interface Located {
  readonly x: number;
  readonly y: number;
  readonly healed: boolean;
  readonly local?: { readonly x: number; readonly y: number };
  readonly landed: Landed;
}

/**
 * The press of a drag on its source: the pointer onto it and the button down, proven to reach it; the button stays
 * down for the drop (a second pointer action, `DropAct`).
 */
export interface PressAct {
  readonly tool: ToolName;
  readonly checks: 'press';
  /** A place to find with the element, both in view and holding still (the source is aimed again after finding it). */
  readonly with?: Companion;
  /** Once both are found and before any input (the drop point worked out): a failure here ends the armings. */
  beforeInput?(source: InputAt, companion: Located | undefined): Promise<void>;
  /** The pointer onto the element and the button down. */
  send(ctx: PointerContext, at: InputAt): Promise<void>;
  /** Sent while the guards still hold, when the press went elsewhere: the button let go, and what took the press hears nothing of it. */
  letGo(ctx: PointerContext, at: InputAt): Promise<void>;
}

/** A drop at a point, the button already down: the release (and an HTML5 drag's drop) proven to reach the drop target. */
export interface DropAim {
  readonly drop: {
    /** The dragged element (its release may land on it: it often follows the pointer). */
    readonly source: RefSite;
    /** The drop target's ref, or undefined for whatever is at the point of the source's top document. */
    readonly target: RefSite | undefined;
    readonly at: DropPoint;
  };
}

export interface DropAct {
  readonly tool: ToolName;
  readonly checks: 'drop';
  /** The moves to the drop point, the drop and the release. */
  send(ctx: PointerContext): Promise<void>;
  /** The drop target could not be armed: let the button go before the error goes up. */
  abandon(): Promise<void>;
}

/** What a pointer action did: where the input that landed was aimed, and what it did there. */
export interface PointerDone extends PressActed {
  readonly tabId: number;
  readonly x: number;
  readonly y: number;
  /** Any aim of the action healed the ref (found its element again after a re-render). */
  readonly healed: boolean;
  /** The input opened a JavaScript dialog: the page is blocked, and only the press could be checked. */
  readonly dialog?: DialogInfo;
  /** A point's action: what was there, as the guard expected it. */
  readonly target?: Interceptor;
}

/** A drag's source pressed, the button held: where, and where the companion was found. */
export interface Pressed {
  readonly at: InputAt;
  readonly healed: boolean;
  readonly companion?: Located;
}

export function pointerAction(ctx: PointerContext, aim: PointerAim, act: PointAct): Promise<PointerDone>;
export function pointerAction(ctx: PointerContext, aim: { readonly ref: RefSite }, act: PressAct): Promise<Pressed>;
export function pointerAction(ctx: PointerContext, aim: DropAim, act: DropAct): Promise<void>;
export async function pointerAction(ctx: PointerContext, aim: PointerAim | DropAim, act: PointAct | PressAct | DropAct): Promise<PointerDone | Pressed | void> {
  if (act.checks === 'drop') {
    if (!('drop' in aim)) throw misuse(act.tool, 'a drop needs a drop aim');
    return dropAt(ctx, aim.drop, act);
  }
  if ('drop' in aim) throw misuse(act.tool, 'a drop aim takes a drop act');
  if (act.checks === 'press') {
    if (!('ref' in aim)) throw misuse(act.tool, 'a press is aimed at a ref');
    return pressAt(ctx, aim.ref, act);
  }
  return 'ref' in aim ? attempts(ctx, refWay(ctx, aim.ref, act), act) : attempts(ctx, pointWay(ctx, aim.point, act), act);
}

function misuse(tool: ToolName, what: string): RelayError {
  return new RelayError('internal_error', `pointerAction: ${what}`, { tool, phase: 'act' });
}

/** What the aim armed: the point (guards and proof included), and for a point, what the guard expects there. */
interface Armed {
  readonly point: PointerPoint;
  readonly target?: Interceptor;
  readonly frame?: boolean;
}

/** An attempt's answer that its element gave way and nothing of it happened: the error it would be. */
interface GaveWay {
  readonly gaveWay: RelayError;
}

/** How one kind of aim is armed, judged and reported; the loop (`attempts`) is the same for every kind. */
interface Way<A extends Armed> {
  readonly tabId: number;
  aim(): Promise<A>;
  /** What the press reached, from its mid-click read. */
  pressVerdict(armed: A, pressed: GuardReports): DeliveryVerdict;
  /** After the input: did it reach the element? Ends the armings. */
  verdict(armed: A): Promise<DeliveryVerdict>;
  undelivered(armed: A, verdict: Extract<DeliveryVerdict, { delivered: false }>, describeOnly?: boolean): Promise<RelayError>;
  /** The document was replaced before the record could be read, and the press told nothing. */
  navigated(armed: A): RelayError;
  /** The element gave way: its point once it is drawn again, aimed and armed, or undefined (this kind never aims anew, or the time is up). */
  again(until: number): Promise<A | undefined>;
}

function refWay(ctx: PointerContext, site: RefSite, act: PointAct): Way<Armed> {
  const verb = act.verb === undefined ? {} : { verb: act.verb };
  return {
    tabId: site.tabId,
    aim: async () => ({ point: await pointerTarget(ctx, site, act, act.checks) }),
    pressVerdict: (_armed, pressed) => classifyDelivery('press', pressed.target, pressed.above),
    verdict: ({ point }) => verifyDelivery(ctx, point, act.checks),
    undelivered: ({ point }, verdict, describeOnly = false) => undeliveredError(ctx, act.tool, site, point, verdict, { describeOnly, ...verb }),
    navigated: () => navigatedMidClick(act.tool, site),
    again: async (until) => {
      const point = await drawnAgain(ctx, site, act, until);
      return point === undefined ? undefined : { point };
    },
  };
}

function pointWay(ctx: PointerContext, at: TopPoint, act: PointAct): Way<ArmedPoint> {
  if (act.checks !== 'click') throw misuse(act.tool, 'only a click is aimed at a point');
  return {
    tabId: at.tabId,
    aim: () => aimPoint(ctx, at),
    // An element gets the press; over an iframe the top document sees no press at all, so only its verdict counts.
    pressVerdict: ({ frame }, pressed) => (frame === true ? classifyPointClick(true, pressed.target) : classifyDelivery('press', pressed.target)),
    verdict: (armed) => probedPointVerdict(ctx, armed.point, armed.frame === true),
    undelivered: (armed, verdict, describeOnly = false) => pointUndelivered(ctx, at.tabId, armed, verdict, describeOnly),
    navigated: ({ point }) => pointNavigatedError(at.tabId, point),
    // What a point names is whatever is there: an element that gave way is not aimed at again.
    again: async () => undefined,
  };
}

/**
 * How long an element that gives way under the arriving pointer is tried again. The time is the bound: a hover image
 * can take most of it to come, and a fast machine flickers through several attempts meanwhile. The count only keeps
 * a page that gives way at every arrival to a handful.
 */
export const GIVE_WAY_LIMIT_MS = 2000;
const GIVE_WAY_TRIES = 8;

/** Aim, send, verify; while the element gives way, aim anew and attempt again (within GIVE_WAY_LIMIT_MS). */
async function attempts<A extends Armed>(ctx: PointerContext, way: Way<A>, act: PointAct): Promise<PointerDone> {
  const until = Math.min(Date.now() + GIVE_WAY_LIMIT_MS, ctx.deadline - GIVE_WAY_LIMIT_MS / 2);
  let armed = await way.aim();
  let healed = armed.point.healed;
  for (let tries = 0; ; tries++) {
    const outcome = await attempt(ctx, way, act, armed);
    if (!('gaveWay' in outcome)) {
      const { point } = armed;
      return { tabId: way.tabId, x: point.x, y: point.y, healed, ...outcome, ...(armed.target === undefined ? {} : { target: armed.target }) };
    }
    const again = tries < GIVE_WAY_TRIES ? await way.again(until) : undefined;
    if (again === undefined) throw outcome.gaveWay;
    armed = again;
    healed ||= again.point.healed;
  }
}

/** One verified attempt; `{ gaveWay }` when the element gave way and nothing of the input happened. */
async function attempt<A extends Armed>(ctx: PointerContext, way: Way<A>, act: PointAct, armed: A): Promise<({ dialog?: DialogInfo } & PressActed) | GaveWay> {
  const { point } = armed;
  let pressed: GuardReports | undefined;
  const afterPress = async (): Promise<void> => {
    pressed = await readGuards(ctx, point, { disarm: false });
  };
  const run = act.run ?? direct;
  let sent: Watched<void>;
  try {
    sent = await run(() => act.send(ctx, inputAt(way.tabId, point), afterPress));
  } catch (error) {
    await disarm(ctx, point.guards);
    throw error;
  }
  const pressVerdict = pressed === undefined ? undefined : way.pressVerdict(armed, pressed);
  if ('dialog' in sent) {
    // The dialog blocks the page: what the press reached is all that can be read. A press that went astray is the
    // answer (the dialog stays open for the agent); one that reached the element means the dialog came from the
    // element's own press or click.
    if (pressVerdict !== undefined && !pressVerdict.delivered) throw await way.undelivered(armed, pressVerdict, true);
    return { dialog: sent.dialog };
  }
  try {
    const verdict = await way.verdict(armed);
    if (verdict.delivered) return actedOf(verdict);
    const error = await way.undelivered(armed, verdict);
    if (verdict.gaveWay === true) return { gaveWay: error };
    throw error;
  } catch (error) {
    if (!(error instanceof DocumentChanged)) throw error;
    // The input replaced the document before its record could be read: the press record decides.
    if (pressVerdict?.delivered === true) return {};
    if (pressVerdict !== undefined) throw await way.undelivered(armed, pressVerdict, true);
    throw way.navigated(armed);
  }
}

/**
 * The element's point once it is drawn again, aimed and armed; undefined when it is not by `until`. Meanwhile it may
 * have no size (the image its hover style asks for is still loading). Anything else the aiming finds (a cover that
 * came meanwhile) is the answer at once: it names what is there now.
 */
async function drawnAgain(ctx: PointerContext, site: RefSite, act: PointAct, until: number): Promise<PointerPoint | undefined> {
  while (Date.now() < until) {
    await waitForPaint(ctx, site.world);
    try {
      return await pointerTarget(ctx, site, act, act.checks);
    } catch (error) {
      if (!(error instanceof RelayError) || !meanwhile(error)) throw error;
    }
  }
  return undefined;
}

function inputAt(tabId: number, point: PointerPoint): InputAt {
  return { tabId, x: point.x, y: point.y, input: point.input, landed: point.landed };
}

/**
 * The source of a drag: found with its companion (both in view and holding still: finding one may scroll the other),
 * then pressed; the press must reach it, else the button is let go while the guards still cancel what took it and
 * the drag is click_intercepted. Its arming ends either way: the moves of a drag go over other elements on purpose.
 */
async function pressAt(ctx: PointerContext, site: RefSite, act: PressAct): Promise<Pressed> {
  const { point, companion } = await together(ctx, site, act);
  const at = inputAt(site.tabId, point);
  let verdict: DeliveryVerdict;
  try {
    await act.beforeInput?.(at, companion);
    await act.send(ctx, at);
    try {
      const reports = await readGuards(ctx, point, { disarm: false });
      verdict = classifyDelivery('press', reports.target, reports.above);
    } catch (error) {
      await act.letGo(ctx, at).catch(() => undefined);
      throw error;
    }
    // Let the button go while still armed: the guard cancels the release too, so what took the press hears nothing.
    if (!verdict.delivered) await act.letGo(ctx, at);
  } finally {
    await disarm(ctx, point.guards);
  }
  if (!verdict.delivered) throw await undeliveredError(ctx, act.tool, site, point, verdict);
  return { at, healed: point.healed || companion?.healed === true, ...(companion === undefined ? {} : { companion }) };
}

const samePlace = (a: { x: number; y: number }, b: { x: number; y: number }): boolean => a.x === b.x && a.y === b.y;

/**
 * The element aimed and armed (last: each page has one arming at a time, and the element's is the one the press is
 * checked against), with its companion found. Finding the companion may scroll the element, which is then aimed
 * again; both must then hold still, else the act's companion says they do not fit in view together.
 */
async function together(ctx: PointerContext, site: RefSite, act: PressAct): Promise<{ point: PointerPoint; companion?: Located }> {
  const aim = () => pointerTarget(ctx, site, act, 'press');
  const first = await aim();
  const companion = act.with;
  if (companion === undefined) return { point: first };
  if ('point' in companion) return { point: first, companion: await topLanding(ctx, site, first, companion.point) };
  if ('locate' in companion) {
    await disarm(ctx, first.guards);
    const found = await companion.locate();
    const source = await aim();
    if (samePlace(source, first)) return { point: source, companion: await topLanding(ctx, site, source, found) };
    await disarm(ctx, source.guards);
    const again = await companion.locate();
    const settled = await aim();
    if (!samePlace(again, found) || !samePlace(settled, source)) {
      await disarm(ctx, settled.guards);
      throw companion.apart();
    }
    return { point: settled, companion: await topLanding(ctx, site, settled, again) };
  }
  const other = companion.ref;
  const aimOther = async (): Promise<Located> => {
    const point = await pointerTarget(ctx, other, act, 'press');
    // Only found, not pressed: its arming ends at once (the element's own arming comes last).
    await disarm(ctx, point.guards);
    return { x: point.x, y: point.y, healed: point.healed, local: point.local, landed: point.landed };
  };
  const target = await aimOther();
  const source = await aim();
  if (samePlace(source, first)) return { point: source, companion: target };
  await disarm(ctx, source.guards);
  const again = await aimOther();
  const settled = await aim();
  if (!samePlace(again, target) || !samePlace(settled, source)) {
    await disarm(ctx, settled.guards);
    throw new RelayError('invalid_arguments', `Cannot drag @${site.ref} onto @${other.ref}: they do not fit in the viewport together. Scroll so both are visible (or drag in steps), then retry.`, {
      tool: act.tool,
      phase: 'act',
      details: { field: 'to', from: site.ref, to: other.ref },
    });
  }
  return { point: settled, companion: again };
}

/** A companion at a point of the top document: what is there may be a frame showing a blocked site (a ref's point is checked when aimed). */
async function topLanding(ctx: PointerContext, site: RefSite, armed: PointerPoint, at: { x: number; y: number }): Promise<Located> {
  try {
    return { x: at.x, y: at.y, healed: false, landed: await checkTopLanding(ctx, site.tabId, { at, shown: at }) };
  } catch (error) {
    await disarm(ctx, armed.guards);
    throw error;
  }
}

/**
 * The drop of a drag, its source already pressed and proven: the drop target's guard armed at the drop point (in
 * mode drop: the release and an HTML5 drag's drop events must reach it, or the dragged element), the act's moves,
 * drop and release sent, and the guard's log read. If the target cannot be armed, the button is let go first.
 */
async function dropAt(ctx: PointerContext, drop: DropAim['drop'], act: DropAct): Promise<void> {
  let armed: Awaited<ReturnType<typeof armDrop>>;
  try {
    armed = await armDrop(ctx, drop.source, drop.target, drop.at);
  } catch (error) {
    await act.abandon().catch(() => undefined);
    throw error;
  }
  try {
    await act.send(ctx);
  } catch (error) {
    await disarm(ctx, [armed]);
    throw error;
  }
  await dropVerdict(ctx, drop.source, armed, drop.at);
}
