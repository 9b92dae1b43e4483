/**
 * Which tab a call acts on, decided once per call before anything runs. The answer is used by the
 * lease check, the dialog precondition and the tool itself (it gets the tab as its `tab` param, or
 * close as its `tabs`), so the three can never disagree.
 *
 * Two steps:
 *  1. mergeEnvelope (pure): the envelope's `target` ({tab} | {workspace} | {group}) and `agent`
 *     join the params. `--tab` means the same wherever it was written: the envelope's tab becomes
 *     the `tab` param (close: `tabs`). A tool that acts on no tab cannot be targeted
 *     (invalid_arguments, never a silent ignore).
 *  2. resolveCallTabs: the refs the params name, looked up in the registry once for the whole call (the tool opens
 *     them from what was found, never from the registry again), and the tab, from the first source present —
 *     - the refs in the params (a ref carries its tab): refs of two tabs → target_conflict
 *       multiple_targets; a --tab/--workspace/--group naming another tab → ref_tab_mismatch;
 *     - the explicit tab, which must exist;
 *     - the workspace or group: the remembered tab if it is in there, else the workspace window's
 *       active tab / the group's first tab;
 *     - otherwise the remembered tab of the call's agent (targets.ts: one per agent identity). When it is gone: target_not_found; navigate
 *       opens a new tab instead (and always with newTab); close closes the remembered tab.
 *     A tool whose entry `reaches` tabs through its params (group create/add/close, workspace close,
 *     lease claim) acts on every tab they name: the ids given, and every tab of the group or workspace
 *     named (target_not_found when it does not exist). Those are the call's tabs like a --tab, so
 *     the person's limits and leases check each one, and the tool holds no check of its own.
 *
 * Each tab looked at to learn it exists is kept as Chrome described it (`seen`): the person's limits read that, and a
 * tool never asks for its tab again. A ref whose tab is gone is decided here, once: its refs say "tab closed".
 *
 * Every tab a call can reach is one chrome-relay opened (navigate, workspace create) or was given
 * (--tab, close <ids>, a workspace or group name), or the tab of a ref issued for one of those:
 * the browser's active tab is never a default.
 */
import { RelayError, REF_PARAMS, TOOLS, isToolName, reasonedError, tabUseOf, toolLabel, type ToolName } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';
import { noRememberedTab, readRememberedTab } from '../targets.js';
import type { CallRef, CallRefs, CallTabs, DocumentId, TabSource } from '../context/call.js';

/** The envelope's target, as the CLI sent it (validated by CallTargetSchema at the host). */
export interface EnvelopeTarget {
  tab?: number | undefined;
  workspace?: string | undefined;
  group?: string | undefined;
}

/** A workspace or group named for the call, resolved to a tab in step 2. */
export interface Scope {
  kind: 'workspace' | 'group';
  name: string;
}

export function paramKeys(tool: string): ReadonlySet<string> {
  if (!isToolName(tool)) return new Set();
  return new Set(Object.keys(TOOLS[tool].params.shape));
}

function conflict(reason: 'multiple_targets' | 'ref_tab_mismatch' | 'agent_mismatch', message: string, details: Record<string, unknown>): RelayError {
  return reasonedError('target_conflict', reason, message, { phase: 'resolve', details });
}

function flag(target: EnvelopeTarget): string {
  if (target.tab !== undefined) return `--tab ${target.tab}`;
  if (target.workspace !== undefined) return `--workspace ${target.workspace}`;
  return `--group ${target.group ?? ''}`;
}

/** Step 1: the envelope folded into the params (a new object), and the scope left for step 2. */
export function mergeEnvelope(
  tool: string,
  raw: Readonly<Record<string, unknown>>,
  target: EnvelopeTarget | undefined,
  agent: string | undefined,
): { params: Record<string, unknown>; scope?: Scope } {
  const params: Record<string, unknown> = { ...raw };
  const keys = paramKeys(tool);
  const use = tabUseOf(tool);

  if (agent !== undefined && keys.has('agent')) {
    if (params.agent !== undefined && params.agent !== agent) {
      throw conflict('agent_mismatch', `The call names agent "${String(params.agent)}" but runs as agent "${agent}"; give one identity (--agent or CHROME_RELAY_AGENT).`, {
        agent,
        paramsAgent: params.agent,
      });
    }
    params.agent = agent;
  }

  const given = (['tab', 'workspace', 'group'] as const).filter((k) => target?.[k] !== undefined);
  if (target === undefined || given.length === 0) return { params };
  if (given.length > 1) {
    throw conflict('multiple_targets', `${given.map((k) => `--${k}`).join(' and ')} were both given; give one target.`, { ...target });
  }

  if (target.tab !== undefined) {
    const tab = target.tab;
    if (keys.has('tab')) {
      if (params.tab !== undefined && params.tab !== tab) {
        throw conflict('multiple_targets', `--tab ${tab} and tab ${String(params.tab)} were both given; give one tab.`, { tab, paramTab: params.tab });
      }
      params.tab = tab;
      return { params };
    }
    if (use === 'close') {
      const tabs = params.tabs;
      if (tabs !== undefined && !(Array.isArray(tabs) && tabs.length === 1 && tabs[0] === tab)) {
        throw conflict('multiple_targets', `--tab ${tab} and the tab ids ${JSON.stringify(tabs)} were both given; give one target: name the tabs to close once.`, { tab, tabs });
      }
      params.tabs = [tab];
      return { params };
    }
    throw notTargetable(tool, 'tab');
  }

  const kind = target.workspace !== undefined ? 'workspace' : 'group';
  const name = target.workspace ?? target.group ?? '';
  if (keys.has(kind)) {
    // The tool manages workspaces itself (lease_claim --workspace): the name is its param.
    if (params[kind] !== undefined && params[kind] !== name) {
      throw conflict('multiple_targets', `--${kind} ${name} and ${kind} "${String(params[kind])}" were both given; give one.`, { [kind]: name, param: params[kind] });
    }
    params[kind] = name;
    return { params };
  }
  if (use === 'none') throw notTargetable(tool, kind);
  if (use === 'close' ? params.tabs !== undefined : params.tab !== undefined) {
    const tabs = use === 'close' ? params.tabs : params.tab;
    throw conflict('multiple_targets', `${flag(target)} and tab ${JSON.stringify(tabs)} were both given; give one target.`, { [kind]: name, tab: tabs });
  }
  return { params, scope: { kind, name } };
}

function notTargetable(tool: string, flagName: 'tab' | 'workspace' | 'group'): RelayError {
  return new RelayError('invalid_arguments', `--${flagName} does not apply to ${toolLabel(tool)}: it acts on no tab. Drop --${flagName}.`, {
    tool,
    phase: 'validate',
    details: { field: flagName },
  });
}

/**
 * What the ref registry knows of a ref (refs/registry.ts RefLookup, by its shape: refs/ sits on this floor): its tab,
 * and the documents it was issued in while they are still the tab's.
 */
export type RefTab =
  | { state: 'live'; tabId: number; document: DocumentId; frame: DocumentId; record: { role: string; name: string } }
  | { state: 'navigated' | 'closed'; tabId: number };

/** The ref registry, as resolution uses it. */
export interface RefBook {
  /** Undefined: chrome-relay never issued the ref (or forgot it). */
  lookup(ref: string): Promise<RefTab | undefined>;
  /** A ref's tab is gone though the registry had it open (closed while the worker was down): record it. */
  forgetTab(tabId: number): Promise<void>;
}

/** The tabs of a workspace or group, and the one to use when the remembered tab is not among them. */
export interface ScopeTabs {
  tabIds: readonly number[];
  preferred: number | undefined;
}

export interface ResolveContext {
  browser: Pick<BrowserApi, 'getTab' | 'storageSessionGet'>;
  refs: RefBook;
  /** target_not_found when the workspace or group does not exist. */
  scopeTabs(scope: Scope): Promise<ScopeTabs>;
}

/** What a call was resolved to, once: its tabs, the refs its params name, and the tabs Chrome described meanwhile. */
export interface Resolved {
  tabs: CallTabs;
  refs: CallRefs;
  /** Each tab looked at to learn it exists, as chrome.tabs.get described it (the person's limits read it, not Chrome again). */
  seen: ReadonlyMap<number, chrome.tabs.Tab>;
}

const NONE: CallTabs = { kind: 'none' };

function refsIn(params: Readonly<Record<string, unknown>>): string[] {
  const refs: string[] = [];
  for (const key of REF_PARAMS) {
    const value = params[key];
    if (typeof value === 'string') refs.push(value);
  }
  return refs;
}

/** Chrome's tabs as resolution looks at them: each asked for once, and kept. */
class TabsSeen {
  readonly seen = new Map<number, chrome.tabs.Tab>();
  readonly #browser: Pick<BrowserApi, 'getTab'>;
  constructor(browser: Pick<BrowserApi, 'getTab'>) {
    this.#browser = browser;
  }

  /** The tab; target_not_found (details {tab}, with the move) when it does not exist. */
  async get(tab: number): Promise<chrome.tabs.Tab> {
    const known = this.seen.get(tab);
    if (known !== undefined) return known;
    const info = await this.#browser.getTab(tab);
    this.seen.set(tab, info);
    return info;
  }

  async exists(tab: number): Promise<boolean> {
    try {
      await this.get(tab);
      return true;
    } catch (error) {
      if (error instanceof RelayError && error.code === 'target_not_found') return false;
      throw error;
    }
  }
}

async function tabOfScope(ctx: ResolveContext, scope: Scope, agent: string | undefined): Promise<number> {
  const { tabIds, preferred } = await ctx.scopeTabs(scope);
  const remembered = await readRememberedTab(ctx.browser, agent);
  if (remembered !== undefined && tabIds.includes(remembered)) return remembered;
  if (preferred !== undefined) return preferred;
  const what = scope.kind === 'workspace' ? `Workspace "${scope.name}" has no tab left; close it and create it again.` : `Tab group "${scope.name}" has no tabs.`;
  throw new RelayError('target_not_found', what, { phase: 'resolve', details: { [scope.kind]: scope.name } });
}

async function remembered(ctx: ResolveContext, tabs: TabsSeen, agent: string | undefined): Promise<number> {
  const tab = await readRememberedTab(ctx.browser, agent);
  if (tab !== undefined && (await tabs.exists(tab))) return tab;
  throw noRememberedTab(tab, agent);
}

/** Each ref the params name, from the registry: looked up here, once for the whole call. */
async function lookUp(ctx: ResolveContext, refs: readonly string[]): Promise<Map<string, CallRef>> {
  const found = new Map<string, CallRef>();
  for (const ref of refs) {
    if (found.has(ref)) continue;
    const entry = await ctx.refs.lookup(ref);
    if (entry === undefined) found.set(ref, { state: 'unknown' });
    else if (entry.state === 'live') found.set(ref, { state: 'live', tabId: entry.tabId, document: entry.document, frame: entry.frame, record: { role: entry.record.role, name: entry.record.name } });
    else found.set(ref, { state: entry.state, tabId: entry.tabId });
  }
  return found;
}

/** Step 2, for a tool that acts in one tab. */
async function resolvePage(params: Readonly<Record<string, unknown>>, scope: Scope | undefined, ctx: ResolveContext, newWhenAbsent: boolean, tabs: TabsSeen, refs: Map<string, CallRef>, agent: string | undefined): Promise<CallTabs> {
  const explicit = typeof params.tab === 'number' ? params.tab : undefined;
  const named = refsIn(params);
  const known: { ref: string; tab: number; state: CallRef['state'] }[] = [];
  for (const ref of named) {
    const found = refs.get(ref);
    if (found !== undefined && found.state !== 'unknown') known.push({ ref, tab: found.tabId, state: found.state });
  }
  const first = known[0];
  if (first !== undefined) {
    const other = known.find((k) => k.tab !== first.tab);
    if (other) {
      throw conflict('multiple_targets', `@${first.ref} is in tab ${first.tab} but @${other.ref} is in tab ${other.tab}; one command acts in one tab: give one target (refs of one tab).`, {
        refs: known.map((k) => ({ ref: k.ref, tab: k.tab })),
      });
    }
    if (explicit !== undefined && explicit !== first.tab) {
      throw conflict('ref_tab_mismatch', `Ref @${first.ref} belongs to tab ${first.tab}, but --tab ${explicit} was given. A ref already carries its tab: drop --tab.`, {
        ref: first.ref,
        refTab: first.tab,
        requestedTab: explicit,
      });
    }
    if (scope !== undefined && !(await ctx.scopeTabs(scope)).tabIds.includes(first.tab)) {
      throw conflict('ref_tab_mismatch', `Ref @${first.ref} belongs to tab ${first.tab}, which is not in ${scope.kind} "${scope.name}". A ref already carries its tab: drop --${scope.kind}.`, {
        ref: first.ref,
        refTab: first.tab,
        [scope.kind]: scope.name,
      });
    }
    if (first.state !== 'closed' && (await tabs.exists(first.tab))) return { kind: 'tab', tab: first.tab, via: 'ref' };
    // The refs' tab was closed (while the worker was down, if the registry still had it open): decided here, once,
    // and each of its refs says so in its own words when the tool opens it.
    if (first.state !== 'closed') await ctx.refs.forgetTab(first.tab);
    for (const { ref } of known) refs.set(ref, { state: 'closed', tabId: first.tab });
    return NONE;
  }
  if (params.newTab === true && scope !== undefined) {
    throw new RelayError('invalid_arguments', `--new-tab opens a tab outside ${scope.kind} "${scope.name}"; give one of --${scope.kind} and --new-tab.`, {
      phase: 'validate',
      details: { field: 'new-tab', [scope.kind]: scope.name },
    });
  }
  if (explicit !== undefined) {
    await tabs.get(explicit);
    return { kind: 'tab', tab: explicit, via: 'explicit' };
  }
  if (scope !== undefined) return { kind: 'tab', tab: await tabOfScope(ctx, scope, agent), via: scope.kind };
  if (newWhenAbsent) {
    // navigate: the same default as every tool, a new tab only when asked for or when there is none to use.
    if (params.newTab === true) return NONE;
    const tab = await readRememberedTab(ctx.browser, agent);
    return tab !== undefined && (await tabs.exists(tab)) ? { kind: 'tab', tab, via: 'remembered' } : NONE;
  }
  if (named.length > 0) {
    // Refs chrome-relay does not know: the tool answers stale_ref, which says more than "no tab".
    const tab = await readRememberedTab(ctx.browser, agent);
    return tab !== undefined && (await tabs.exists(tab)) ? { kind: 'tab', tab, via: 'remembered' } : NONE;
  }
  return { kind: 'tab', tab: await remembered(ctx, tabs, agent), via: 'remembered' };
}

/** Step 2 for a tool whose params name tabs (its entry's `reaches`): every tab named, in the order named, once. */
async function resolveReach(reaches: NonNullable<(typeof TOOLS)[ToolName]['reaches']>, params: Readonly<Record<string, unknown>>, ctx: ResolveContext): Promise<CallTabs> {
  const tabs: number[] = [];
  const add = (ids: readonly unknown[]): void => {
    for (const id of ids) if (typeof id === 'number' && !tabs.includes(id)) tabs.push(id);
  };
  if (reaches.tabIds !== undefined) {
    const ids = params[reaches.tabIds];
    add(Array.isArray(ids) ? ids : [ids]);
  }
  for (const kind of ['group', 'workspace'] as const) {
    const param = reaches[kind];
    const name = param === undefined ? undefined : params[param];
    if (typeof name === 'string') add((await ctx.scopeTabs({ kind, name })).tabIds);
  }
  return { kind: 'tabs', tabs, via: 'named' };
}

/**
 * Step 2: the tabs the call acts on, and the refs it names. Params are the validated, merged ones; `agent` is the
 * identity the call carries, whose remembered tab is the default (targets.ts: one per agent; none, the shared one).
 */
export async function resolveCallTabs(tool: string, params: Readonly<Record<string, unknown>>, scope: Scope | undefined, ctx: ResolveContext, agent?: string): Promise<Resolved> {
  const tabs = new TabsSeen(ctx.browser);
  const refs = await lookUp(ctx, refsIn(params));
  const resolved = (callTabs: CallTabs): Resolved => ({ tabs: callTabs, refs, seen: tabs.seen });
  const reaches = isToolName(tool) ? TOOLS[tool].reaches : undefined;
  if (reaches !== undefined) return resolved(await resolveReach(reaches, params, ctx));
  const use = tabUseOf(tool);
  if (use === 'none') return resolved(NONE);
  if (use === 'close') {
    // Existence is the tool's to check: it names every missing id and closes none (all or nothing).
    if (Array.isArray(params.tabs)) return resolved({ kind: 'tabs', tabs: params.tabs.filter((t): t is number => typeof t === 'number'), via: 'explicit' });
    if (scope !== undefined) return resolved({ kind: 'tabs', tabs: [await tabOfScope(ctx, scope, agent)], via: scope.kind });
    return resolved({ kind: 'tabs', tabs: [await remembered(ctx, tabs, agent)], via: 'remembered' });
  }
  return resolved(await resolvePage(params, scope, ctx, use === 'page_or_new', tabs, refs, agent));
}

/**
 * The params the tool runs with: the resolved tab filled in, so it acts exactly where the checks looked. For a tool
 * whose params name the tabs (`reaches`), the ids it was given less those refused under allowPartial.
 */
export function withCallTabs(tool: string, params: Readonly<Record<string, unknown>>, tabs: CallTabs): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params };
  if (tabs.kind === 'tab' && paramKeys(tool).has('tab')) out.tab = tabs.tab;
  if (tabs.kind !== 'tabs') return out;
  if (tabs.via !== 'named') {
    out.tabs = [...tabs.tabs];
    return out;
  }
  const param = isToolName(tool) ? TOOLS[tool].reaches?.tabIds : undefined;
  const given = param === undefined ? undefined : params[param];
  if (param !== undefined && Array.isArray(given)) out[param] = given.filter((id) => typeof id === 'number' && tabs.tabs.includes(id));
  return out;
}

