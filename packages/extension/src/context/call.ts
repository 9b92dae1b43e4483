/**
 * What a call carries below the tools (floor 2 of packages/extension/floors.mjs): the debugger, Chrome's tab and
 * storage APIs and the call's deadline — what page/, pageState/ and input/ work with — and what the call was resolved
 * to act on (its tabs, and the refs it names). A tool's full context (actions/toolContext.ts) adds the services built
 * once in the composition root (background.ts); a lower floor takes only this part, so it never depends on what sits
 * above it.
 */
import { RelayError } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';
import type { CdpSessions } from '../cdp/cdpSession.js';

export interface CallContext {
  readonly cdp: CdpSessions;
  readonly browser: BrowserApi;
  /** Epoch ms by which the handler must have answered (the host times out then). */
  readonly deadline: number;
  /**
   * The tabs the call was resolved to act on, decided once before the tool runs (targeting/prepareCall.ts): a ref's
   * own tab, --tab, a workspace's or group's, or the remembered one. The dispatcher checked it exists (and the person's
   * limits) and remembers it once the tool succeeded: a tool never looks its tab up again, nor remembers it.
   */
  readonly target: CallTabs;
  /** Each ref the params name, resolved with the tabs: a tool opens a ref from here (actions/refAction.ts openRef). */
  readonly refs: CallRefs;
}

/** A document's identity: its frame and the loader that made it. */
export interface DocumentId {
  readonly frameId: string;
  readonly loaderId: string;
}

/**
 * A ref the call's params name, as the call was resolved (targeting/resolveCall.ts), once: the tab it lives in, the
 * tab's document it was issued in and its own frame's, what it named — or why it cannot be used (chrome-relay never
 * issued it or forgot it; its tab navigated; its tab was closed). Nothing looks the ref up in the registry again.
 */
export type CallRef =
  | { readonly state: 'live'; readonly tabId: number; readonly document: DocumentId; readonly frame: DocumentId; readonly record: { readonly role: string; readonly name: string } }
  | { readonly state: 'unknown' }
  | { readonly state: 'navigated' | 'closed'; readonly tabId: number };

export type CallRefs = ReadonlyMap<string, CallRef>;

/** The one tab the call acts on, as the dispatcher resolved and checked it. */
export function callTab(ctx: Pick<CallContext, 'target'>): number {
  if (ctx.target.kind === 'tab') return ctx.target.tab;
  // A tool that acts in one tab is resolved to one (or the call fails before it runs): this is a bug of ours.
  throw new RelayError('internal_error', `The call was resolved to ${ctx.target.kind === 'tabs' ? 'several tabs' : 'no tab'}, but its tool acts in one.`, { phase: 'resolve' });
}

/** Where the call's tabs came from; `named`: what the tool's params name (its entry's `reaches`: tab ids, a group, a workspace). */
export type TabSource = 'explicit' | 'ref' | 'remembered' | 'workspace' | 'group' | 'named';

/** A tab a call named but may not change (missing, or another agent's lease), left out under allowPartial. */
export interface RefusedTab {
  readonly target: string;
  readonly code: string;
  readonly message: string;
}

/** The tabs a call acts on. `none`: no existing tab (it opens one, acts on none, or the tool reports why not). */
export type CallTabs =
  | { readonly kind: 'none' }
  | { readonly kind: 'tab'; readonly tab: number; readonly via: TabSource }
  | { readonly kind: 'tabs'; readonly tabs: readonly number[]; readonly via: TabSource; readonly refused?: readonly RefusedTab[] };

/** Every tab the call acts on (for leases and the dialog precondition). */
export function tabsOf(tabs: CallTabs): readonly number[] {
  if (tabs.kind === 'tab') return [tabs.tab];
  if (tabs.kind === 'tabs') return tabs.tabs;
  return [];
}
