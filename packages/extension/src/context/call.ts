/**
 * What a call carries below the tools (floor 2 of packages/extension/floors.mjs): the debugger, Chrome's tab and
 * storage APIs and the call's deadline — what page/, pageState/ and input/ work with — and the tabs the call was
 * resolved to act on. A tool's full context (actions/toolContext.ts) adds the services built once in the composition
 * root (background.ts); a lower floor takes only this part, so it never depends on what sits above it.
 */
import type { BrowserApi } from '../browserApi.js';
import type { CdpSessions } from '../cdp/cdpSession.js';

export interface CallContext {
  readonly cdp: CdpSessions;
  readonly browser: BrowserApi;
  /** Epoch ms by which the handler must have answered (the host times out then). */
  readonly deadline: number;
  /**
   * The tabs the call was resolved to act on, decided once before the tool runs (targeting/prepareCall.ts): a ref's
   * own tab, --tab, a workspace's or group's, or the remembered one. A tool opening a ref reads the tab here.
   */
  readonly target: CallTabs;
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
