/**
 * The page API: snapshot (assign refs), resolve (verify or heal a ref), prepareClick (resolve,
 * scroll, hit-test). Every expected outcome is a return value; the worker decides which error it is.
 */
import { Bindings, type Binding } from './bindings.js';
import { describeInterceptor, locateClick } from './hitTest.js';
import { decideHeal, identityKey, placeTwins } from './identity.js';
import type { CommitArgs, PageApi, PageSnapshot, PrepareClickOutcome, RefRecord, ResolveOutcome, SnapshotArgs } from './types.js';
import { contextOf, Walker, type Actionable } from './walker.js';

type Resolved = { status: 'live'; element: Element; healed: boolean } | Extract<ResolveOutcome, { status: 'stale' }>;

function keyOf(actionable: Actionable): string {
  return identityKey(actionable.role, actionable.name, contextOf(actionable));
}

/** Rendered at all (display, visibility, content-visibility, ancestors included)? */
function isRendered(element: Element): boolean {
  return element.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true } as CheckVisibilityOptions);
}

export function createPageApi(): PageApi {
  const bindings = new Bindings();
  let pending: { token: string; bindings: Binding[] } | undefined;
  let tokens = 0;

  function snapshot(args: SnapshotArgs): PageSnapshot {
    const walk = new Walker().walkDocument();
    const keys = walk.actionables.map(keyOf);
    const placements = placeTwins(keys);

    let nextRef = args.nextRef;
    const records: RefRecord[] = [];
    const fresh: Binding[] = [];
    walk.actionables.forEach((actionable, i) => {
      const placement = placements[i] ?? { twinIndex: 0, twinCount: 1 };
      // A ref is reused only while role and name still match: a ref must keep meaning what the
      // agent saw ("Follow" turning into "Following" is a new ref, not the old one).
      const existing = bindings.refOf(actionable.element);
      const previous = existing === undefined ? undefined : bindings.get(existing);
      const ref =
        existing !== undefined && previous !== undefined && previous.record.role === actionable.role && previous.record.name === actionable.name
          ? existing
          : `e${nextRef++}`;
      actionable.node.ref = ref;
      const record: RefRecord = { ref, role: actionable.role, name: actionable.name, context: contextOf(actionable), ...placement };
      records.push(record);
      fresh.push({ record, element: new WeakRef(actionable.element) });
    });
    const token = `${Date.now().toString(36)}.${++tokens}`;
    pending = { token, bindings: fresh };
    return { token, url: location.href, title: document.title, tree: walk.tree, nextRef, refCount: records.length };
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
      // Still the very element: it is the ref's element unless it stopped being what the agent saw.
      // A hidden element cannot be described reliably (its text is hidden too); it stays "live"
      // and the click path reports it as not visible.
      if (!isRendered(element)) return { status: 'live', element, healed: false };
      const now = new Walker().describe(element);
      if (now.role === binding.record.role && now.name === binding.record.name) return { status: 'live', element, healed: false };
      return { status: 'stale', reason: 'changed' };
    }
    return heal(ref, binding);
  }

  function heal(ref: string, binding: Binding): Resolved {
    const { record } = binding;
    const wanted = identityKey(record.role, record.name, record.context);
    const matches = new Walker()
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

  function prepareClick({ ref }: { ref: string }): PrepareClickOutcome {
    const resolved = resolveElement(ref);
    if (resolved.status === 'stale') return resolved;
    const { element, healed } = resolved;
    const located = locateClick(element);
    switch (located.status) {
      case 'not_visible':
        return { status: 'not_visible', healed };
      case 'ok':
        return { status: 'ok', x: located.point.x, y: located.point.y, healed, hitTest: located.hitTest };
      case 'intercepted':
        return {
          status: 'intercepted',
          x: located.point.x,
          y: located.point.y,
          healed,
          interceptor: describeInterceptor(located.interceptor, (candidate) => bindings.refOf(candidate)),
        };
    }
  }

  return { version: 1, snapshot, commit, resolve, prepareClick };
}
