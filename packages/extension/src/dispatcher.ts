/**
 * Runs one host 'call': find the tool, decide once which tabs it acts on and what its refs are (targeting/prepareCall.ts:
 * envelope, validation, tab and ref resolution, leases), hand the tool what was resolved (its context's `target` and
 * `refs`: nothing is looked up again), run the handler with a deadline, validate the result, remember the tab it
 * acted in (targets.ts: no tool does), and answer with exactly one ExtensionToHost message. It never throws: every failure
 * becomes an error reply, and anything that is not already a RelayError is a bug (internal_error).
 *
 * Shared precondition (one place, not every handler): JavaScript dialogs. While a dialog is open
 * the page answers no Runtime/DOM command and drops input (pageState/dialogs.ts), so before a
 * page tool runs on its tab the wrapper
 *   1. fails fast with target_conflict (reason dialog_open) if a dialog is known to be open there,
 *   2. makes sure the tab reports dialogs from now on (Page.enable, bounded),
 *   3. and, if a dialog opens while the handler runs, gives the handler DIALOG_GRACE_MS to report
 *      it itself (keys, type, js, history do) and otherwise answers target_conflict — so a tool
 *      that does not know about dialogs (or the refs layer's click) can never hang on one.
 * The tab checked is the one the call was resolved to act on — the same the tool gets.
 *
 * The person's limits (policy/policy.ts) are preconditions here too, in this order: Pause (it wins
 * over every other failure, and nothing attaches or runs), then agents through a bridge when the person turned them
 * off (the call's `via`), then — once the call's tabs are resolved —
 * the site block list and "agent tabs only". While it runs, the call holds its tabs' debugger sessions (no idle detach under it),
 * and the person can still stop it: Pause, or its tab navigating onto a blocked site, answers it at
 * once with that reason. Every call ends in the activity log the popup shows.
 *
 * Input calls take turns: a tool whose entry says `input: true` (pointer, keys, text, focus) waits here for its tab's
 * turn before anything of it runs (input/inputLanes.ts), so two agents' clicks or keys never interleave in one page;
 * a call still waiting at its deadline answers timeout (busy) and did nothing. The turn lasts until the handler's own
 * work has settled, even when the call was answered earlier (deadline, Pause, a dialog); such a call sends no new
 * input after its answer, only the releases of what it pressed.
 *
 * Deadline: a call on a tab answers by ctx.deadline whatever its page does. A page whose main thread is
 * busy leaves CDP commands unanswered, and a tool waiting on one would otherwise let the host's own
 * timer fire — reported as the extension not answering (extension_unresponsive), which also counts
 * towards opening the host's circuit breaker although the extension is fine. So the dispatcher answers
 * timeout (page_busy) itself, DEADLINE_MARGIN_MS before the host would give up.
 */
import {
  asInterrupted,
  isToolName,
  PHASE_TABLE,
  reasonedError,
  RelayError,
  VERSION,
  parseResult,
  tabUseOf,
  TOOLS,
  toolLabel,
  type ExtensionToHost,
  type HostToExtension,
  type ToolName,
  type ToolParams,
  type ToolResult,
} from '@chrome-relay/protocol';
import type { ActivityEntry, ActivityLog } from './activity/activityLog.js';
import { navigationCut } from './navigationCut.js';
import { rememberTab } from './targets.js';
import { withWhereNavigated } from './refs/refTarget.js';
import { InputLanes, type Turn } from './input/inputLanes.js';
import { ADialog, dialogOpenError, type DialogInfo } from './pageState/dialogs.js';
import { snapshotAfter } from './snapshotAfter.js';
import { prepareCall, type PreparedCall } from './targeting/prepareCall.js';
import { tabsOf, type CallTabs } from './context/call.js';
import type { Policy } from './policy/policy.js';
import { handedTo, type AnyToolDefinition, type ToolDefinition } from './tools/defineTool.js';
import type { Services, ToolContext } from './actions/toolContext.js';

export type CallMessage = Extract<HostToExtension, { type: 'call' }>;
export type Dispatch = (call: CallMessage) => Promise<ExtensionToHost>;

/**
 * Time kept back from the host's deadline so our answer (even a `ready: false` one) crosses the
 * native port before the host gives up on the call.
 */
export const DEADLINE_MARGIN_MS = 250;

/** How long a handler may take to report a dialog that opened under it before the wrapper does. */
export const DIALOG_GRACE_MS = 500;

export interface DispatcherDeps {
  readonly tools: readonly AnyToolDefinition[];
  /** The worker's services, built once by the composition root (background.ts); every call's context carries them. */
  readonly services: Services;
  readonly now?: () => number;
  /** The person's limits (pause, block list, agent tabs only); absent in tests that do not need them. */
  readonly policy?: Pick<Policy, 'checkPause' | 'checkVia' | 'checkTabs' | 'watch' | 'noteResult' | 'explainFailure'>;
  /** Where every call is recorded for the popup. */
  readonly activity?: Pick<ActivityLog, 'start' | 'finish'>;
}

/** The tab a call names before resolution (for the log of a call refused early). */
function namedTab(call: CallMessage): number | null {
  if (call.target?.tab !== undefined) return call.target.tab;
  return typeof call.params.tab === 'number' ? call.params.tab : null;
}

/** The tab a call acted on, for the log: the resolved one, or the one its result names (a new tab). */
function loggedTab(tabs: CallTabs | undefined, result: unknown, fallback: number | null): number | null {
  const first = tabs === undefined ? undefined : tabsOf(tabs)[0];
  if (first !== undefined) return first;
  if (typeof result === 'object' && result !== null && 'tabId' in result && typeof result.tabId === 'number') return result.tabId;
  return fallback;
}


/** The popup's record of one answered call: who, what, where, and the code the agent got. */
function activityEntry(call: CallMessage, at: number, ms: number, tab: number | null, reply: ExtensionToHost): ActivityEntry {
  const entry: ActivityEntry = { at, ms: Math.max(0, ms), agent: call.agent ?? null, tool: call.tool, tab, outcome: 'ok' };
  if (reply.type === 'error') {
    entry.outcome = reply.error.code;
    if (typeof reply.error.details.reason === 'string') entry.reason = reply.error.details.reason;
  }
  if (call.client !== undefined) entry.cli = call.client.version;
  if (call.via !== undefined) entry.via = { kind: call.via.kind, label: call.via.label };
  return entry;
}

const noop = (): void => undefined;

/** The tool's own word that its result left the document parsed (ToolDefinition.leavesParsed). */
function leftParsed<T extends ToolName>(tool: ToolDefinition<T>, params: ToolParams<T>, result: unknown): boolean {
  // The result passed parseResult against this tool's schema (run below).
  return tool.leavesParsed?.(params, result as ToolResult<T>) ?? false;
}

async function run<T extends ToolName>(tool: ToolDefinition<T>, params: ToolParams<T>, ctx: ToolContext): Promise<unknown> {
  // The tool is handed the services it named, and nothing else: what it declares is all it can reach.
  const result = await tool.handle(params, handedTo(tool.uses, ctx));
  return parseResult(tool.name, result);
}

/** The safety net's error: unlike an up-front refusal, the tool did start and may have taken effect. */
function interruptedByDialog(tabId: number, dialog: DialogInfo, tool: string): RelayError {
  const message = dialog.message ? ` (${JSON.stringify(dialog.message.slice(0, 200))})` : '';
  return reasonedError(
    'target_conflict',
    'dialog_open',
    `${ADialog(dialog.type)}${message} opened on tab ${tabId} while ${toolLabel(tool)} was running, so it could not finish; it may already have taken effect (it may be what opened the dialog). Answer it with \`chrome-relay dialog accept\` or \`chrome-relay dialog dismiss\` (add --tab ${tabId} if it is not the current tab), then check the page.`,
    { tool, phase: 'act', details: { tab: tabId, dialog, interrupted: true } },
  );
}

/**
 * The handler under the dialog precondition. `start` runs the handler (once); the dispatcher keeps its promise, which
 * may settle after this one (the safety net below answers without waiting for it).
 */
async function runGuarded<T extends ToolName>(tool: ToolDefinition<T>, tabs: CallTabs, ctx: ToolContext, start: () => Promise<unknown>): Promise<unknown> {
  // A tool whose entry says `dialog: 'self'` deals with dialogs itself (dialog answers them; close reports beforeunload).
  const tabId = tabs.kind === 'tab' && TOOLS[tool.name].dialog !== 'self' ? tabs.tab : undefined;
  if (tabId === undefined) return start();
  const dialogs = ctx.dialogs;
  const open = await dialogs.current(tabId);
  if (open) throw dialogOpenError(tabId, open, tool.name);
  try {
    await dialogs.ensureEvents(ctx, tabId, tool.name);
  } catch (error) {
    // A tab the debugger may not attach to (chrome://, the Web Store) shows us no dialogs; the
    // tool reports what it cannot do there in its own words. Anything else stops the call.
    if (!(error instanceof RelayError && error.code === 'chrome_api_error')) throw error;
    return start();
  }

  const { opened, cancel } = dialogs.onOpened(tabId);
  const running = start();
  running.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const blocked = opened.then(
    (dialog) =>
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(interruptedByDialog(tabId, dialog, tool.name)), DIALOG_GRACE_MS);
      }),
  );
  try {
    return await Promise.race([running, blocked]);
  } finally {
    cancel();
    clearTimeout(timer);
  }
}

/**
 * Wait for the tab's input turn. Past the deadline: timeout busy (lanes). A dialog open or opening on the tab
 * answers dialog_open instead of waiting behind it (the input that opened it stays in flight until it is answered),
 * and a stop (Pause) answers at once; either way the place in the queue is given up and nothing of the call runs.
 */
async function takeTurn(lanes: InputLanes, ctx: ToolContext, tabId: number, tool: string, stopped: Promise<never>): Promise<Turn> {
  const dialogs = ctx.dialogs;
  const waiting = lanes.enter(tabId, ctx.deadline, tool);
  const { opened, cancel } = dialogs.onOpened(tabId);
  const blocked = opened.then((dialog): never => {
    throw dialogOpenError(tabId, dialog, tool);
  });
  blocked.catch(() => undefined);
  try {
    const open = await dialogs.current(tabId);
    if (open) throw dialogOpenError(tabId, open, tool);
    return await Promise.race([waiting.granted, stopped, blocked]);
  } catch (error) {
    waiting.abandon();
    throw error;
  } finally {
    cancel();
  }
}

/** What one run of a tool shares with the call it belongs to (dispatcher's execute). */
interface Stage {
  /** The call's context but for what each run resolved for itself (its tabs and refs). */
  readonly ctx: Omit<ToolContext, 'target' | 'refs'>;
  readonly watch: { setTabs(tabs: readonly number[]): void } | undefined;
  readonly stopped: Promise<never>;
  /** Releases of the debugger sessions held, run when the call has answered. */
  readonly holds: (() => void)[];
  /** The input turns, for a tool that sends input. */
  readonly lanes: InputLanes | undefined;
  /** Waits before the tool runs (the snapshot after an action: until the document parsed). */
  readonly settle?: () => Promise<void>;
}

/** The registry's snapshot tool (the one a call's `snapshot` runs). */
function snapshotTool(byName: ReadonlyMap<string, AnyToolDefinition>): ToolDefinition<'snapshot'> {
  const tool = byName.get('snapshot');
  if (tool === undefined || tool.name !== 'snapshot') throw new RelayError('unsupported_tool', 'This extension has no snapshot tool.', { tool: 'snapshot', phase: 'dispatch' });
  return tool;
}

/** The handler's outcome, or timeout/page_busy at the deadline when the tab's page never let it finish. */
async function byDeadline(running: Promise<unknown>, deadline: number, tabId: number, tool: string): Promise<unknown> {
  running.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = reasonedError(
        'timeout',
        'page_busy',
        `Tab ${tabId} did not let ${toolLabel(tool)} finish before the deadline: its page is busy (a long-running script) or stuck. Check the tab with \`chrome-relay snapshot\`, then retry.`,
        { tool, phase: 'act', details: { tab: tabId } },
      );
      reject(asInterrupted(error));
    }, Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}

export function createDispatcher(deps: DispatcherDeps): Dispatch {
  const byName = new Map<string, AnyToolDefinition>(deps.tools.map((tool) => [tool.name, tool]));
  const now = deps.now ?? Date.now;
  const { services } = deps;
  // One set of turns for every call, and the gate that holds every Input.* command to them.
  const lanes = new InputLanes();
  services.cdp.setInputGate((tabId, method, params) => lanes.admit(tabId, method, params));

  /**
   * One tool's run on its resolved tabs, the same for a call and for the snapshot after it (--snapshot): the person's
   * limits for those tabs, the tabs' debugger sessions held (released with the call's), a pause that landed meanwhile,
   * the input turn (`lanes`, for a tool that sends input), the dialog precondition, the deadline, a stop; then the
   * result as the person's limits let it out.
   */
  async function execute<T extends ToolName>(tool: ToolDefinition<T>, prepared: PreparedCall<T>, stage: Stage, onTurn: (turn: Turn) => void = noop): Promise<unknown> {
    const { watch, stopped } = stage;
    const { tabs, agent } = prepared;
    // What was resolved is handed over whole: the tool looks up neither its tab nor its refs again.
    const ctx: ToolContext = { ...stage.ctx, target: tabs, refs: prepared.refs };
    const tabId = tabs.kind === 'tab' ? tabs.tab : undefined;
    watch?.setTabs(tabsOf(tabs));
    await deps.policy?.checkTabs(tool.name, prepared.params, tabs, prepared.seen);
    // A call that resolved to no tab may open one (navigate): hold every session until it ends.
    stage.holds.push(services.cdp.hold(tabs.kind === 'none' ? 'all' : tabsOf(tabs)));
    // A pause that landed while the call was being resolved: nothing has run yet, say so.
    await deps.policy?.checkPause(tool.name);
    const turn = tabId !== undefined && stage.lanes !== undefined ? await takeTurn(stage.lanes, ctx, tabId, tool.name, stopped) : undefined;
    if (turn !== undefined) onTurn(turn);
    await stage.settle?.();
    let handler: Promise<unknown> | undefined;
    const guarded = runGuarded(tool, tabs, ctx, () => (handler = run(tool, prepared.params, ctx)));
    // The handler starts inside runGuarded, before it settles; it may still be running after (see the header).
    turn?.end(guarded.then(noop, noop).then(() => handler));
    // A busy page must not leave the host to report the extension unresponsive (see the header).
    const running = tabId === undefined ? guarded : byDeadline(guarded, ctx.deadline, tabId, tool.name);
    running.catch(() => undefined);
    let result: unknown;
    try {
      result = await Promise.race([running, stopped]);
    } catch (error) {
      // The tool began to act on a tab the call named (--tab, a ref's, a workspace's): that is where the agent works
      // now. One that failed before acting (a stale ref, an element not found) leaves the remembered tab as it was.
      if (handler !== undefined && !PHASE_TABLE[RelayError.from(error).phase].beforeActing) await remember(tool.name, tabs, undefined, agent).catch(() => undefined);
      throw error;
    }
    await remember(tool.name, tabs, result, agent);
    return deps.policy === undefined ? result : deps.policy.noteResult(tool.name, result);
  }

  /**
   * The tab chrome-relay works on from now on for the call's agent (targets.ts: one per agent identity), remembered
   * here for every tool that acts in a page: the tab its result names (navigate's new tab), else the one the call was
   * resolved to — never by a tool.
   */
  async function remember(tool: ToolName, tabs: CallTabs, result: unknown, agent: string | undefined): Promise<void> {
    const use = tabUseOf(tool);
    // Tools that manage tabs by id (close, groups, leases: their tabs are `tabs`) change nothing of it.
    if ((use !== 'page' && use !== 'page_or_new') || tabs.kind === 'tabs') return;
    const named = typeof result === 'object' && result !== null && 'tabId' in result && typeof result.tabId === 'number' ? result.tabId : undefined;
    const tab = named ?? (tabs.kind === 'tab' ? tabs.tab : undefined);
    if (tab !== undefined) await rememberTab(tab, services.browser, agent);
  }

  return async (call) => {
    const startedAt = now();
    // The popup's history leaves out health checks and host plumbing (the tool entry's `health`): not agent actions.
    const logged = deps.activity !== undefined && !(isToolName(call.tool) && TOOLS[call.tool].health === true);
    const runningId = logged ? deps.activity?.start({ at: startedAt, agent: call.agent ?? null, tool: call.tool, tab: namedTab(call), ...(call.via === undefined ? {} : { via: call.via }) }) : undefined;
    let stopCall: (error: RelayError) => void = () => undefined;
    const stopped = new Promise<never>((_resolve, reject) => {
      stopCall = reject;
    });
    stopped.catch(() => undefined);
    // Subscribed before the pause check, so a pause landing in between still stops this call.
    const watch = deps.policy?.watch(call.tool, (error) => stopCall(error));
    const holds: (() => void)[] = [];
    let tabs: CallTabs | undefined;
    let reply: ExtensionToHost;
    let result: unknown;
    let tabId: number | undefined;
    let turn: Turn | undefined;
    try {
      const tool = byName.get(call.tool);
      if (!tool) {
        throw new RelayError(
          'unsupported_tool',
          `This extension (${VERSION}) does not know the tool "${call.tool}": update the extension (\`chrome-relay doctor\` shows versions) or check the command name.`,
          { tool: call.tool, phase: 'dispatch', details: { tool: call.tool, extensionVersion: VERSION } },
        );
      }
      // The pause is decided first and wins over any other failure; the call is still resolved (it only
      // reads) so the popup's log can say which tab the refused command was meant for.
      const pause = deps.policy?.checkPause(tool.name) ?? Promise.resolve();
      pause.catch(() => undefined);
      const ctx = { ...services, deadline: now() + call.timeoutMs - DEADLINE_MARGIN_MS };
      let prepared: Awaited<ReturnType<typeof prepareCall>>;
      try {
        prepared = await prepareCall(tool.name, { params: call.params, target: call.target, agent: call.agent }, services.targeting);
      } catch (error) {
        await pause;
        throw error;
      }
      tabs = prepared.tabs;
      if (tabs.kind === 'tab') tabId = tabs.tab;
      await pause;
      // An agent through a bridge the person turned off: after the pause (which wins), before anything acts.
      await deps.policy?.checkVia(tool.name, call.via);
      const stage: Stage = { ctx, watch, stopped, holds, lanes: TOOLS[tool.name].input === true ? lanes : undefined };
      result = await execute(tool, prepared, stage, (started) => (turn = started));
      if (call.snapshot === undefined) reply = { type: 'result', id: call.id, ok: true, result };
      else {
        // The CLI's --snapshot: the tab the result names, right after, through the same path as a snapshot call of
        // its own (the person's limits, the tab's hold, the dialog precondition, the deadline, a stop).
        const parsed = leftParsed(tool, prepared.params, result);
        const snapshot = await snapshotAfter(ctx, { tool: tool.name, result, parsed }, call.snapshot, async (snapshotParams, settle) => {
          const snapshotDef = snapshotTool(byName);
          const after = await prepareCall('snapshot', { params: snapshotParams, agent: call.agent }, services.targeting);
          await deps.policy?.checkPause('snapshot');
          return execute(snapshotDef, after, { ...stage, lanes: undefined, settle });
        });
        reply = { type: 'result', id: call.id, ok: true, result, snapshot: deps.policy === undefined ? snapshot : await deps.policy.noteResult('snapshot', snapshot) };
      }
    } catch (caught) {
      const told = await withWhereNavigated(caught, services.browser);
      const error = deps.policy === undefined ? told : await deps.policy.explainFailure(call.tool, told).catch(() => told);
      // A plain Error can only come from inside a handler (a bug there): report it in phase 'act'.
      const failure = RelayError.from(navigationCut(error, call.tool, tabId), call.tool, 'act');
      // Answered while its handler may still run (deadline, Pause, a dialog): it sends no new input from now on.
      turn?.answered(failure);
      reply = { type: 'error', id: call.id, error: failure.toData() };
    } finally {
      for (const release of holds) release();
      watch?.close();
    }
    if (runningId !== undefined) {
      const entry = activityEntry(call, startedAt, now() - startedAt, loggedTab(tabs, result, namedTab(call)), reply);
      deps.activity?.finish(runningId, entry).catch((error: unknown) => console.error('chrome-relay: recording the call failed', error));
    }
    return reply;
  };
}
