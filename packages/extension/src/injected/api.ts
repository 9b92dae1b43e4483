/**
 * The page API: snapshot (assign refs), resolve (verify or heal a ref), prepareClick (resolve,
 * scroll, hit-test). Every expected outcome is a return value; the worker decides which error it is.
 */
import { Bindings, type Binding } from './bindings.js';
import { isSecretField, SECRET_MASK } from './secrets.js';
import { checkState, currentValue, focusElement, isFileInput, planFill, scrollContainer, scrollerOnScreen, scrollStep, selectForTyping, selectOptions, setPickerValue } from './actions.js';
import { DeliveryGuard } from './delivery.js';
import { deepActiveElement, flatContains, isFrameElement } from './dom.js';
import { explicitName } from './names.js';
import { agentSelectAll, agentSelectFirst, isRefusal, type SelectorRefusal } from './selectors.js';
import { coveringElement, describeInterceptor, frameContentBox, locateClick, locateInFrame, lookOf, nearestRef, pointInFrame, scrollIntoViewIfNeeded } from './hitTest.js';
import { decideHeal, identityKey, placeTwins } from './identity.js';
import { ListenerHintSet } from './listenerHints.js';
import { assignRefs, type Vanished } from './refAssignment.js';
import { createReads } from './reads.js';
import { textLines } from './text.js';
import type {
  AdoptArgs,
  AdoptOutcome,
  ArmPointArgs,
  ArmPointOutcome,
  CheckStateOutcome,
  CommitArgs,
  DeliveryArgs,
  DeliveryPhase,
  FileInputOutcome,
  FillOutcome,
  FocusOutcome,
  FramePointOutcome,
  GuardReport,
  IntoViewOutcome,
  BoxOutcome,
  ListenerScanState,
  PageApi,
  PageSnapshot,
  PrepareClickArgs,
  PrepareClickOutcome,
  PageActivity,
  ReadArgs,
  ReadOutcome,
  RefArgs,
  RefRecord,
  ResolveOutcome,
  ScrollArgs,
  Scroller,
  ScrollOutcome,
  SelectOutcome,
  FocusSelectorOutcome,
  SelectorPointOutcome,
  SnapshotArgs,
  ValueOutcome,
} from './types.js';
import { contextOf, Walker, type Actionable } from './walker.js';
import { deepElementFromPoint } from './dom.js';

type Resolved = { status: 'live'; element: Element; healed: boolean } | Extract<ResolveOutcome, { status: 'stale' }>;

function keyOf(actionable: Actionable): string {
  return identityKey(actionable.role, actionable.name, contextOf(actionable));
}

/** Rendered at all (display, visibility, content-visibility, ancestors included)? */
function isRendered(element: Element): boolean {
  return element.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true } as CheckVisibilityOptions);
}

/** Shown now: rendered, not transparent, with a box (what a hidden ref waits for). */
function isShown(element: Element): boolean {
  if (!element.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true, opacityProperty: true } as CheckVisibilityOptions)) return false;
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0;
}

/** Refs kept for hidden elements, at most (the oldest go first): an app that hides rather than removes must not grow this forever. */
const MAX_HIDDEN_REFS = 2000;
/** Described elements the worker may still ask for (adopt, candidate): the last few actions' interceptors are plenty. */
const MAX_CANDIDATES = 32;

export function createPageApi(): PageApi {
  const bindings = new Bindings();
  const hints = new ListenerHintSet();
  /**
   * Elements given a ref outside a snapshot (a click's interceptor): every later walk counts them as actionable, so
   * the next snapshot shows the ref the agent was handed. Weak: a removed overlay is not kept alive.
   */
  const pinned = new WeakSet<Element>();
  /** Every walk of this document sees the same listener hints and pins (snapshot and heal must agree on the twin domain). */
  const walker = (maxText?: number): Walker => new Walker(hints, pinned, maxText);
  const guard = new DeliveryGuard(window);
  const candidates = new Map<number, WeakRef<Element>>();
  let candidateCount = 0;
  /** A handle the worker can come back with (adopt, candidate), for the few actions' elements it may ask about. */
  const remember = (element: Element): number => {
    const id = ++candidateCount;
    candidates.set(id, new WeakRef(element));
    for (const old of candidates.keys()) {
      if (candidates.size <= MAX_CANDIDATES) break;
      candidates.delete(old);
    }
    return id;
  };
  /**
   * An element's role and name as a snapshot shows them, for an answer that only has to name it. The document's root
   * gets neither, and an element holding `inside` (the target lets the pointer through to it) only an explicit name:
   * a name from content would be the text of half the page.
   */
  const briefOf = (element: Element, inside: Element | null): { role: string; name: string } => {
    if (element === document.documentElement || element === document.body) return { role: '', name: '' };
    const { role, name } = walker().describe(element);
    return { role, name: inside !== null && flatContains(element, inside) ? explicitName(element) : name };
  };
  /** What covers `target` where `hit` took the pointer, described with its own ref (the worker gives it one if it has none). */
  const describeCovering = (covering: Element, target: Element) => describeInterceptor(covering, bindings.refOf(covering), remember(covering), briefOf(covering, target));
  const interceptorOf = (hit: Element, target: Element) => describeCovering(coveringElement(hit, target), target);
  /** What an action aimed at a point expects there, with its ref or its nearest ancestor's. */
  const describeTarget = (element: Element) => describeInterceptor(element, nearestRef(element, (candidate) => bindings.refOf(candidate)), remember(element), briefOf(element, null));
  /** The scroller a scroll turned, with its own ref if it has one. */
  const describeScroller = (element: Element): Scroller => {
    const { tag, id, className, name } = describeInterceptor(element, undefined, 0, briefOf(element, null));
    const ref = bindings.refOf(element);
    return ref === undefined ? { tag, id, className, name } : { tag, id, className, name, ref };
  };
  let pending: { token: string; bindings: Binding[] } | undefined;
  // What a snapshot taken right after an action waits for (snapshotAfter.ts): a client-side route changes the URL at
  // once and renders its view later; the tree must be the new view's. Only times are kept, nothing of the page.
  const activity: PageActivity = { now: 0, mutation: -1, route: -1 };
  new MutationObserver(() => {
    activity.mutation = performance.now();
  }).observe(document, { childList: true, subtree: true, characterData: true });
  const routed = (): void => {
    activity.route = performance.now();
  };
  const navigation = (globalThis as { navigation?: EventTarget }).navigation;
  if (navigation !== undefined) navigation.addEventListener('currententrychange', routed);
  else window.addEventListener('popstate', routed);
  window.addEventListener('hashchange', routed);
  let tokens = 0;
  /** The last snapshot's frame elements, by frameSlot (weak: a removed iframe must not stay alive). */
  let frames: WeakRef<Element>[] = [];

  /** The element a snapshot scope names, or why there is none. */
  function scopeElement(scope: NonNullable<SnapshotArgs['scope']>): Element | string | SelectorRefusal {
    if ('ref' in scope) {
      const resolved = resolveElement(scope.ref);
      return resolved.status === 'live' ? resolved.element : `scope @${scope.ref} is stale (${resolved.reason})`;
    }
    const found = agentSelectFirst(scope.selector);
    if (isRefusal(found)) return found;
    return found ?? `no element matches the scope selector "${scope.selector}"`;
  }

  function snapshot(args: SnapshotArgs): PageSnapshot {
    const scoped = args.scope === undefined ? undefined : scopeElement(args.scope);
    if (typeof scoped === 'string') {
      return { token: '', url: location.href, title: document.title, tree: [], nextRef: args.nextRef, refCount: 0, scopeMissing: scoped };
    }
    if (scoped !== undefined && isRefusal(scoped)) {
      return { token: '', url: location.href, title: document.title, tree: [], nextRef: args.nextRef, refCount: 0, scopeRefused: scoped };
    }
    const walk = walker(args.maxText).walkDocument();
    hints.shadowRoots = walk.shadowRoots;
    const keys = walk.actionables.map(keyOf);
    const placements = placeTwins(keys);
    const assignment = assignRefs(
      walk.actionables.map((actionable, i) => ({ element: actionable.element, role: actionable.role, name: actionable.name, key: keys[i] ?? '' })),
      (element) => {
        const ref = bindings.refOf(element);
        const record = ref === undefined ? undefined : bindings.get(ref)?.record;
        return ref === undefined || record === undefined ? undefined : { ref, role: record.role, name: record.name };
      },
      vanishedRefs(),
      args.nextRef,
    );
    const nextRef = assignment.nextRef;
    const records: RefRecord[] = [];
    const fresh: Binding[] = [];
    walk.actionables.forEach((actionable, i) => {
      const placement = placements[i] ?? { twinIndex: 0, twinCount: 1 };
      const ref = assignment.refs[i] ?? '';
      actionable.node.ref = ref;
      const record: RefRecord = { ref, role: actionable.role, name: actionable.name, context: contextOf(actionable), ...placement };
      records.push(record);
      fresh.push({ record, element: new WeakRef(actionable.element) });
    });
    const kept = keptHidden(new Set(walk.actionables.map((actionable) => actionable.element)), new Set(assignment.carried));
    walk.frames.forEach((frame, slot) => {
      frame.node.frameSlot = slot;
    });
    frames = walk.frames.map((frame) => new WeakRef(frame.element));
    const token = `${Date.now().toString(36)}.${++tokens}`;
    pending = { token, bindings: [...fresh, ...kept] };
    const result: PageSnapshot = { token, url: location.href, title: document.title, tree: walk.tree, nextRef, refCount: records.length };
    if (walk.modal !== undefined) result.modal = walk.modal;
    if (kept.length > 0) result.hidden = kept.map(({ record }) => [record.ref, record.role, record.name]);
    if (scoped !== undefined) {
      // Walk the scope again for its tree alone; its actionables take the refs just computed.
      const refOf = new Map(walk.actionables.map((actionable) => [actionable.element, actionable.node.ref]));
      const part = walker(args.maxText).walkSubtree(scoped);
      for (const actionable of part.actionables) {
        const ref = refOf.get(actionable.element);
        if (ref !== undefined) actionable.node.ref = ref;
      }
      for (const frame of part.frames) {
        const slot = walk.frames.findIndex((candidate) => candidate.element === frame.element);
        if (slot >= 0) frame.node.frameSlot = slot;
      }
      result.tree = part.tree;
      result.refs = records.map((record) => [record.ref, record.role, record.name]);
    }
    return result;
  }

  /** Refs whose element left the page since they were issued: candidates to carry over to a re-rendered copy. */
  function vanishedRefs(): Vanished[] {
    const gone: Vanished[] = [];
    for (const { record, element } of bindings.all()) {
      const live = element.deref();
      if (live === undefined || !live.isConnected) gone.push({ ref: record.ref, key: identityKey(record.role, record.name, record.context), twinCount: record.twinCount });
    }
    return gone;
  }

  /**
   * Bindings of elements this snapshot did not show because they are hidden right now (still in the page, not
   * shown): kept, marked hidden, so their refs say `hidden` instead of dying as unknown. Newest last, bounded.
   */
  function keptHidden(shown: ReadonlySet<Element>, carried: ReadonlySet<string>): Binding[] {
    const kept: Binding[] = [];
    for (const binding of bindings.all()) {
      const element = binding.element.deref();
      if (element === undefined || !element.isConnected || shown.has(element) || carried.has(binding.record.ref)) continue;
      if (!isShown(element)) kept.push({ record: binding.record, element: binding.element, hidden: true });
    }
    return kept.slice(-MAX_HIDDEN_REFS);
  }

  function commit({ token }: CommitArgs): { committed: boolean } {
    if (pending === undefined || pending.token !== token) return { committed: false };
    bindings.replaceAll(pending.bindings);
    pending = undefined;
    return { committed: true };
  }

  function resolveElement(ref: string): Resolved {
    const binding = bindings.get(ref);
    if (binding === undefined) return { status: 'stale', reason: 'unknown_ref' };
    const element = binding.element.deref();
    if (element !== undefined && element.isConnected) {
      // Hidden at the last snapshot: usable again once it shows (and is still what the agent saw).
      if (binding.hidden === true && !isShown(element)) return { status: 'stale', reason: 'hidden' };
      // Still the very element: it is the ref's element unless it stopped being what the agent saw.
      // A hidden element cannot be described reliably (its text is hidden too); it stays "live"
      // and the click path reports it as not visible.
      if (!isRendered(element)) return { status: 'live', element, healed: false };
      const now = walker().describe(element);
      if (now.role === binding.record.role && now.name === binding.record.name) return { status: 'live', element, healed: false };
      return { status: 'stale', reason: 'changed' };
    }
    return heal(ref, binding);
  }

  function heal(ref: string, binding: Binding): Resolved {
    const { record } = binding;
    const wanted = identityKey(record.role, record.name, record.context);
    const matches = walker()
      .walkDocument()
      .actionables.filter((actionable) => keyOf(actionable) === wanted)
      .map((actionable) => actionable.element);
    const decision = decideHeal({
      twinCount: record.twinCount,
      matches,
      boundElsewhere: (element) => {
        const other = bindings.refOf(element);
        return other !== undefined && other !== ref;
      },
    });
    if (decision.kind === 'stale') return { status: 'stale', reason: decision.reason };
    bindings.rebind(ref, decision.element);
    return { status: 'live', element: decision.element, healed: true };
  }

  function resolve({ ref }: { ref: string }): ResolveOutcome {
    const resolved = resolveElement(ref);
    return resolved.status === 'live' ? { status: 'live', healed: resolved.healed } : resolved;
  }

  function prepareClick({ ref, arm }: PrepareClickArgs): PrepareClickOutcome {
    const resolved = resolveElement(ref);
    if (resolved.status === 'stale') return resolved;
    const { element, healed } = resolved;
    // The browser dispatches no press to a disabled control: a click would reach nothing.
    if (arm?.includes('press') === true && element.matches(':disabled')) return { status: 'disabled', healed };
    const located = locateClick(element);
    switch (located.status) {
      case 'not_visible':
        return located.beyondEdge === true ? { status: 'not_visible', beyondEdge: true, healed } : { status: 'not_visible', healed };
      case 'ok': {
        const outcome: PrepareClickOutcome = {
          status: 'ok',
          x: located.point.x,
          y: located.point.y,
          healed,
          hitTest: located.hitTest,
          viewport: { width: window.innerWidth, height: window.innerHeight },
        };
        if (arm !== undefined) outcome.token = guard.arm(element, 'target', arm, located.point);
        if (located.hit !== undefined && isFrameElement(located.hit)) outcome.intoFrame = true;
        if (located.scrolled === true) outcome.scrolled = true;
        return outcome;
      }
      case 'intercepted': {
        const covering = coveringElement(located.interceptor, element);
        return { status: 'intercepted', x: located.point.x, y: located.point.y, healed, interceptor: describeCovering(covering, element), look: lookOf(covering) };
      }
    }
  }

  function deliveryReport({ token, disarm, probe }: DeliveryArgs): GuardReport {
    // Probe first: it needs the arming, and reading with disarm keeps it for exactly this.
    const seen = probe === undefined ? undefined : guard.probe(token, probe.x, probe.y);
    const state = guard.read(token, disarm);
    if (state === undefined) return { armed: false, events: [] };
    const report: GuardReport = { armed: true, events: state.events };
    if (state.superseded) report.superseded = true;
    if (state.interceptor !== null) report.interceptor = interceptorOf(state.interceptor, state.expected);
    if (state.gone) report.gone = true;
    else if (state.gaveWay) report.gaveWay = true;
    if (state.acted !== undefined) report.acted = state.acted;
    if (seen !== undefined) {
      report.probe = { reaches: seen.reaches, hovered: seen.hovered };
      if (seen.hit !== null && !seen.reaches) report.probe.hit = interceptorOf(seen.hit, state.expected);
      if (seen.gaveWay) report.probe.gaveWay = true;
    }
    return report;
  }

  function armPoint({ x, y, arm, purpose, ref, sourceRef }: ArmPointArgs): ArmPointOutcome {
    const viewport = { width: window.innerWidth, height: window.innerHeight };
    const outside: ArmPointOutcome = { status: 'outside', viewport };
    if (x < 0 || y < 0 || x >= viewport.width || y >= viewport.height) return outside;
    let expected = deepElementFromPoint(x, y);
    if (ref !== undefined) {
      const resolved = resolveElement(ref);
      if (resolved.status === 'stale') return resolved;
      expected = resolved.element;
    }
    if (expected === null) return outside;
    // A point over an iframe: input there goes into the frame's own document, which this one never
    // sees. Expecting the <iframe> element (mode owner) proves nothing of this document took it.
    const frame = purpose === 'click' && isFrameElement(expected);
    const source = sourceRef === undefined ? null : resolveElement(sourceRef);
    const mode = purpose === 'drop' ? 'drop' : frame ? 'owner' : 'target';
    const token = guard.arm(expected, mode, arm, { x, y }, source?.status === 'live' ? source.element : null);
    return { status: 'ok', token, target: describeTarget(expected), frame };
  }

  /** Resolve a ref and run `act` on its live element; stale outcomes pass through. */
  function withElement<R>(ref: string, act: (element: Element, healed: boolean, role: string) => R): R | Extract<ResolveOutcome, { status: 'stale' }> {
    const resolved = resolveElement(ref);
    if (resolved.status === 'stale') return resolved;
    const role = bindings.get(ref)?.record.role ?? '';
    return act(resolved.element, resolved.healed, role);
  }

  function fill({ ref, value }: { ref: string; value: string }): FillOutcome {
    return withElement(ref, (element, healed): FillOutcome => {
      const plan = planFill(element);
      switch (plan.kind) {
        case 'refused':
          return { status: 'refused', reason: plan.reason, healed };
        case 'select': {
          const outcome = selectOptions(element, [value]);
          if (outcome.status !== 'done') return { ...outcome, healed };
          return { status: 'done', value: currentValue(element), healed };
        }
        case 'set':
          if (!setPickerValue(element, value)) {
            const type = (element as HTMLInputElement).type;
            return { status: 'refused', reason: `<input type=${type}> rejected "${value}" (it takes the format the browser uses for ${type}, e.g. 2024-05-31 for a date)`, healed };
          }
          return { status: 'done', value: currentValue(element), healed };
        case 'typed':
        case 'contenteditable':
          if (!selectForTyping(element, plan.kind)) return { status: 'refused', reason: 'it would not take focus (hidden, inert or disabled)', healed };
          return { status: 'typing', plan: plan.kind, healed };
      }
    });
  }

  function value({ ref }: RefArgs): ValueOutcome {
    return withElement(ref, (element): ValueOutcome => ({ status: 'ok', value: currentValue(element), secret: isSecretField(element) }));
  }

  function read({ ref, what, name }: ReadArgs): ReadOutcome {
    return withElement(ref, (element, healed): ReadOutcome => {
      // A password or one-time code is the person's secret: never echoed, as the snapshot and `fill` never do. Its
      // `value` attribute (a prefilled one) is the same secret.
      const secret = isSecretField(element);
      const masked = (value: string): string => (secret && value !== '' ? SECRET_MASK : value);
      if (what === 'attr') {
        const attribute = element.getAttribute(name ?? '');
        return { status: 'ok', value: attribute !== null && (name ?? '').toLowerCase() === 'value' ? masked(attribute) : attribute, healed };
      }
      if (what === 'value') {
        const tag = element.localName;
        if (tag !== 'input' && tag !== 'textarea' && tag !== 'select' && tag !== 'option' && tag !== 'button' && tag !== 'output') {
          // A contenteditable editor's value is its text, lines as the snapshot shows them (text.ts); anything else has none.
          if (element instanceof HTMLElement && element.isContentEditable) return { status: 'ok', value: textLines(element, false).text, healed };
          return { status: 'no_value', tag, healed };
        }
        return { status: 'ok', value: masked((element as HTMLInputElement).value), healed };
      }
      // The rendered text (what a person sees, line breaks included); a field's text is its value.
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) return { status: 'ok', value: masked(element.value), healed };
      return { status: 'ok', value: element instanceof HTMLElement ? element.innerText : (element.textContent ?? ''), healed };
    });
  }

  function select({ ref, values }: { ref: string; values: string[] }): SelectOutcome {
    return withElement(ref, (element, healed): SelectOutcome => ({ ...selectOptions(element, values), healed }));
  }

  function checkStateOf({ ref }: RefArgs): CheckStateOutcome {
    return withElement(ref, (element, healed, role): CheckStateOutcome => ({ ...checkState(element, role), healed }));
  }

  function focus({ ref }: RefArgs): FocusOutcome {
    return withElement(ref, (element, healed): FocusOutcome =>
      focusElement(element) ? { status: 'ok', healed } : { status: 'refused', reason: 'it would not take focus (not focusable, hidden or disabled)', healed },
    );
  }

  function scroll({ ref, direction, amount }: ScrollArgs): ScrollOutcome {
    if (ref === undefined) {
      const page = scrollStep(null, direction, amount);
      if (page.before.x !== page.after.x || page.before.y !== page.after.y) return { status: 'ok', container: 'page', ...page, healed: false };
      // The page cannot move that way: a person turns the scroller they see instead (a carousel, a side panel).
      const inner = scrollerOnScreen(direction);
      if (inner === null) return { status: 'ok', container: 'page', ...page, healed: false };
      return { status: 'ok', container: 'element', ...scrollStep(inner, direction, amount), scroller: describeScroller(inner), healed: false };
    }
    const horizontal = direction === 'left' || direction === 'right';
    return withElement(ref, (element, healed): ScrollOutcome => {
      const container = scrollContainer(element, horizontal ? 1 : 0, horizontal ? 0 : 1);
      const outcome: ScrollOutcome = { status: 'ok', container: container === null ? 'page' : 'element', ...scrollStep(container, direction, amount), healed };
      if (container !== null && container !== element) outcome.scroller = describeScroller(container);
      return outcome;
    });
  }

  function scrollIntoView({ ref }: RefArgs): IntoViewOutcome {
    return withElement(ref, (element, healed): IntoViewOutcome => {
      const centre = scrollIntoViewIfNeeded(element);
      return centre === null ? { status: 'not_visible', healed } : { status: 'ok', ...centre, healed };
    });
  }

  function box({ ref }: RefArgs): BoxOutcome {
    return withElement(ref, (element, healed): BoxOutcome => {
      if (scrollIntoViewIfNeeded(element) === null) return { status: 'not_visible', healed };
      const r = element.getBoundingClientRect();
      return { status: 'ok', x: r.left, y: r.top, width: r.width, height: r.height, scrollX: window.scrollX, scrollY: window.scrollY, healed };
    });
  }

  function fileInput({ ref }: RefArgs): FileInputOutcome {
    return withElement(ref, (element, healed): FileInputOutcome => {
      const check = isFileInput(element);
      return check.ok ? { status: 'ok', multiple: check.multiple, healed } : { status: 'refused', reason: check.reason, healed };
    });
  }

  function locateSelector({ selector }: { selector: string }): SelectorPointOutcome {
    const matches = agentSelectAll(selector);
    if (isRefusal(matches)) return matches;
    const target = matches.find((candidate) => isShown(candidate));
    if (target === undefined) return { status: 'none', matched: matches.length };
    const located = locateClick(target);
    switch (located.status) {
      case 'ok':
        return { status: 'ok', x: located.point.x, y: located.point.y, hitTest: located.hitTest };
      case 'intercepted':
        return { status: 'intercepted', x: located.point.x, y: located.point.y, interceptor: interceptorOf(located.interceptor, target) };
      case 'not_visible':
        return { status: 'none', matched: matches.length };
    }
  }

  /** `type -s <css>`: the selector must name one element (searched as `get` searches), which takes focus. */
  function focusSelector({ selector }: { selector: string }): FocusSelectorOutcome {
    const matches = agentSelectAll(selector);
    if (isRefusal(matches)) return matches;
    const [only] = matches;
    if (only === undefined) return { status: 'none' };
    if (matches.length > 1) return { status: 'many', count: matches.length };
    return focusElement(only) ? { status: 'ok' } : { status: 'refused', reason: 'it would not take focus (not focusable, hidden or disabled)' };
  }

  function element({ ref }: RefArgs): Element | null {
    const resolved = resolveElement(ref);
    return resolved.status === 'live' ? resolved.element : null;
  }

  function candidateElement({ candidate }: { candidate: number }): Element | null {
    const found = candidates.get(candidate)?.deref();
    return found !== undefined && found.isConnected ? found : null;
  }

  function adopt({ candidate, ref }: AdoptArgs): AdoptOutcome {
    const found = candidateElement({ candidate });
    if (found === null) return { status: 'gone' };
    if (found === document.documentElement || found === document.body) return { status: 'root' };
    const own = bindings.refOf(found);
    const record = own === undefined ? undefined : bindings.get(own)?.record;
    if (own !== undefined && record !== undefined) return { status: 'ok', ref: own, role: record.role, name: record.name, adopted: false };
    // Described exactly as a snapshot would (the ref must keep meaning what the agent will see), context-free: the
    // next snapshot gives it its context, and until then a heal needs the one element that matches.
    const { role, name } = walker().describe(found);
    bindings.add({ record: { ref, role, name, context: '', twinIndex: 0, twinCount: 1 }, element: new WeakRef(found) });
    pinned.add(found);
    return { status: 'ok', ref, role, name, adopted: true };
  }

  function noteListeners(reused: number[], fresh: number[], elements: Element[]): number {
    hints.replace(reused, fresh, elements);
    return elements.length;
  }

  function listenerScanState(): ListenerScanState {
    return hints.state();
  }

  function frameSlot(frame: Element): number {
    return frames.findIndex((candidate) => candidate.deref() === frame);
  }

  function framePoint(frame: Element, x: number, y: number, arm?: DeliveryPhase[]): FramePointOutcome {
    const located = locateInFrame(frame, { x, y });
    switch (located.status) {
      case 'not_visible':
        return { status: 'not_visible' };
      case 'ok': {
        const outcome: FramePointOutcome = { status: 'ok', x: located.point.x, y: located.point.y, scrolled: located.scrolled === true, content: frameContentBox(frame) };
        if (arm !== undefined) outcome.token = guard.arm(frame, 'owner', arm, located.point);
        return outcome;
      }
      case 'intercepted':
        return { status: 'intercepted', x: located.point.x, y: located.point.y, interceptor: interceptorOf(located.interceptor, frame) };
    }
  }

  function inputFrame(at: { x: number; y: number } | null): Element | null {
    const element = at === null ? deepActiveElement(document) : deepElementFromPoint(at.x, at.y);
    return element !== null && isFrameElement(element) ? element : null;
  }

  return {
    version: 1,
    stamp: randomStamp(),
    snapshot,
    commit,
    resolve,
    prepareClick,
    deliveryReport,
    armPoint,
    fill,
    value,
    read,
    activity: () => ({ ...activity, now: performance.now() }),
    select,
    checkState: checkStateOf,
    focus,
    scroll,
    scrollIntoView,
    box,
    fileInput,
    locateSelector,
    focusSelector,
    element,
    adopt,
    candidate: candidateElement,
    noteListeners,
    listenerScanState,
    documentNode: () => document,
    frameSlot,
    framePoint,
    inputFrame,
    pointInFrame: (frame: Element, x: number, y: number) => pointInFrame(frame, { x, y }),
    ...createReads(withElement),
  };
}

/** 16 random hex digits. */
function randomStamp(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
