/**
 * Runs one host 'call': find the tool, decide once which tabs it acts on (targeting/prepareCall.ts:
 * envelope, validation, tab resolution, leases), run the handler with a deadline, validate the
 * result, and answer with exactly one ExtensionToHost message. It never throws: every failure
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
 */
import {
  reasonedError,
  RelayError,
  VERSION,
  parseResult,
  TOOLS,
  type ExtensionToHost,
  type HostToExtension,
  type ToolName,
  type ToolParams,
} from '@chrome-relay/protocol';
import type { BrowserApi } from './browserApi.js';
import type { CdpSessions } from './cdp/cdpSession.js';
import { dialogOpenError, dialogTracker, type DialogInfo } from './pageState/dialogs.js';
import { downloadTracker } from './pageState/downloads.js';
import { networkActivity } from './pageState/networkIdle.js';
import { snapshotAfter } from './snapshotAfter.js';
import { prepareCall, type TargetingContext } from './targeting/prepareCall.js';
import type { CallTabs } from './targeting/resolveCall.js';
import type { AnyToolDefinition, ToolContext, ToolDefinition } from './tools/defineTool.js';

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
  readonly cdp: CdpSessions;
  readonly browser: BrowserApi;
  readonly now?: () => number;
  /** Envelope targeting, tab resolution and leases (the worker's: targeting/index.ts; tests pass fakes). */
  readonly targeting: TargetingContext;
}


async function run<T extends ToolName>(tool: ToolDefinition<T>, params: ToolParams<T>, ctx: ToolContext): Promise<unknown> {
  const result = await tool.handle(params, ctx);
  return parseResult(tool.name, result);
}

/** The safety net's error: unlike an up-front refusal, the tool did start and may have taken effect. */
function interruptedByDialog(tabId: number, dialog: DialogInfo, tool: string): RelayError {
  const message = dialog.message ? ` (${JSON.stringify(dialog.message.slice(0, 200))})` : '';
  return reasonedError(
    'target_conflict',
    'dialog_open',
    `A ${dialog.type} dialog${message} opened on tab ${tabId} while ${tool} was running, so ${tool} could not finish; it may already have taken effect (it may be what opened the dialog). Answer it with \`chrome-relay dialog accept\` or \`chrome-relay dialog dismiss\` (add --tab ${tabId} if it is not the current tab), then check the page.`,
    { tool, phase: 'act', details: { tab: tabId, dialog, interrupted: true } },
  );
}

async function runGuarded<T extends ToolName>(tool: ToolDefinition<T>, params: ToolParams<T>, tabs: CallTabs, ctx: ToolContext): Promise<unknown> {
  // A tool whose entry says `dialog: 'self'` deals with dialogs itself (dialog answers them; close reports beforeunload).
  const tabId = tabs.kind === 'tab' && TOOLS[tool.name].dialog !== 'self' ? tabs.tab : undefined;
  if (tabId === undefined) return run(tool, params, ctx);
  const dialogs = dialogTracker(ctx);
  const open = await dialogs.current(tabId);
  if (open) throw dialogOpenError(tabId, open, tool.name);
  try {
    await dialogs.ensureEvents(ctx, tabId, tool.name);
  } catch (error) {
    // A tab the debugger may not attach to (chrome://, the Web Store) shows us no dialogs; the
    // tool reports what it cannot do there in its own words. Anything else stops the call.
    if (!(error instanceof RelayError && error.code === 'chrome_api_error')) throw error;
    return run(tool, params, ctx);
  }

  const { opened, cancel } = dialogs.onOpened(tabId);
  const running = run(tool, params, ctx);
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

/** The registry's snapshot tool (the one a call's `snapshot` runs). */
function snapshotTool(byName: ReadonlyMap<string, AnyToolDefinition>): ToolDefinition<'snapshot'> {
  const tool = byName.get('snapshot');
  if (tool === undefined || tool.name !== 'snapshot') throw new RelayError('unsupported_tool', 'This extension has no snapshot tool.', { tool: 'snapshot', phase: 'dispatch' });
  return tool;
}

export function createDispatcher(deps: DispatcherDeps): Dispatch {
  const byName = new Map<string, AnyToolDefinition>(deps.tools.map((tool) => [tool.name, tool]));
  const now = deps.now ?? Date.now;
  // Created now, synchronously: background calls this at the worker's top level, so dialog and
  // download events that wake the worker already find their listeners.
  dialogTracker({ cdp: deps.cdp, browser: deps.browser });
  downloadTracker({ cdp: deps.cdp });
  networkActivity({ cdp: deps.cdp });

  return async (call) => {
    try {
      const tool = byName.get(call.tool);
      if (!tool) {
        throw new RelayError(
          'unsupported_tool',
          `This extension (${VERSION}) does not know the tool "${call.tool}": update the extension (\`chrome-relay doctor\` shows versions) or check the command name.`,
          { tool: call.tool, phase: 'dispatch', details: { tool: call.tool, extensionVersion: VERSION } },
        );
      }
      const ctx: ToolContext = { cdp: deps.cdp, browser: deps.browser, deadline: now() + call.timeoutMs - DEADLINE_MARGIN_MS };
      const { params, tabs } = await prepareCall(tool.name, { params: call.params, target: call.target, agent: call.agent }, deps.targeting);
      const result = await runGuarded(tool, params, tabs, ctx);
      if (call.snapshot === undefined) return { type: 'result', id: call.id, ok: true, result };
      // The CLI's --snapshot: the tab the result names, right after, as a snapshot call of its own would run.
      const snapshot = await snapshotAfter(ctx, tool.name, result, call.snapshot, async (snapshotParams) => {
        const prepared = await prepareCall('snapshot', { params: snapshotParams, agent: call.agent }, deps.targeting);
        return runGuarded(snapshotTool(byName), prepared.params, prepared.tabs, ctx);
      });
      return { type: 'result', id: call.id, ok: true, result, snapshot };
    } catch (error) {
      // A plain Error can only come from inside a handler (a bug there): report it in phase 'act'.
      return { type: 'error', id: call.id, error: RelayError.from(error, call.tool, 'act').toData() };
    }
  };
}
