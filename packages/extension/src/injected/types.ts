/**
 * The contract between the page script and the service worker. The worker imports these as types
 * only; values cross as JSON (the page returns a JSON string from Runtime.evaluate).
 *
 * Page code may not import other packages, so `PageNode` mirrors protocol's SnapshotNode
 * structurally; the dispatcher validates the final tool result against the real schema.
 */
import type { ReadAwaitMethod, ReadMethod, ReadsApi } from './reads.js';
import type { ResolveOutcome, StaleReason } from './refStatus.js';
import type { SelectorRefusal } from './selectors.js';

export interface PageNode {
  role: string;
  name?: string;
  ref?: string;
  value?: string;
  url?: string;
  level?: number;
  checked?: 'true' | 'false' | 'mixed';
  disabled?: boolean;
  expanded?: boolean;
  selected?: boolean;
  pressed?: 'true' | 'false' | 'mixed';
  required?: boolean;
  focused?: boolean;
  multiline?: boolean;
  richtext?: boolean;
  readonly?: boolean;
  /** The name is not Chrome's (which is empty) but what a person goes by: the icon, a tooltip, a nearby label. */
  nameFrom?: 'icon' | 'tooltip' | 'label';
  /** The image the element draws through CSS (its state, e.g. a board cell's "x"), as the words of its file name. */
  img?: string;
  /** Beyond the edge of what scrolling reaches (pushed there by layout): no pointer reaches it. */
  offscreen?: boolean;
  /** The bounds a slider or spin button moves between. */
  min?: number;
  max?: number;
  /** The name / value were cut: their whole length. */
  nameLength?: number;
  valueLength?: number;
  /** Set by the worker, iframe nodes only: the rule of the person's block list the frame's site falls under (its content is never read). */
  siteBlocked?: string;
  children?: PageNode[];
  /**
   * Internal, iframe nodes only: the frame's index among the snapshot's frame elements, so the
   * worker can put the child frame's tree here. The worker removes it before replying.
   */
  frameSlot?: number;
}

/**
 * What the page keeps about each ref, and what heal matches on (the worker only gets ref, role
 * and name, through the tree).
 * `context` is the signature of the nearest identifying ancestor ('' = none); twinIndex/twinCount
 * place the element among all actionable elements with the same role+name+context, in document order.
 */
export interface RefRecord {
  ref: string;
  role: string;
  name: string;
  context: string;
  twinIndex: number;
  twinCount: number;
}

/** What the worker needs before a listener read: whether to read again, and which nodes this world holds. */
export interface ListenerScanState {
  stale: boolean;
  /** Backend node ids (CDP's: stable for a node's lifetime, never reused) of the hinted elements still alive. */
  known: number[];
  /** When stale: the elements with an inline click-type handler attribute (listenerHints.ts INLINE_CLICK_SELECTOR); else -1. */
  inlineClicks: number;
}

export interface SnapshotArgs {
  /** First free number of the browser-wide ref counter. */
  nextRef: number;
  /**
   * Return only this part of the page (refs are still issued for the whole page, so refs outside
   * the scope keep working). A ref of the previous snapshot, or a CSS selector (first match).
   */
  scope?: { ref: string } | { selector: string };
  /** Cut text runs and values at this many characters (default 100). */
  maxText?: number;
}

/**
 * Every ref appears exactly once in `tree`, on its element's node (with its role and name), so the
 * records are not shipped separately: on a big page that would double the bytes to transfer.
 */
export interface PageSnapshot {
  /** Pass to commit() once the counter and registry are stored; until then nothing changed in the page. */
  token: string;
  url: string;
  title: string;
  tree: PageNode[];
  /** The counter value after this snapshot (unchanged when every element kept its ref). */
  nextRef: number;
  refCount: number;
  /** With a scope, the tree shows only part of the refs: all of them as [ref, role, name]. */
  refs?: [string, string, string][];
  /** Refs kept for elements hidden right now (not in the tree): [ref, role, name]. They answer stale_ref `hidden` until shown. */
  hidden?: [string, string, string][];
  /** The scope matched nothing (or its ref is stale); nothing was computed. */
  scopeMissing?: string;
  /** The scope selector was refused (not CSS, or it tests a secret's value: selectors.ts); nothing was computed. */
  scopeRefused?: SelectorRefusal;
  /** A modal dialog is open (its name, possibly ''): content outside it is left out, refs included. */
  modal?: string;
}

export type { ResolveOutcome, StaleReason } from './refStatus.js';

export interface RefArgs {
  ref: string;
}

/** An element described for an agent: a covering element (an interceptor), or what a coordinate click expects. */
export interface Interceptor {
  tag: string;
  /** Its DOM nodeName (`DIV`; SVG and foreign elements keep their case), as DOM.describeNode reports it. */
  nodeName: string;
  id: string;
  className: string;
  /** Its role as a snapshot shows it ('' for the document's root). */
  role: string;
  /**
   * Its name as a snapshot shows it, cut short (hitTest.ts briefName): enough to recognise the element, never a
   * style sheet or a whole page's text.
   */
  name: string;
  /** Its ref when it has one (an interceptor: its own; a coordinate click's target: its own or its nearest ancestor's). */
  ref?: string;
  /** This world's handle on the element for a moment (adopt(), candidate()): the worker gives it a ref or a node id. */
  candidate: number;
}

/** The scroller a scroll turned, as the result names it (no handle: it is named, never adopted). */
export type Scroller = Pick<Interceptor, 'tag' | 'id' | 'className' | 'name' | 'ref'>;

export interface AdoptArgs {
  candidate: number;
  /** The ref the worker reserved for it (the counter already moved past it). */
  ref: string;
}

export type AdoptOutcome =
  /** `ref`: the element's ref now (the reserved one, or the one it had meanwhile); role and name as a snapshot computes them. */
  | { status: 'ok'; ref: string; role: string; name: string; adopted: boolean }
  /** The element left the page, or is the document's root (a ref to it would stand for the whole page). */
  | { status: 'gone' | 'root' };

/**
 * Which parts of a pointer action the delivery guard checks (injected/delivery.ts): the pointer
 * arriving (over/enter/move), the press (pointerdown/mousedown), the release and what follows it
 * (pointerup/mouseup/click/auxclick/dblclick/contextmenu), and an HTML5 drop (dragenter/dragover/drop).
 */
export type DeliveryPhase = 'pointer' | 'press' | 'release' | 'drop';

/**
 * `target`: the ref's own document, expecting the element; `owner`: a frame above it, expecting
 * the <iframe>; `drop`: the end of a drag, expecting the drop target to get the release or the drop.
 */
export type GuardMode = 'target' | 'owner' | 'drop';

/** One trusted event the armed guard checked, in dispatch order. */
export interface GuardEvent {
  type: string;
  phase: DeliveryPhase;
  /** It went to the expected element (or somewhere the rules of its mode allow); false = cancelled. */
  ok: boolean;
}

export interface DeliveryArgs {
  /** From prepareClick or framePoint. */
  token: string;
  /** End the arming (after the action); false only peeks (between press and release). */
  disarm: boolean;
  /** Also look at this point of this document now (see GuardReport.probe). */
  probe?: { x: number; y: number };
}

/** What the guard of one document saw during an action. */
export interface GuardReport {
  /** False when this document has no such arming any more (it navigated, or the arming expired). */
  armed: boolean;
  /**
   * Another action armed this document's guard before this one was read (input chrome-relay did not queue): the log
   * is incomplete and may hold the other action's events, so it proves neither delivery nor its absence.
   */
  superseded?: true;
  events: GuardEvent[];
  /** Who took the first event that went astray (it, and all later events, were cancelled). */
  interceptor?: Interceptor;
  /** The element has left the document since it was armed (its own handlers removed or re-rendered it). */
  gone?: true;
  /**
   * Nothing covered the element: it gave way under the pointer (it shrank, moved or hid: a hover style swapping in an
   * image that is still loading, a target that jumps), and the arrival or the press went to an element holding it.
   * See injected/delivery.ts GuardState.gaveWay.
   */
  gaveWay?: true;
  /** At `probe`: whether the point reaches the element now, whether the pointer is over it (:hover), and what is there otherwise. */
  probe?: { reaches: boolean; hovered: boolean; hit?: Interceptor; gaveWay?: true };
  /**
   * What the press visibly did to the control it reached (injected/pressEffects.ts), seen when the first event went
   * astray, or, when none did, when the guard was read to end the arming.
   */
  acted?: PressEffect;
}

/**
 * What a press did that a person sees, told by the control's own state (ARIA and native): it opened or closed its
 * popup, expanded or collapsed, was checked, pressed or selected, or an item chosen from a popup that then closed.
 */
export type PressEffectKind =
  | 'opened'
  | 'closed'
  | 'expanded'
  | 'collapsed'
  | 'checked'
  | 'unchecked'
  | 'pressed'
  | 'unpressed'
  | 'selected'
  | 'chosen'
  | 'focused';

export interface PressEffect {
  what: PressEffectKind;
  /** opened, closed: the popup, by its role and its short explicit name ('' when it has none). */
  popup?: { role: string; name: string };
}

/** Arm the guard for an action aimed at a point rather than at a ref's proven point (coordinate clicks, the drop of a drag). */
export interface ArmPointArgs {
  /** CSS px in this document's viewport. */
  x: number;
  y: number;
  arm: DeliveryPhase[];
  /** `click`: expect the deepest element at the point; `drop`: expect the drop target (mode `drop`). */
  purpose: 'click' | 'drop';
  /** drop: the drop target's ref; without it, the deepest element at the point. */
  ref?: string;
  /** drop: the dragged element's ref, in this document; the release may go to it (it often follows the pointer). */
  sourceRef?: string;
}

export type ArmPointOutcome =
  /** `target`: what the guard expects (described like an interceptor); `frame`: it is an iframe (mode owner). */
  | { status: 'ok'; token: string; target: Interceptor; frame: boolean }
  /** The point is not inside this document's viewport: nothing can be there. */
  | { status: 'outside'; viewport: { width: number; height: number } }
  | { status: 'stale'; reason: StaleReason };

export interface PrepareClickArgs {
  ref: string;
  /** Arm this document's delivery guard for these phases once the point is proven (ok outcome only). */
  arm?: DeliveryPhase[];
}

export type PrepareClickOutcome =
  | {
      status: 'ok';
      /** CSS px in the viewport of the element's own frame. */
      x: number;
      y: number;
      healed: boolean;
      /** 'skipped' when elementFromPoint could not run at the point (outside the viewport). */
      hitTest: 'passed' | 'skipped';
      /** The frame's layout viewport (CSS px): an iframe's must match its owner's content box. */
      viewport: { width: number; height: number };
      /** With `arm`: the guard's token for deliveryReport. */
      token?: string;
      /** The point is over an <iframe> (the element is one, or holds one there): the input goes into the frame it shows. */
      intoFrame?: true;
      /** The element was scrolled into view for this point: the page may still move it in answer to the scroll. */
      scrolled?: true;
    }
  /** `look`: the covering element's box and opacity now (hitTest.ts lookOf); a change between two tries means it is still moving. */
  | { status: 'intercepted'; x: number; y: number; healed: boolean; interceptor: Interceptor; look: string }
  /**
   * Still the same element, but it has no box to click (display:none, zero size, collapsed), or (`beyondEdge`) its box
   * lies past the edge the page can scroll to, where no pointer reaches.
   */
  | { status: 'not_visible'; healed: boolean; beyondEdge?: true }
  /** A disabled form control: the browser dispatches no press to it, so a click cannot be delivered. */
  | { status: 'disabled'; healed: boolean }
  | { status: 'stale'; reason: StaleReason };

type Healed = { healed: boolean };
type Stale = { status: 'stale'; reason: StaleReason };

export type FillOutcome =
  /** Focused with its whole value selected: the worker now types the value (trusted). */
  | ({ status: 'typing'; plan: 'typed' | 'contenteditable' } & Healed)
  /** Set in the page (picker inputs, <select>); `value` is what the element now holds. */
  | ({ status: 'done'; value: string } & Healed)
  | ({ status: 'refused'; reason: string } & Healed)
  | ({ status: 'no_option'; missing: string; available: string[] } & Healed)
  | Stale;

/** `secret`: a password (or one-time code) field, whose value the worker compares but never hands to the agent. */
export type ValueOutcome = { status: 'ok'; value: string; secret: boolean } | Stale;

/** Times on the document's clock (performance.now()); -1 = not since the page script was installed. */
export interface PageActivity {
  now: number;
  /** Elements were added or removed (or text changed). */
  mutation: number;
  /** The URL changed without a new document (pushState, replaceState, a hash): a client-side route. */
  route: number;
}

/** `get text|value|attr @ref`: the whole string, exactly as the page holds it. */
export interface ReadArgs {
  ref: string;
  what: 'text' | 'value' | 'attr';
  /** The attribute, for attr. */
  name?: string;
}
export type ReadOutcome = ({ status: 'ok'; value: string | null } & Healed) | ({ status: 'no_value'; tag: string } & Healed) | Stale;

export type SelectOutcome =
  | ({ status: 'done'; selected: string[] } & Healed)
  | ({ status: 'refused'; reason: string } & Healed)
  | ({ status: 'no_option'; missing: string; available: string[] } & Healed)
  | Stale;

export type CheckStateOutcome =
  | ({ status: 'ok'; checked: 'true' | 'false' | 'mixed'; radio: boolean } & Healed)
  | ({ status: 'refused'; reason: string } & Healed)
  | Stale;

export type FocusOutcome = ({ status: 'ok' } & Healed) | ({ status: 'refused'; reason: string } & Healed) | Stale;

export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

export interface ScrollArgs {
  /** Scroll this element's scroll container (itself or its nearest scrolling ancestor); absent = the page. */
  ref?: string;
  direction: ScrollDirection;
  /** CSS px; default 85% of the container's visible size. */
  amount?: number;
}

export type ScrollOutcome =
  | ({ status: 'ok'; container: 'page' | 'element'; before: { x: number; y: number }; after: { x: number; y: number }; scroller?: Scroller } & Healed)
  | Stale;

/** The box in viewport CSS px, and the page's scroll it was measured at (a screenshot takes a frame drawn at that scroll). */
export type BoxOutcome = ({ status: 'ok'; x: number; y: number; width: number; height: number; scrollX: number; scrollY: number } & Healed) | ({ status: 'not_visible' } & Healed) | Stale;

export type IntoViewOutcome = ({ status: 'ok'; x: number; y: number; scrolled: boolean } & Healed) | ({ status: 'not_visible' } & Healed) | Stale;

export type FileInputOutcome = ({ status: 'ok'; multiple: boolean } & Healed) | ({ status: 'refused'; reason: string } & Healed) | Stale;

/** Where a point of a child frame's viewport lies in this (its parent's) viewport, and whether it reaches the frame. */
export type FramePointOutcome =
  /**
   * `scrolled`: this document scrolled to bring the point into view. `content`: the iframe's
   * content box (CSS px), the size the child's viewport must have. `token`: with `arm`, this
   * document's guard, armed to expect the iframe element.
   */
  | { status: 'ok'; x: number; y: number; scrolled: boolean; content: { width: number; height: number }; token?: string }
  | { status: 'intercepted'; x: number; y: number; interceptor: Interceptor }
  /** The frame element has no box (hidden) or is no longer in this document. */
  | { status: 'not_visible' };

/** Where a drop target given as a CSS selector is (the first visible match, open shadow roots searched). */
export type FocusSelectorOutcome =
  | { status: 'ok' }
  | SelectorRefusal
  | { status: 'none' }
  | { status: 'many'; count: number }
  | { status: 'refused'; reason: string };

export type SelectorPointOutcome =
  | { status: 'ok'; x: number; y: number; hitTest: 'passed' | 'skipped' }
  | { status: 'intercepted'; x: number; y: number; interceptor: Interceptor }
  | SelectorRefusal
  /** Nothing matches, or nothing that matches has a box. */
  | { status: 'none'; matched: number };

export interface CommitArgs {
  token: string;
}

/** Installed as `globalThis.__chromeRelay` in our isolated world. */
export interface PageApi extends ReadsApi {
  readonly version: 1;
  /**
   * Random per installed script, so per world: the worker holds it with the world and every call checks it, because
   * an execution context id names a context only within one renderer process. After a cross-process navigation the
   * same id can name a context of the new document (its main world, or our world there), and a call sent by id would
   * run there (page/pageCall.ts).
   */
  readonly stamp: string;
  /**
   * Two-phase: snapshot() computes refs but binds nothing; commit() makes them the world's refs.
   * The worker commits only after it stored the counter and the registry, so a failure in between
   * can never leave the page answering to ref numbers the counter did not reserve.
   */
  snapshot(args: SnapshotArgs): PageSnapshot;
  commit(args: CommitArgs): { committed: boolean };
  resolve(args: RefArgs): ResolveOutcome;
  prepareClick(args: PrepareClickArgs): PrepareClickOutcome;
  /** Read (and with `disarm`, end) the delivery guard's record of the action armed as `token`. */
  deliveryReport(args: DeliveryArgs): GuardReport;
  /** Find what an action aimed at a point expects there and arm the guard for it (no scrolling, no refusal). */
  armPoint(args: ArmPointArgs): ArmPointOutcome;
  fill(args: { ref: string; value: string }): FillOutcome;
  value(args: RefArgs): ValueOutcome;
  read(args: ReadArgs): ReadOutcome;
  /** When the document last changed its elements and its URL (same-document navigations), and now: performance.now(). */
  activity(): PageActivity;
  select(args: { ref: string; values: string[] }): SelectOutcome;
  checkState(args: RefArgs): CheckStateOutcome;
  focus(args: RefArgs): FocusOutcome;
  scroll(args: ScrollArgs): ScrollOutcome;
  scrollIntoView(args: RefArgs): IntoViewOutcome;
  /** Scroll the element into view if needed and return its box in viewport CSS px (element screenshots). */
  box(args: RefArgs): BoxOutcome;
  fileInput(args: RefArgs): FileInputOutcome;
  /** Scroll the first visible element matching `selector` into view and hit-test it (drag targets given as CSS). */
  locateSelector(args: { selector: string }): SelectorPointOutcome;
  /** Focus the one element matching `selector` (`type -s <css>`): a unique match, as `get` by selector wants. */
  focusSelector(args: { selector: string }): FocusSelectorOutcome;
  /** The live element of a ref (not JSON: used to get a RemoteObject for DOM.* calls), or null. */
  element(args: RefArgs): Element | null;
  /**
   * Give the element a described interceptor stands for the worker's reserved ref, like a snapshot's (it resolves,
   * heals and dies by the same rules), and keep it actionable in later snapshots, so the agent finds it there.
   */
  adopt(args: AdoptArgs): AdoptOutcome;
  /** Not JSON (a RemoteObject for DOM.describeNode): the element a described interceptor stands for, or null. */
  candidate(args: { candidate: number }): Element | null;
  /**
   * Not JSON (called with RemoteObjects): the elements that have page listeners for actions a person performs
   * (page/listeners.ts); later walks of this document count them as actionable. `reused`: backend node ids of
   * elements it already holds; `fresh[i]`: the id of `elements[i]`. Returns how many it was given.
   */
  noteListeners(reused: number[], fresh: number[], elements: Element[]): number;
  /**
   * Whether elements came or went since the last noteListeners (or there are shadow roots it cannot watch), the
   * backend node ids of the hinted elements this world still holds (a new read need not resolve them again), and
   * when a read is due the count of inline click handlers it needs.
   */
  listenerScanState(): ListenerScanState;
  /** Not JSON (its node is wanted as a RemoteObject): this world's document, whose node id the listener read starts from. */
  documentNode(): Document;
  /** Not JSON (called on a RemoteObject): the frameSlot the last snapshot gave this frame element, or -1. */
  frameSlot(element: Element): number;
  /**
   * Not JSON (called on a RemoteObject): bring the point (x, y) of the frame element's own viewport
   * into view here and hit-test it in this document, so nothing of the parent covers the frame there.
   * With `arm`, arm this document's guard to expect the frame element (mode `owner`).
   */
  framePoint(element: Element, x: number, y: number, arm?: DeliveryPhase[]): FramePointOutcome;
  /**
   * Not JSON (its element is wanted as a RemoteObject): the <iframe>/<frame> that input goes into from this
   * document — the deepest element at the point (x, y) of this viewport, or without a point the element keyboard
   * focus is in — or null when that is not a frame element.
   */
  inputFrame(at: { x: number; y: number } | null): Element | null;
  /** Not JSON (called on a RemoteObject): the point (x, y) of this viewport in the viewport of the frame element's document. */
  pointInFrame(frame: Element, x: number, y: number): { x: number; y: number };
}

export type PageMethod =
  | 'snapshot'
  | 'commit'
  | 'resolve'
  | 'prepareClick'
  | 'deliveryReport'
  | 'armPoint'
  | 'fill'
  | 'value'
  | 'read'
  | 'select'
  | 'checkState'
  | 'focus'
  | 'scroll'
  | 'scrollIntoView'
  | 'box'
  | 'fileInput'
  | 'locateSelector'
  | 'focusSelector'
  | 'adopt'
  | 'activity'
  | 'listenerScanState'
  | ReadMethod;
export type PageArgs<M extends PageMethod | ReadAwaitMethod> = Parameters<PageApi[M]>[0];
export type PageReturn<M extends PageMethod | ReadAwaitMethod> = Awaited<ReturnType<PageApi[M]>>;
